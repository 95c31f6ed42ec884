// Changes with the user's approval, with JavaScript and without: a budget set from the
// chat (its dry run shown, approved, then used by budget status, then undone); a
// merchant's transactions moved to another category after the dry run, the answers'
// sums following the SQLite file, then undone; and Settings → Budgets and the history
// of changes.
import { test, expect } from '@playwright/test';
import { watchConsole, expectNoConsoleErrors, open, ask, signIn, snap } from './support.mjs';
import { euros, spent, spentAt, linesOutside } from './ledger.mjs';

test.beforeEach(async ({ page }, testInfo) => {
  watchConsole(page, testInfo);
  await signIn(page, testInfo);
});
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

// The last answer, once it has ended (the server's rendering is in place).
async function lastAnswer(page) {
  const turn = page.getByTestId('turn').last();
  await expect(turn.locator('.thinking')).toHaveCount(0);
  await expect(turn.locator('.answer.streaming')).toHaveCount(0);
  return turn;
}

test('a budget set from the chat is approved, used by budget status, then undone', async ({ page }, testInfo) => {
  const tag = testInfo.project.name;
  await ask(page, 'budget transports 80 € par mois à partir de janvier 2027');
  let turn = await lastAnswer(page);
  const card = turn.getByTestId('approval');
  await expect(card).toHaveAttribute('data-state', 'pending');
  await expect(card.locator('.effect li').first())
    .toHaveText(`Budget Transports : ${euros(25000, 'fr')} → ${euros(8000, 'fr')} par mois à partir de janvier 2027`);
  await snap(page, { path: `test-results/writes-approval-${tag}.png`, fullPage: true });
  // On a phone the card fits the screen, its buttons large enough to tap.
  await page.setViewportSize({ width: 390, height: 844 });
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(width);
  const approve = await card.getByTestId('approve').boundingBox();
  expect(approve.height).toBeGreaterThanOrEqual(44);
  await snap(page, { path: `test-results/writes-approval-phone-${tag}.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Nothing changed before the approval.
  await ask(page, 'suivi du budget transports en janvier 2027');
  turn = await lastAnswer(page);
  await expect(turn.getByTestId('budgets')).toContainText(euros(25000, 'fr'));

  await page.getByTestId('approval').first().getByTestId('approve').click();
  await expect(page).toHaveURL(/\/c\/[0-9a-f]{32}#approval-/);
  const done = page.getByTestId('approval').first();
  await expect(done).toHaveAttribute('data-state', 'executed');
  await expect(done.getByTestId('done')).toBeVisible();
  await snap(page, { path: `test-results/writes-done-${tag}.png`, fullPage: true });

  await ask(page, 'suivi du budget transports en janvier 2027');
  turn = await lastAnswer(page);
  await expect(turn.getByTestId('budgets')).toContainText(euros(8000, 'fr'));
  // December keeps the budget it had.
  await ask(page, 'suivi du budget transports en décembre 2026');
  turn = await lastAnswer(page);
  await expect(turn.getByTestId('budgets')).toContainText(euros(25000, 'fr'));

  // Undo, from the card: the budget is back.
  await page.getByTestId('approval').first().getByTestId('undo').click();
  await expect(page.getByTestId('approval').first().getByTestId('undone')).toBeVisible();
  await ask(page, 'suivi du budget transports en janvier 2027');
  turn = await lastAnswer(page);
  await expect(turn.getByTestId('budgets')).toContainText(euros(25000, 'fr'));
  await expect(turn.getByTestId('budgets')).not.toContainText(euros(8000, 'fr'));
});

test("a merchant's transactions move after the dry run, the sums follow, undo puts them back", async ({ page }, testInfo) => {
  const tag = testInfo.project.name;
  const [start, end] = ['2025-01-01', '2026-01-01'];
  const leisure = spent('leisure', start, end);
  const shopping = spent('shopping', start, end);
  const fnac = spentAt('fnac', start, end);
  const moving = linesOutside('fnac', 'leisure', start, end);
  expect(fnac).toBeGreaterThan(0);

  await ask(page, 'classe les opérations Fnac de 2025 en Loisirs');
  let turn = await lastAnswer(page);
  const card = turn.getByTestId('approval');
  await expect(card.locator('.effect li').first()).toContainText(`${moving} opérations passent en Loisirs`);
  // The dry run's transactions, one click away.
  await card.locator('.effect-rows summary').click();
  await expect(card.getByTestId('transactions').locator('tbody tr')).toHaveCount(Math.min(moving, 20));
  expect(spent('leisure', start, end)).toBe(leisure);

  await card.getByTestId('approve').click();
  await expect(page.getByTestId('approval').first()).toHaveAttribute('data-state', 'executed');
  expect(spent('leisure', start, end)).toBe(leisure + fnac);
  expect(spent('shopping', start, end)).toBe(shopping - fnac);

  await ask(page, 'combien j\'ai dépensé en loisirs en 2025 ?');
  turn = await lastAnswer(page);
  await expect(turn.getByTestId('total')).toHaveText(euros(leisure + fnac, 'fr'));
  await snap(page, { path: `test-results/writes-moved-${tag}.png`, fullPage: true });

  // Undo from Settings → History of changes.
  await open(page, testInfo, '/settings/changes');
  const change = page.getByTestId('change').first();
  await expect(change).toContainText('Passer en Loisirs');
  await change.getByTestId('undo').click();
  await expect(page).toHaveURL(/\/settings\/changes#change-/);
  await expect(page.getByTestId('change').first()).toContainText('Annulée');
  expect(spent('leisure', start, end)).toBe(leisure);
  expect(spent('shopping', start, end)).toBe(shopping);
  await open(page, testInfo, '/');
  await ask(page, 'combien j\'ai dépensé en loisirs en 2025 ?');
  turn = await lastAnswer(page);
  await expect(turn.getByTestId('total')).toHaveText(euros(leisure, 'fr'));
});

test('budgets are set, changed and removed in Settings, each undoable', async ({ page }, testInfo) => {
  const tag = testInfo.project.name;
  await open(page, testInfo, '/settings');
  await page.getByTestId('budgets-link').click();
  await expect(page).toHaveURL(/\/settings\/budgets$/);
  const list = page.getByTestId('budget-list');
  await expect(list.locator('tr[data-category="restaurants"]')).toContainText(euros(30000, 'fr'));

  await page.getByLabel('Catégorie').selectOption('restaurants');
  await page.getByLabel('Montant par mois').fill('345,50');
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByTestId('budget-saved')).toBeVisible();
  await expect(list.locator('tr[data-category="restaurants"]')).toContainText(euros(34550, 'fr'));
  await snap(page, { path: `test-results/writes-budgets-${tag}.png`, fullPage: true });

  // A bad amount comes back with what was typed and why.
  await page.getByLabel('Montant par mois').fill('beaucoup');
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByTestId('budget-error')).toContainText('Le montant doit être un nombre');
  await expect(page.getByLabel('Montant par mois')).toHaveValue('beaucoup');

  // Undo the save: 300 again. Then remove it: gone from this month.
  await open(page, testInfo, '/settings/changes');
  await page.getByTestId('change').first().getByTestId('undo').click();
  await open(page, testInfo, '/settings/budgets');
  await expect(list.locator('tr[data-category="restaurants"]')).toContainText(euros(30000, 'fr'));
  await list.locator('tr[data-category="restaurants"]').getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByTestId('budget-saved')).toBeVisible();
  await expect(list.locator('tr[data-category="restaurants"]')).toHaveCount(0);
});
