import { test, expect } from '@playwright/test';
import { spent, euros, balance, net, used, paidAtEver } from './ledger.mjs';
import { hydrated, watchConsole, expectNoConsoleErrors, open, ask, signIn, snap } from './support.mjs';

// Console errors and uncaught exceptions fail the test.
test.beforeEach(async ({ page }, testInfo) => {
  watchConsole(page, testInfo);
  await signIn(page, testInfo);
  await open(page, testInfo);
});

test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

test('French question: the total is the ledger sum', async ({ page }, testInfo) => {
  const expected = spent('groceries', '2026-01-01', '2026-02-01');
  expect(expected).toBeGreaterThan(0);
  const question = "Combien j'ai dépensé en courses en janvier 2026 ?";
  if (hydrated(testInfo)) {
    // The plan badge is computed in the browser while typing.
    await page.getByRole('textbox').fill(question);
    const badge = page.getByTestId('draft-plan');
    await expect(badge).toHaveAttribute('data-tool', 'spending_summary');
    await expect(badge).toHaveAttribute('data-confidence', 'high');
    await expect(badge).toContainText('Courses');
    await expect(badge).toContainText('janvier 2026');
    await snap(page, { path: `test-results/badge-${testInfo.project.name}.png` });
    await page.getByRole('textbox').press('Enter');
  } else {
    await ask(page, question);
  }
  const total = page.getByTestId('total').last();
  await expect(total).toHaveAttribute('data-minor', String(expected));
  await expect(total).toHaveText(euros(expected, 'fr'));
  const rows = page.getByTestId('result').last().getByTestId('transactions').first().locator('tbody tr');
  await expect(rows).toHaveCount(8);
  await expect(rows.first()).toBeVisible();
  await expect(page).toHaveURL(/\/c\/[0-9a-f]{32}/);
  await snap(page, { path: `test-results/answer-fr-${testInfo.project.name}.png`, fullPage: true });
});

test('English question: the total is the ledger sum', async ({ page }, testInfo) => {
  const expected = spent('groceries', '2026-01-01', '2026-02-01');
  await ask(page, 'How much did I spend on groceries in January 2026?');
  const total = page.getByTestId('total').last();
  await expect(total).toHaveAttribute('data-minor', String(expected));
  await expect(total).toHaveText(euros(expected, 'en'));
  await expect(page.getByTestId('answer').last()).toContainText('You spent');
  await snap(page, { path: `test-results/answer-en-${testInfo.project.name}.png`, fullPage: true });
});

test('a follow-up asks first, then one click runs it', async ({ page }, testInfo) => {
  await ask(page, "Combien j'ai dépensé en courses en janvier 2026 ?");
  await expect(page.getByTestId('total')).toHaveCount(1);
  await ask(page, 'et en février ?');
  const card = page.getByTestId('clarify').last();
  await expect(card).toBeVisible();
  await snap(page, { path: `test-results/clarify-${testInfo.project.name}.png`, fullPage: true });
  await card.getByRole('button').first().click();
  const expected = spent('groceries', '2026-02-01', '2026-03-01');
  await expect(page.getByTestId('total')).toHaveCount(2);
  await expect(page.getByTestId('total').last()).toHaveAttribute('data-minor', String(expected));
});

test('a comparison shows both totals and the change', async ({ page }, testInfo) => {
  const current = spent('groceries', '2026-01-01', '2026-02-01');
  const reference = spent('groceries', '2025-01-01', '2025-02-01');
  await ask(page, 'Dépenses en courses en janvier 2026 vs janvier 2025');
  const result = page.getByTestId('result').last();
  await expect(result).toHaveAttribute('data-tool', 'compare_periods');
  await expect(result.getByTestId('total')).toHaveAttribute('data-minor', String(current));
  await expect(result.getByTestId('reference-total')).toHaveAttribute('data-minor', String(reference));
  await expect(result.getByTestId('difference')).toHaveAttribute('data-minor', String(current - reference));
  await snap(page, { path: `test-results/compare-${testInfo.project.name}.png`, fullPage: true });
});

// The server resolves "today" itself; the tests read it the same way (UTC date).
const today = new Date().toISOString().slice(0, 10);
const monthStart = today.slice(0, 8) + '01';
const nextMonth = (() => {
  const d = new Date(monthStart + 'T00:00:00Z');
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
})();

test('spending per month is drawn as a line, every value written out', async ({ page }, testInfo) => {
  await ask(page, 'mes dépenses en courses par mois en 2025');
  const result = page.getByTestId('result').last();
  await expect(result).toHaveAttribute('data-tool', 'spending_summary');
  const chart = result.getByTestId('chart');
  await expect(chart).toHaveAttribute('data-kind', 'line');
  await expect(chart.locator('svg.chart-wide[role="img"] > title')).toHaveText('Dépenses par mois — Courses, année 2025');
  await expect(chart.locator('svg.chart-wide circle.chart-dot')).toHaveCount(12);
  const january = spent('groceries', '2025-01-01', '2025-02-01');
  const december = spent('groceries', '2025-12-01', '2026-01-01');
  await expect(chart.locator('svg.chart-wide desc')).toContainText(`janvier 2025 : ${euros(january, 'fr')}`);
  await expect(chart.locator('svg.chart-wide desc')).toContainText(`décembre 2025 : ${euros(december, 'fr')}`);
  // The values stay listed beside their months.
  await expect(result.getByTestId('groups').locator('li')).toHaveCount(12);
  await snap(page, { path: `test-results/per-month-${testInfo.project.name}.png`, fullPage: true });
});

test('a balance is the opening balances plus every line', async ({ page }, testInfo) => {
  const expected = balance(today);
  if (hydrated(testInfo)) {
    await page.getByRole('textbox').fill('Quel est mon solde ?');
    const badge = page.getByTestId('draft-plan');
    await expect(badge).toHaveAttribute('data-tool', 'balances');
    await expect(badge).toHaveAttribute('data-confidence', 'high');
    await page.getByRole('textbox').press('Enter');
  } else {
    await ask(page, 'Quel est mon solde ?');
  }
  const result = page.getByTestId('result').last();
  await expect(result).toHaveAttribute('data-tool', 'balances');
  await expect(result.getByTestId('total')).toHaveAttribute('data-minor', String(expected));
  await expect(result.getByTestId('balances').locator('tbody tr')).toHaveCount(2);
  await snap(page, { path: `test-results/balances-${testInfo.project.name}.png`, fullPage: true });
});

test('budget status, recurring payments and cash flow', async ({ page }, testInfo) => {
  await ask(page, 'Où en est mon budget courses ?');
  let result = page.getByTestId('result').last();
  await expect(result).toHaveAttribute('data-tool', 'budget_status');
  const row = result.locator('tr[data-key="groceries"]');
  await expect(row).toHaveAttribute('data-state', /^(ok|warning|over)$/);
  await expect(result.getByTestId('total')).toHaveAttribute('data-minor', String(used('groceries', monthStart, nextMonth)));
  await snap(page, { path: `test-results/budget-${testInfo.project.name}.png`, fullPage: true });

  await ask(page, 'Quels sont mes abonnements ?');
  result = page.getByTestId('result').last();
  await expect(result).toHaveAttribute('data-tool', 'recurring_payments');
  await expect(result.getByTestId('recurring')).toContainText('Netflix');
  await expect(result.getByTestId('recurring')).not.toContainText('Carrefour');
  await snap(page, { path: `test-results/recurring-${testInfo.project.name}.png`, fullPage: true });

  // "save" is the net or the transfers to savings: Sou asks.
  await ask(page, 'How much did I save in October 2026?');
  await expect(page.getByTestId('clarify').last()).toBeVisible();
  await ask(page, 'Money in and out in October 2026');
  result = page.getByTestId('result').last();
  await expect(result).toHaveAttribute('data-tool', 'cash_flow');
  await expect(result.getByTestId('total')).toHaveAttribute('data-minor', String(net('2026-10-01', '2026-11-01')));
  await snap(page, { path: `test-results/cashflow-${testInfo.project.name}.png`, fullPage: true });
});

test('when and how often: the last payment and the count are the ledger\'s', async ({ page }, testInfo) => {
  const edf = paidAtEver('edf');
  expect(edf.count).toBeGreaterThan(0);
  await ask(page, 'Quand ai-je payé EDF pour la dernière fois ?');
  let result = page.getByTestId('result').last();
  await expect(result).toHaveAttribute('data-tool', 'activity');
  await expect(result.getByTestId('count')).toHaveAttribute('data-count', String(edf.count));
  await expect(result).toContainText("tout l'historique");
  // The rows: the first, the last, the largest; the last is of the newest day.
  const last = result.getByTestId('activity').locator('tr').nth(1);
  await expect(last).toContainText('La dernière');
  expect(edf.newest).toContain(await last.getAttribute('data-id'));
  await snap(page, { path: `test-results/activity-fr-${testInfo.project.name}.png`, fullPage: true });

  await ask(page, 'How often do I go to Lidl?');
  result = page.getByTestId('result').last();
  await expect(result).toHaveAttribute('data-tool', 'activity');
  await expect(result).toContainText('last 12 months');
  expect(Number(await result.getByTestId('count').getAttribute('data-count'))).toBeGreaterThan(0);
  await snap(page, { path: `test-results/activity-en-${testInfo.project.name}.png`, fullPage: true });
});

test('advice is not planned: Sou offers what it can compute', async ({ page }, testInfo) => {
  await ask(page, 'Should I cancel my Netflix subscription?');
  const card = page.getByTestId('clarify').last();
  await expect(card).toBeVisible();
  await expect(card).toContainText('Netflix');
  await expect(page.getByTestId('result')).toHaveCount(0);
  await snap(page, { path: `test-results/advice-${testInfo.project.name}.png`, fullPage: true });
});

test('a word Sou cannot read yet stops the run: no figure, no opposite answer offered', async ({ page }, testInfo) => {
  // "picrd" is no merchant's exact name: the exclusion cannot be read.
  await ask(page, 'courses 2025 sans picrd');
  const turn = page.getByTestId('turn').last();
  const card = turn.getByTestId('clarify');
  await expect(card).toBeVisible();
  await expect(turn.getByTestId('result')).toHaveCount(0);
  await expect(turn).toContainText('« sans »');
  // Offered: the groceries without the merchant, never Picard's own total.
  const offers = card.locator('.suggestion button');
  await expect(offers.first()).toContainText('Courses');
  expect(await offers.allTextContents()).not.toContainEqual(expect.stringContaining('Picard'));
  // Advice about subscriptions offers the recurring payments first.
  await ask(page, 'Comment réduire mes abonnements ?');
  await expect(page.getByTestId('turn').last().locator('.suggestion button').first()).toContainText(/récurrents|Paiements/i);
});
