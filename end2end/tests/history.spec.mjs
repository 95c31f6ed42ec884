// The conversation history sidebar: conversations listed newest first, the one on
// screen marked, renamed and deleted from its menu — with JavaScript and without.
import { test, expect } from '@playwright/test';
import { watchConsole, expectNoConsoleErrors, open, ask as send, signIn, snap } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => {
  watchConsole(page, testInfo);
  await signIn(page, testInfo);
});
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

// Asks, waits for the answer, returns the new conversation's id.
async function ask(page, question) {
  await send(page, question);
  await expect(page).toHaveURL(/\/c\/[0-9a-f]{32}/);
  await expect(page.getByTestId('turn').last().locator('.thinking')).toHaveCount(0);
  return new URL(page.url()).pathname.split('/c/')[1];
}

test('conversations are listed, renamed and deleted from the sidebar', async ({ page }, testInfo) => {
  const tag = testInfo.project.name;
  await open(page, testInfo, '/');
  const first = await ask(page, `Quel est mon solde ? ${tag} un`);
  await open(page, testInfo, '/');
  const second = await ask(page, `Mes abonnements ${tag} deux`);

  const history = page.getByTestId('history');
  const items = history.locator('li');
  // Newest first; the conversation on screen is marked.
  await expect(items.first()).toHaveAttribute('data-conversation', second);
  await expect(items.nth(1)).toHaveAttribute('data-conversation', first);
  await expect(history.locator('li.current')).toHaveAttribute('data-conversation', second);
  await expect(history.locator('[aria-current="page"]')).toHaveText(`Mes abonnements ${tag} deux`);
  await snap(page, { path: `test-results/history-${tag}.png` });

  // Rename the first one from its menu.
  const item = history.locator(`li[data-conversation="${first}"]`);
  await item.locator('summary').click();
  await item.getByLabel('Titre').fill(`Mon solde (${tag})`);
  await item.getByRole('button', { name: 'Renommer' }).click();
  await expect(history.locator(`li[data-conversation="${first}"] > a`)).toHaveText(`Mon solde (${tag})`);
  await snap(page, { path: `test-results/history-renamed-${tag}.png` });
  await expect(page).toHaveURL(new RegExp(`/c/${second}`));

  // Open it, then delete it while it is on screen: back to the start page, gone.
  await history.locator(`li[data-conversation="${first}"] > a`).click();
  await expect(page).toHaveURL(new RegExp(`/c/${first}`));
  const current = page.getByTestId('history').locator(`li[data-conversation="${first}"]`);
  await current.locator('summary').click();
  await current.getByRole('button', { name: 'Supprimer' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('history').locator(`li[data-conversation="${first}"]`)).toHaveCount(0);
  await expect(page.getByTestId('history').locator(`li[data-conversation="${second}"]`)).toHaveCount(1);
  const gone = await page.request.get(`/c/${first}`);
  expect(gone.status()).toBe(404);
});
