// Two people in two browser contexts: neither reaches the other's conversations, by
// page, by server function or by the API; no one signed in reaches anything.
import { test, expect } from '@playwright/test';
import { hydrated, watchConsole, expectNoConsoleErrors, open, ask, signIn } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo));
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

const form = (data) => ({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, data });

test('two users cannot see each other\'s conversations by any URL', async ({ page, browser }, testInfo) => {
  const tag = `${testInfo.project.name}-${Date.now()}`;
  const secret = `Combien j'ai dépensé en courses en janvier 2026 ? secret-${tag}`;
  const base = testInfo.project.use.baseURL;

  // Alice asks; her conversation has an id in the URL.
  await signIn(page, testInfo);
  await ask(page, secret);
  await expect(page).toHaveURL(/\/c\/[0-9a-f]{32}/);
  await expect(page.getByTestId('turn').last().locator('.thinking')).toHaveCount(0);
  const id = new URL(page.url()).pathname.split('/c/')[1];

  // Bob, in his own browser context, with his own account.
  const bobContext = await browser.newContext({
    baseURL: base, locale: 'fr-FR', javaScriptEnabled: hydrated(testInfo),
  });
  const bob = await bobContext.newPage();
  watchConsole(bob, { problems: [] });
  await signIn(bob, testInfo);
  await expect(bob.getByTestId('history')).not.toContainText(`secret-${tag}`);
  const response = await bob.goto(`/c/${id}`);
  expect(response.status()).toBe(404);
  await expect(bob.locator('body')).not.toContainText(`secret-${tag}`);
  await bob.screenshot({ path: `test-results/isolation-bob-${testInfo.project.name}.png`, fullPage: true });

  const tries = [
    ['/api/page', form(`conversation_id=${id}`)],
    ['/api/rename_conversation', form(`id=${id}&title=pris`)],
    ['/api/delete_conversation', form(`id=${id}&back=/`)],
    ['/api/v1/chat', { data: { message: 'et en février ?', conversation_id: id } }],
  ];
  for (const [url, options] of tries) {
    const r = await bob.request.post(url, { ...options, maxRedirects: 0 });
    expect(r.status(), url).toBe(404);
    expect(await r.text(), url).not.toContain(`secret-${tag}`);
  }
  const history = await bob.request.post('/api/history', form(''));
  expect(history.status()).toBe(200);
  expect(await history.text()).not.toContain(id);

  // No one signed in: sent to the sign-in page, or a 401.
  const nobody = await browser.newContext({ baseURL: base, javaScriptEnabled: hydrated(testInfo) });
  const anon = await nobody.newPage();
  await anon.goto(`/c/${id}`);
  await expect(anon).toHaveURL(new RegExp(`/login\\?next=%2Fc%2F${id}$`));
  await expect(anon.locator('body')).not.toContainText(`secret-${tag}`);
  expect((await anon.request.post('/api/page', form(`conversation_id=${id}`))).status()).toBe(401);
  expect((await anon.request.post('/api/v1/chat', { data: { message: 'x', conversation_id: id } })).status()).toBe(401);

  // Alice's conversation is as she left it.
  await open(page, testInfo, `/c/${id}`);
  await expect(page.getByTestId('turn')).toHaveCount(1);
  await expect(page.getByTestId('turn').first()).toContainText(`secret-${tag}`);
  await expect(page.getByTestId('history').locator(`li[data-conversation="${id}"]`)).toHaveCount(1);
  await bobContext.close();
  await nobody.close();
});
