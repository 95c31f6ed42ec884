// After signing out, nothing of the account is left for the next person at the same
// browser: Back (online, and offline with the service worker in place) shows the
// sign-in page or the empty shell, never the answer, the transactions or the name.
// Pages and answers holding a user's data are `Cache-Control: no-store`, so neither the
// HTTP cache nor the back-forward cache keeps them.
import { test, expect } from '@playwright/test';
import { watchConsole, expectNoConsoleErrors, signIn, ask, open, hydrated, snap } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo, (m) =>
  // Offline, the browser reports the page it could not fetch.
  /ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(m.text())));
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

// What must not be on screen: the account's name and the figure it was shown.
async function expectNothingOf(page, name, figure) {
  const text = await page.locator('body').innerText().catch(() => '');
  expect(text, 'the account name').not.toContain(name);
  expect(text, 'the answer').not.toContain(figure);
  await expect(page.getByTestId('total')).toHaveCount(0);
  await expect(page.getByTestId('transactions')).toHaveCount(0);
}

for (const offline of [false, true]) {
  test(`Back after signing out shows nothing of the account (${offline ? 'offline' : 'online'})`, async ({ page, context }, testInfo) => {
    test.skip(offline && !hydrated(testInfo), 'offline, only the service worker answers: it needs JavaScript');
    const name = await signIn(page, testInfo);
    if (offline) await page.evaluate(() => navigator.serviceWorker.ready);
    await ask(page, "Combien j'ai dépensé en courses en janvier 2026 ?");
    const total = page.getByTestId('total').last();
    await expect(total).toBeVisible();
    const figure = (await total.innerText()).trim();
    await expect(page).toHaveURL(/\/c\/[0-9a-f]{32}/);
    // A page of the account's own, then the conversation again: two pages in history.
    await open(page, testInfo, '/settings/budgets');
    await page.goBack();
    await expect(page.getByTestId('total').last()).toHaveText(figure);
    const response = await page.request.get(page.url());
    expect(response.headers()['cache-control'], 'the conversation page').toBe('no-store');

    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await expect(page).toHaveURL(/\/login/);
    if (offline) await context.setOffline(true);
    await page.goBack();
    await page.waitForLoadState();
    await snap(page, { path: `test-results/back-after-signout-${offline ? 'offline' : 'online'}-${testInfo.project.name}.png`, fullPage: true });
    await expectNothingOf(page, name, figure);
    if (!offline) await expect(page).toHaveURL(/\/login/);
    await page.goBack();
    await page.waitForLoadState();
    await expectNothingOf(page, name, figure);
    if (offline) await context.setOffline(false);
  });
}
