// A new version of Sou: its service worker waits, the chat offers "Recharger", and the
// page reloads only when the user asks, and not while an answer is being written.
// Against the Sou with a model (its mock streams slowly: an answer in progress).
import { test, expect } from '@playwright/test';
import { hydrated, watchConsole, expectNoConsoleErrors, signIn, ask } from './support.mjs';
import { llmPort } from './model-env.mjs';

test.use({ baseURL: `http://127.0.0.1:${llmPort}` });
test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo));
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

test('a new version is offered, and reloads when asked, after the answer being written', async ({ page }, testInfo) => {
  test.skip(!hydrated(testInfo), 'a service worker needs JavaScript');
  await signIn(page, testInfo);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect(page.locator('#update')).toBeHidden();

  // An answer being written (the mock's slow one).
  await ask(page, 'Des astuces pour économiser ?');
  await expect(page.getByTestId('answer').last()).toContainText('mot2');

  // A new worker, as a new build brings (another script URL makes the browser install
  // it, as other bytes would): offered, not taken.
  await page.evaluate(() => { window.beforeUpdate = true; });
  await page.evaluate(() => navigator.serviceWorker.register('/sw.js?next-build'));
  await expect(page.locator('#update')).toBeVisible();
  await page.getByRole('button', { name: 'Recharger' }).click();
  await page.waitForTimeout(1000);
  expect(await page.evaluate(() => window.beforeUpdate), 'no reload during the answer').toBe(true);
  await expect(page.getByTestId('stop')).toBeVisible();

  // The answer ends (stopped here): then the page reloads, on the new version.
  await page.getByTestId('stop').click();
  await expect.poll(() => page.evaluate(() => window.beforeUpdate ?? false)).toBe(false);
  await expect(page.locator('body[data-hydrated]')).toHaveCount(1);
  expect(await page.evaluate(() => navigator.serviceWorker.controller.scriptURL)).toContain('/sw.js?next-build');
});
