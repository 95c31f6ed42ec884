import { test, expect } from '@playwright/test';
import { spent, euros } from './ledger.mjs';

const hydrated = (testInfo) => testInfo.project.name === 'hydrated';

// Console errors and uncaught exceptions fail the test.
test.beforeEach(async ({ page }, testInfo) => {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(String(e)));
  testInfo.problems = problems;
  await page.goto('/');
  if (hydrated(testInfo)) {
    await expect(page.locator('body[data-hydrated]')).toHaveCount(1);
  } else {
    await expect(page.locator('body[data-hydrated]')).toHaveCount(0);
  }
});

test.afterEach(async ({}, testInfo) => {
  expect(testInfo.problems, 'browser console errors').toEqual([]);
});

async function ask(page, question) {
  const input = page.getByRole('textbox');
  await input.fill(question);
  await input.press('Enter');
}

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
    await page.screenshot({ path: `test-results/badge-${testInfo.project.name}.png` });
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
  await page.screenshot({ path: `test-results/answer-fr-${testInfo.project.name}.png`, fullPage: true });
});

test('English question: the total is the ledger sum', async ({ page }, testInfo) => {
  const expected = spent('groceries', '2026-01-01', '2026-02-01');
  await ask(page, 'How much did I spend on groceries in January 2026?');
  const total = page.getByTestId('total').last();
  await expect(total).toHaveAttribute('data-minor', String(expected));
  await expect(total).toHaveText(euros(expected, 'en'));
  await expect(page.getByTestId('answer').last()).toContainText('You spent');
  await page.screenshot({ path: `test-results/answer-en-${testInfo.project.name}.png`, fullPage: true });
});

test('a follow-up asks first, then one click runs it', async ({ page }, testInfo) => {
  await ask(page, "Combien j'ai dépensé en courses en janvier 2026 ?");
  await expect(page.getByTestId('total')).toHaveCount(1);
  await ask(page, 'et en février ?');
  const card = page.getByTestId('clarify').last();
  await expect(card).toBeVisible();
  await page.screenshot({ path: `test-results/clarify-${testInfo.project.name}.png`, fullPage: true });
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
  await page.screenshot({ path: `test-results/compare-${testInfo.project.name}.png`, fullPage: true });
});
