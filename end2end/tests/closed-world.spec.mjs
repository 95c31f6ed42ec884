// A plan that runs without a model means all the person said: a negation is read as
// an exclusion (the right way round) or stops the run; a word Sou cannot place is named,
// with the plan as read one click away; a request of two parts is a plan of steps, never
// one answer that drops a part; "the month before last" is that month. On a phone and a
// desktop, in French and English, with and without JavaScript, no model configured.
import { test, expect } from '@playwright/test';
import { spent, spentExcept } from './ledger.mjs';
import { watchConsole, expectNoConsoleErrors, open, ask, signIn, snap } from './support.mjs';

// The first day of the month `n` months from today's (UTC, as the server's zone).
function monthStart(n) {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + n, 1));
  return d.toISOString().slice(0, 10);
}

const WORDS = {
  'fr-FR': {
    negation: 'mes courses en 2025 mais pas chez Picard',
    left: 'hors Picard',
    unread: 'mes dépenses de takeout le mois dernier',
    understood: 'Sou a compris',
    unused: '« takeout »',
    refunds: 'mes dépenses de 2025 mais pas les remboursements',
    twoParts: 'combien en courses le mois dernier et combien en restaurants',
    beforeLast: "combien j'ai dépensé en courses le mois avant-dernier",
  },
  'en-GB': {
    negation: 'my groceries in 2025 but not at Picard',
    left: 'excluding Picard',
    unread: 'takeout spend last month',
    understood: 'Sou understood',
    unused: '« takeout »',
    refunds: 'my 2025 spending not counting the refunds',
    twoParts: 'how much on groceries last month and how much on restaurants',
    beforeLast: 'how much did I spend on groceries the month before last',
  },
};

for (const [width, height] of [[390, 844], [1280, 800]]) for (const lang of ['fr-FR', 'en-GB']) {
  test.describe(`${width} px, ${lang}`, () => {
    test.use({ viewport: { width, height }, locale: lang });
    const w = WORDS[lang];
    const shot = (testInfo, name) => `test-results/closed-${name}-${width}-${lang}-${testInfo.project.name}.png`;

    test.beforeEach(async ({ page }, testInfo) => {
      watchConsole(page, testInfo);
      await signIn(page, testInfo);
      await open(page, testInfo);
    });
    test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

    test('a negation leaves out what it names, or Sou asks', async ({ page }, testInfo) => {
      const expected = spentExcept('groceries', 'picard', '2025-01-01', '2026-01-01');
      expect(expected).toBeLessThan(spent('groceries', '2025-01-01', '2026-01-01'));
      await ask(page, w.negation);
      const result = page.getByTestId('turn').last().getByTestId('result');
      await expect(result.getByTestId('total')).toHaveAttribute('data-minor', String(expected));
      await expect(result).toContainText(w.left);
      // "not the refunds": nothing Sou can leave out by that name — no figure at all.
      await ask(page, w.refunds);
      const turn = page.getByTestId('turn').last();
      await expect(turn.getByTestId('clarify')).toBeVisible();
      await expect(turn.getByTestId('result')).toHaveCount(0);
      await snap(page, { path: shot(testInfo, 'negation'), fullPage: true });
    });

    test('a word Sou cannot place is named, and the plan as read is one click away', async ({ page }, testInfo) => {
      await ask(page, w.unread);
      const turn = page.getByTestId('turn').last();
      const card = turn.getByTestId('clarify');
      await expect(card).toBeVisible();
      await expect(turn.getByTestId('result')).toHaveCount(0);
      await expect(card).toContainText(w.understood);
      await expect(card).toContainText(w.unused);
      await snap(page, { path: shot(testInfo, 'unread'), fullPage: true });
      // One click runs it as read: all spending last month.
      await card.locator('.suggestion button').first().click();
      const result = page.getByTestId('turn').last().getByTestId('result');
      await expect(result.getByTestId('total')).toBeVisible();
      await expect(result).toHaveAttribute('data-tool', 'spending_summary');
    });

    test('a request of two parts is a plan of steps, not one answer', async ({ page }, testInfo) => {
      await ask(page, w.twoParts);
      const turn = page.getByTestId('turn').last();
      const card = turn.getByTestId('run-plan');
      await expect(card).toBeVisible();
      await expect(card).toContainText(lang === 'fr-FR' ? 'Courses' : 'Groceries');
      await expect(card).toContainText('Restaurants');
      await expect(turn.getByTestId('result')).toHaveCount(0);
      await snap(page, { path: shot(testInfo, 'two-parts'), fullPage: true });
    });

    test('the month before last is that month', async ({ page }) => {
      const [start, end] = [monthStart(-2), monthStart(-1)];
      await ask(page, w.beforeLast);
      const result = page.getByTestId('turn').last().getByTestId('result');
      await expect(result.getByTestId('total')).toHaveAttribute('data-minor', String(spent('groceries', start, end)));
    });
  });
}
