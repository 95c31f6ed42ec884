// Shared reports: a user shares an answer from the chat and composes monthly reports in
// Settings; a browser with no cookie reads them (figures equal to the SQLite sums, no
// script, no serious axe violation, bars and meters filled under the page's policy, no
// CSP violation); another user can neither list nor revoke them; the owner revokes one
// and its link answers 404. At 390 px and 1280 px, with
// JavaScript and without.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { hydrated, watchConsole, expectNoConsoleErrors, open, ask, signIn, snap } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo));
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// January 2026's spending of the newest demo account, straight from the SQLite file:
// debits in euros whose category is an expense, or that have none.
function januarySpending() {
  const db = path.join(process.env.SOU_E2E_DATA_DIR, 'sou.db');
  const sql = `SELECT -COALESCE(SUM(t.amount_minor), 0) FROM transactions t
    LEFT JOIN categories c ON c.id = t.category_id
    WHERE t.user_id = (SELECT MAX(id) FROM users WHERE name LIKE 'demo-%')
      AND t.amount_minor < 0 AND (c.kind IS NULL OR c.kind = 'expense') AND t.currency = 'EUR'
      AND t.date >= '2026-01-01' AND t.date < '2026-02-01';`;
  return Number(execFileSync('sqlite3', ['-readonly', db, sql]).toString().trim());
}

async function seriousViolations(page) {
  await page.evaluate(axeSource);
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
  const result = await page.evaluate((t) => window.axe.run(document, { runOnly: { type: 'tag', values: t } }), tags);
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

for (const [width, height] of [[390, 844], [1280, 800]]) {
  test.describe(`${width} px`, () => {
    test.use({ viewport: { width, height }, locale: 'fr-FR' });

    test('an answer and a month, shared, read without an account, then revoked', async ({ page, browser }, testInfo) => {
      test.slow();
      const shot = (p, name) =>
        snap(p, { path: `test-results/reports-${name}-${width}-${testInfo.project.name}.png`, fullPage: true });
      await signIn(page, testInfo);
      await ask(page, 'mes dépenses par catégorie en janvier 2026');
      const turn = page.getByTestId('turn').last();
      await expect(turn.getByTestId('result')).toBeVisible();
      const spent = januarySpending();
      await expect(turn.getByTestId('total')).toHaveAttribute('data-minor', String(spent));

      // Share the answer: a snapshot with amounts.
      await turn.getByTestId('share').locator('summary').click();
      await turn.getByTestId('share-form').getByRole('button', { name: 'Créer le lien' }).click();
      await expect(page).toHaveURL(/\/settings\/reports\?created=/);
      const answerLink = await page.getByTestId('new-link').inputValue();
      expect(answerLink).toMatch(/\/r\/[A-Za-z0-9_-]{22}$/);

      // Compose January as a monthly report, shares only.
      const form = page.getByTestId('monthly-form');
      await form.getByLabel('Mois').fill('2026-01');
      await form.getByLabel('des parts seulement (%)').check();
      await form.getByRole('button', { name: 'Créer le lien' }).click();
      await expect(page.getByTestId('created')).toBeVisible();
      const monthLink = await page.getByTestId('new-link').inputValue();
      await expect(page.getByTestId('share-row')).toHaveCount(2);
      // And with amounts: its budgets have meters.
      await page.getByTestId('monthly-form').getByLabel('Mois').fill('2026-01');
      await page.getByTestId('monthly-form').getByRole('button', { name: 'Créer le lien' }).click();
      await expect(page.getByTestId('created')).toBeVisible();
      const budgetLink = await page.getByTestId('new-link').inputValue();
      await expect(page.getByTestId('share-row')).toHaveCount(3);
      await shot(page, 'settings');

      // A browser with no cookie reads both.
      const reader = await browser.newContext({ viewport: { width, height }, locale: 'fr-FR', javaScriptEnabled: hydrated(testInfo) });
      const view = await reader.newPage();
      // The revoked link's 404 is expected; a CSP violation never is.
      await watchConsole(view, testInfo, (m) => /status of 404/.test(m.text()));
      let response = await view.goto(answerLink);
      expect(response.status()).toBe(200);
      const html = await response.text();
      expect(html.toLowerCase()).not.toContain('<script');
      expect(html).not.toContain('.wasm');
      expect(response.headers()['content-security-policy']).toContain("default-src 'none'");
      await expect(view.getByTestId('report').getByTestId('total').first()).toHaveAttribute('data-minor', String(spent));
      // Its breakdown's bars are drawn under the page's policy: filled, none wider than its row.
      const bars = await view.getByTestId('groups').locator('rect.bar-fill').evaluateAll((rects) =>
        rects.map((r) => [r.getBoundingClientRect().width, r.ownerSVGElement.getBoundingClientRect().width]));
      expect(bars.length).toBeGreaterThan(1);
      expect(Math.max(...bars.map(([w]) => w))).toBeGreaterThan(20);
      for (const [w, box] of bars) expect(w).toBeLessThanOrEqual(box + 0.5);
      await expect(view.locator('meta[property="og:image"]')).toHaveAttribute('content', /\/og\.png$/);
      const [scroll, inner] = await view.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect(scroll).toBeLessThanOrEqual(inner);
      await shot(view, 'answer');
      const image = await reader.request.get(answerLink + '/og.png');
      expect(image.status()).toBe(200);
      expect(image.headers()['content-type']).toBe('image/png');
      fs.writeFileSync(testInfo.outputPath(`preview-${width}.png`), await image.body());

      response = await view.goto(monthLink);
      expect(response.status()).toBe(200);
      expect((await response.text()).toLowerCase()).not.toContain('<script');
      await expect(view.getByTestId('report')).toHaveAttribute('data-figures', 'shares');
      await expect(view.getByTestId('categories')).toBeVisible();
      await expect(view.getByTestId('report')).not.toContainText('€');
      await expect(view.getByTestId('chart').first()).toBeVisible();
      await shot(view, 'month');
      // Printed: A4, without the page's chrome; the PDF is kept to look at.
      await view.emulateMedia({ media: 'print' });
      await expect(view.locator('.report-kind')).toBeHidden();
      await expect(view.getByTestId('report-block').first()).toHaveCSS('box-shadow', 'none');
      if (width === 1280) {
        const pdf = await view.pdf({ format: 'A4' });
        expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
        fs.writeFileSync(testInfo.outputPath('month.pdf'), pdf);
      }
      await view.emulateMedia({ media: 'screen' });

      // The budgets' meters are drawn under the page's policy (no inline style, so no
      // violation) and filled: the page is server HTML, with JavaScript or without.
      response = await view.goto(budgetLink);
      expect(response.status()).toBe(200);
      expect(await response.text()).not.toContain('style=');
      const budgets = view.locator('[data-block="budgets"]');
      await expect(budgets.getByRole('progressbar').first()).toBeVisible();
      const widths = await budgets.getByTestId('meter-fill').evaluateAll((rects) =>
        rects.map((r) => r.getBoundingClientRect().width));
      expect(widths.length).toBeGreaterThan(0);
      expect(Math.max(...widths)).toBeGreaterThan(0);
      const track = await budgets.locator('svg.meter').first().boundingBox();
      expect(track.width).toBeGreaterThan(20);
      await shot(view, 'budgets');
      if (hydrated(testInfo)) {
        for (const link of [answerLink, monthLink]) {
          await view.goto(link);
          expect(await seriousViolations(view), link).toEqual([]);
        }
      }

      // Another user sees none of it and revokes nothing.
      const other = await browser.newContext({ viewport: { width, height }, locale: 'fr-FR' });
      const otherPage = await other.newPage();
      await otherPage.goto('/login');
      await otherPage.getByTestId('try-demo').click();
      await expect(otherPage).toHaveURL(/\/$/);
      const list = await other.request.get('/api/v1/reports');
      expect((await list.json()).reports).toEqual([]);
      const id = answerLink.split('/r/')[1];
      const base = new URL(answerLink).origin;
      const refused = await other.request.delete(`/api/v1/reports/${id}`, { headers: { origin: base } });
      expect(refused.status()).toBe(404);
      await other.close();

      // The owner revokes the answer's link: 404, like a link never made.
      await open(page, testInfo, '/settings/reports');
      await page.locator(`[data-testid="share-row"][data-id="${id}"]`).getByTestId('revoke').click();
      await expect(page.getByTestId('revoked')).toBeVisible();
      await expect(page.getByTestId('share-row')).toHaveCount(2);
      response = await view.goto(answerLink);
      expect(response.status()).toBe(404);
      await expect(view.getByTestId('report-not-found')).toBeVisible();
      response = await view.goto(monthLink);
      expect(response.status()).toBe(200);
      await reader.close();
    });
  });
}
