// Every answer that runs means what was asked: one case of each class a word changes —
// months joined (asked: each, or together), a half, an exclusion, an average, money coming in said with a verb,
// "where … most" — answers with the figure an independent SQL query gives; months
// named apart, a write, and a request with no ledger meaning ask instead. With and
// without JavaScript, no model configured.
import { test, expect } from '@playwright/test';
import { spent, spentExcept, receivedFrom } from './ledger.mjs';
import { hydrated, watchConsole, expectNoConsoleErrors, open, ask, signIn, snap } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => {
  watchConsole(page, testInfo);
  await signIn(page, testInfo);
  await open(page, testInfo);
});

test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

const lastResult = (page) => page.getByTestId('turn').last().getByTestId('result');

test('months joined by "and", a half, and a terse name and period are what was asked', async ({ page }) => {
  // Each month, or both together: asked, each one click away.
  await ask(page, 'How much did I spend on trains in June and July 2025?');
  const card = page.getByTestId('turn').last().getByTestId('clarify');
  await expect(card).toBeVisible();
  await expect(card).toContainText('June 2025');
  await expect(card).toContainText('July 2025');
  await card.locator('.suggestion button').last().click();
  await expect(lastResult(page).getByTestId('total')).toHaveAttribute(
    'data-minor', String(spent('transport', '2025-06-01', '2025-08-01')));
  await ask(page, 'factures au premier semestre 2025');
  await expect(lastResult(page).getByTestId('total')).toHaveAttribute(
    'data-minor', String(spent('utilities', '2025-01-01', '2025-07-01')));
  // Terse: a name and a period, nothing else, is that name's total.
  await ask(page, 'Q2 2026 transport');
  await expect(lastResult(page).getByTestId('total')).toHaveAttribute(
    'data-minor', String(spent('transport', '2026-04-01', '2026-07-01')));
});

test('an exclusion leaves the merchant out and says so', async ({ page }, testInfo) => {
  const expected = spentExcept('groceries', 'picard', '2025-01-01', '2026-01-01');
  expect(expected).toBeLessThan(spent('groceries', '2025-01-01', '2026-01-01'));
  if (hydrated(testInfo)) {
    await page.locator('#message').fill('courses hors Picard en 2025');
    const badge = page.getByTestId('draft-plan');
    await expect(badge).toHaveAttribute('data-confidence', 'high');
    await expect(badge).toContainText('hors Picard');
    await page.locator('#message').press('Enter');
  } else {
    await ask(page, 'courses hors Picard en 2025');
  }
  const result = lastResult(page);
  await expect(result.getByTestId('total')).toHaveAttribute('data-minor', String(expected));
  await expect(result).toContainText('hors Picard');
  await expect(page.getByTestId('answer').last()).toContainText('(hors Picard)');
});

test('an average is the figure, the total beside it', async ({ page }, testInfo) => {
  const total = spent('transport', '2025-01-01', '2026-01-01');
  expect(total).toBeGreaterThan(0);
  await ask(page, 'average monthly spend on transport in 2025');
  const result = lastResult(page);
  await expect(result.getByTestId('average')).toHaveAttribute('data-minor', String(Math.round(total / 12)));
  await expect(result.getByTestId('average')).toContainText('per month');
  await expect(result.getByTestId('total')).toHaveAttribute('data-minor', String(total));
  await expect(page.getByTestId('answer').last()).toContainText('over 12 months');
  await snap(page, { path: `test-results/average-${testInfo.project.name}.png`, fullPage: true });
  // With nothing saying per what, Sou asks.
  await ask(page, 'mes dépenses moyennes en courses en 2025');
  const card = page.getByTestId('turn').last().getByTestId('clarify');
  await expect(card).toContainText('par mois');
  await expect(card).toContainText('par opération');
  await expect(page.getByTestId('turn').last().getByTestId('result')).toHaveCount(0);
});

test('money paid to the user is income; where the money went most is by merchant', async ({ page }) => {
  const paid = receivedFrom('acme', '2026-01-01', '2026-04-01');
  expect(paid).toBeGreaterThan(0);
  await ask(page, 'What did ACME pay me in Q1 2026?');
  const result = lastResult(page);
  await expect(result).toHaveAttribute('data-tool', 'income_summary');
  await expect(result.getByTestId('total')).toHaveAttribute('data-minor', String(paid));
  await ask(page, 'where did I spend the most last month');
  await expect(lastResult(page)).toHaveAttribute('data-tool', 'spending_summary');
  await expect(lastResult(page).getByTestId('groups')).toBeVisible();
});

test('months named apart, moving money, and a request about the world ask instead', async ({ page }, testInfo) => {
  const asks = async (message, words) => {
    await ask(page, message);
    const turn = page.getByTestId('turn').last();
    await expect(turn.getByTestId('clarify')).toBeVisible();
    await expect(turn.getByTestId('result')).toHaveCount(0);
    for (const w of words) await expect(turn).toContainText(w);
  };
  await asks('dépenses en courses en janvier et mars 2025', ['janvier 2025', 'mars 2025']);
  // A change Sou cannot make (money moved) is asked about; one it can make is proposed
  // (writes.spec.mjs).
  await asks('vire 100 € sur le livret', ["jamais d'argent"]);
  await asks('book a hotel in Lyon from the 3rd to the 6th of May', []);
  await asks('who won the world cup in 1998', ['no answers beyond your accounts']);
  await snap(page, { path: `test-results/asks-${testInfo.project.name}.png`, fullPage: true });
});
