// Runs you can see into, with JavaScript and without: under an answer, "How Sou got
// this" lists its steps and the transactions behind the figure (the SQLite file's own
// rows); a month's review is a plan shown before it runs, then run step by step; and
// Settings → Usage with its limit form.
import { test, expect } from '@playwright/test';
import { watchConsole, expectNoConsoleErrors, open, ask, signIn, snap } from './support.mjs';
import { spendingIds } from './ledger.mjs';

test.beforeEach(async ({ page }, testInfo) => {
  watchConsole(page, testInfo);
  await signIn(page, testInfo);
});
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

async function lastTurn(page) {
  const turn = page.getByTestId('turn').last();
  await expect(turn.locator('.thinking')).toHaveCount(0);
  return turn;
}

test('the trace panel lists the steps and the transactions behind the figure', async ({ page }, testInfo) => {
  const tag = testInfo.project.name;
  await ask(page, 'combien j\'ai dépensé en courses en octobre 2026 ?');
  const turn = await lastTurn(page);
  const trace = turn.getByTestId('trace');
  await expect(trace).toBeVisible();
  await trace.locator('summary').first().click();
  const steps = trace.getByTestId('trace-step');
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(0)).toHaveAttribute('data-kind', 'parse');
  await expect(steps.nth(1)).toHaveAttribute('data-kind', 'tool');
  await expect(steps.nth(2)).toHaveAttribute('data-kind', 'verify');
  await expect(steps.nth(2).locator('.checks li[data-outcome=failed]')).toHaveCount(0);
  // The sources are the SQLite file's rows.
  const expected = spendingIds('groceries', '2026-10-01', '2026-11-01');
  expect(expected.length).toBeGreaterThan(0);
  const sources = steps.nth(1).getByTestId('sources');
  await expect(sources.locator('summary')).toContainText(`${expected.length} opérations`);
  await sources.locator('summary').click();
  const shown = await sources.locator('li').evaluateAll((lis) => lis.map((li) => Number(li.dataset.id)));
  expect(shown.length).toBe(Math.min(20, expected.length));
  for (const id of shown) expect(expected).toContain(id);
  await snap(page, { path: `test-results/runs-trace-${tag}.png`, fullPage: true });
  // The figure links to its step.
  await turn.getByTestId('figure-source').first().click();
  await expect(page).toHaveURL(/#step-[0-9a-f]{32}-2$/);
  // A source opens the list of them all, at its row; every row is the file's.
  await sources.locator('li a').first().click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f]{32}\/sources\?step=2#tx-\d+$/);
  const rows = page.getByTestId('source-row');
  await expect(rows).toHaveCount(expected.length);
  const all = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.id)).sort((a, b) => a - b));
  expect(all).toEqual(expected);
  await snap(page, { path: `test-results/runs-sources-${tag}.png`, fullPage: true });
});

test("a month's review is a plan shown before it runs, then run step by step", async ({ page }, testInfo) => {
  const tag = testInfo.project.name;
  await ask(page, "prépare mon bilan d'octobre 2026");
  let turn = await lastTurn(page);
  const card = turn.getByTestId('run-plan');
  await expect(card).toHaveAttribute('data-state', 'proposed');
  await expect(card.locator('.plan-steps li')).toHaveCount(5);
  await expect(turn.getByTestId('result')).toHaveCount(0);
  await snap(page, { path: `test-results/runs-plan-${tag}.png`, fullPage: true });
  // On a phone the card fits, its buttons large enough to tap.
  await page.setViewportSize({ width: 390, height: 844 });
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(width);
  expect((await card.getByTestId('run-accept').boundingBox()).height).toBeGreaterThanOrEqual(44);
  await snap(page, { path: `test-results/runs-plan-phone-${tag}.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Edited: the last step dropped.
  await card.locator('details.edit summary').click();
  await card.locator('input[name="keep_5"]').uncheck();
  await card.getByTestId('run-edit').click();
  await expect(page).toHaveURL(/#run-[0-9a-f]{32}$/);
  await expect(page.getByTestId('run-plan').last().locator('.plan-steps li')).toHaveCount(4);

  // Run: the steps come, each with its result, then the plan is done.
  await page.getByTestId('run-plan').last().getByTestId('run-accept').click();
  const done = page.getByTestId('run-plan').last();
  await expect(done).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  turn = page.getByTestId('turn').last();
  await expect(turn.getByTestId('step-head')).toHaveCount(4);
  await expect(turn.getByTestId('result')).toHaveCount(4);
  await expect(turn.getByTestId('figure-source')).toHaveCount(4);
  await snap(page, { path: `test-results/runs-plan-done-${tag}.png`, fullPage: true });
});

test('Settings → Usage: the month, and a limit that keeps what was typed when refused', async ({ page }, testInfo) => {
  const tag = testInfo.project.name;
  await open(page, testInfo, '/settings');
  await page.getByTestId('usage-link').click();
  await expect(page).toHaveURL(/\/settings\/usage$/);
  await expect(page.getByTestId('spent')).toContainText('0,0000');
  await page.locator('#limit').fill('beaucoup');
  await page.getByTestId('save-limit').click();
  await expect(page.getByTestId('limit-error')).toBeVisible();
  await expect(page.locator('#limit')).toHaveValue('beaucoup');
  await page.locator('#limit').fill('12,50');
  await page.getByTestId('save-limit').click();
  await expect(page.getByTestId('limit')).toContainText('12,50\u00a0€');
  await expect(page.locator('#limit')).toHaveValue('12,50');
  await snap(page, { path: `test-results/runs-usage-${tag}.png`, fullPage: true });
});
