// axe-core with the WCAG 2.0, 2.1 and 2.2 A and AA rules on every page: a phone and
// a desktop, light and dark, French and English, with JavaScript and without. No
// serious or critical violation is allowed. axe is run through Playwright's evaluate,
// which the page's Content-Security-Policy does not govern. axe needs the page's event
// loop, so "without JavaScript" here is the page with Sou's own scripts refused: the
// server-rendered page, never hydrated.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { hydrated, watchConsole, expectNoConsoleErrors, open, ask, signIn, settingsPages } from './support.mjs';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function violations(page) {
  await page.evaluate(axeSource);
  const result = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }), TAGS);
  expect(result.passes.length, 'axe checked the page').toBeGreaterThan(0);
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

for (const [width, height] of [[390, 844], [1280, 800]]) {
  for (const scheme of ['light', 'dark']) {
    for (const lang of ['fr-FR', 'en-GB']) {
      test.describe(`${width} px, ${scheme}, ${lang}`, () => {
        test.use({ viewport: { width, height }, colorScheme: scheme, locale: lang });
        test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

        test('no serious or critical axe violation on any page', async ({ browser, page: given }, testInfo) => {
          let page = given;
          if (!hydrated(testInfo)) {
            const context = await browser.newContext({
              viewport: { width, height }, colorScheme: scheme, locale: lang, javaScriptEnabled: true,
            });
            await context.route(/\/pkg\/.*\.(js|wasm)$/, (route) => route.abort());
            page = await context.newPage();
          }
          // The not-found page is a 404 on purpose; refused scripts are refused on purpose.
          await watchConsole(page, testInfo, (m) => /404|ERR_FAILED|module script|dynamically imported module/.test(m.text()));
          const found = [];
          const check = async (what) => found.push(...(await violations(page)).map((v) => `${what}: ${v}`));

          await open(page, testInfo, '/login');
          await check('/login');
          await open(page, testInfo, '/signup');
          await check('/signup');
          await signIn(page, testInfo);
          await check('/ (start)');
          // An answer with a total, a chart and a transaction list; a clarification.
          await ask(page, 'Mes dépenses par mois en 2025');
          await expect(page.getByTestId('turn').last().getByTestId('result')).toBeVisible();
          await ask(page, 'bonjour');
          await expect(page.getByTestId('turn').last().getByTestId('clarify')).toBeVisible();
          // A plan of steps, and an answer's trace opened.
          await ask(page, "prépare mon bilan d'octobre 2026");
          await expect(page.getByTestId('turn').last().getByTestId('run-plan')).toBeVisible();
          const trace = page.getByTestId('trace').first();
          await trace.locator('summary').first().click();
          await check('conversation');
          const sources = await trace.locator('a[href*="/sources"]').first().getAttribute('href');
          const settings = await settingsPages(page, testInfo);
          for (const path of ['/import', '/rules', '/datasets', '/settings', ...settings, sources.split('#')[0], '/nowhere']) {
            await open(page, testInfo, path);
            await check(path);
          }
          expect(found, 'axe: serious and critical violations').toEqual([]);
        });
      });
    }
  }
}
