// Every page on a phone (390 px) and a desktop (1280 px): nothing wider than the screen,
// one header with the same links everywhere, the message box and its button on screen,
// a transaction list whose amounts are shown whole, and fields large enough that a
// phone does not zoom on them. With JavaScript and without.
import { test, expect } from '@playwright/test';
import { hydrated, watchConsole, expectNoConsoleErrors, open, ask, signIn, snap, settingsPages } from './support.mjs';

// And every page Settings links to (`settingsPages`).
const PAGES = ['/', '/import', '/rules', '/datasets', '/settings'];
const LINKS = ['/', '/import', '/rules', '/datasets', '/settings'];

async function noSidewaysScroll(page, where) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll, `${where}: the page is ${scroll} px wide in a ${width} px window`).toBeLessThanOrEqual(width);
}

async function inViewport(page, locator, what) {
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  expect(box, `${what} is not rendered`).not.toBeNull();
  expect(box.x, `${what} starts left of the screen`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${what} starts above the screen`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what} ends right of the screen`).toBeLessThanOrEqual(size.width);
  expect(box.y + box.height, `${what} ends below the screen`).toBeLessThanOrEqual(size.height);
}

// What the tests ask and how amounts read, per interface language.
const WORDS = {
  'fr-FR': {
    answers: ['Mes dépenses par catégorie en 2025', "Combien j'ai dépensé en courses en janvier 2026 ?"],
    tables: [['Mes budgets ce mois-ci', 'budgets'], ['mes abonnements', 'recurring']],
    amount: /\d,\d\d\s€/,
  },
  'en-GB': {
    answers: ['Spending by category in 2025', 'How much did I spend on groceries in January 2026?'],
    tables: [['my budgets this month', 'budgets'], ['my subscriptions', 'recurring']],
    amount: /€[\d,]+\.\d\d/,
  },
};

for (const [width, height] of [[390, 844], [1280, 800]]) for (const lang of ['fr-FR', 'en-GB']) {
  test.describe(`${width} px, ${lang}`, () => {
    test.use({ viewport: { width, height }, locale: lang });
    const words = WORDS[lang];

    test.beforeEach(async ({ page }, testInfo) => {
      watchConsole(page, testInfo);
      await signIn(page, testInfo);
    });
    test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

    test('every page fits the screen and has the same navigation', async ({ page }, testInfo) => {
      for (const path of [...PAGES, ...(await settingsPages(page, testInfo))]) {
        await open(page, testInfo, path);
        await noSidewaysScroll(page, path);
        // Each page says what it is: one <h1>, and a title of its own.
        await expect(page.locator('h1'), `${path}: one heading`).toHaveCount(1);
        expect(await page.title(), `${path}: its own title`).toMatch(/^.+ · Sou$/);
        const nav = page.locator('header.top nav.top-links');
        await expect(nav, `${path}: one navigation`).toHaveCount(1);
        const hrefs = await nav.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
        expect(hrefs, `${path}: the same links`).toEqual(LINKS);
        // All five on screen at once: the row does not even need to scroll.
        const [inner, outer] = await nav.evaluate((n) => [n.scrollWidth, n.clientWidth]);
        expect(inner, `${path}: every link of the header in view`).toBeLessThanOrEqual(outer);
        if (path !== '/') {
          await expect(nav.locator('a[aria-current="page"]'), `${path}: marked as the current page`)
            .toHaveAttribute('href', '/' + path.split('/')[1]);
        }
        // Every field at least 16 px on a phone, so focusing it does not zoom the page.
        if (width < 700) {
          const small = await page.locator('input:not([type=checkbox]):not([type=radio]):not([type=file]):not([type=hidden]), select, textarea')
            .evaluateAll((fields) => fields
              .filter((f) => f.offsetParent !== null && parseFloat(getComputedStyle(f).fontSize) < 16)
              .map((f) => f.name || f.id));
          expect(small, `${path}: fields under 16 px`).toEqual([]);
        }
      }
    });

    test('the message box is on screen before and after an answer, amounts whole', async ({ page }, testInfo) => {
      await open(page, testInfo, '/');
      // The start page is at the body's size, not the "no results" style.
      const size = await page.locator('main.chat').evaluate((m) => getComputedStyle(m).fontSize);
      expect(size).toBe('16px');
      await inViewport(page, page.locator('#message'), 'the message box');
      await inViewport(page, page.locator('.composer button[type=submit]'), 'the Send button');

      // Each answer is shown from its first line: its headline figure on screen, not
      // under the sticky header — the second after a long first one too.
      for (const question of words.answers) {
        await ask(page, question);
        const total = page.getByTestId('turn').last().getByTestId('total');
        await expect(total).toBeVisible();
        await expect.poll(async () => {
          const header = await page.locator('header.top').boundingBox();
          const box = await total.boundingBox();
          return box !== null && box.y >= header.y + header.height && box.y + box.height <= height;
        }, { message: `${question}: the headline figure is on screen, under the header` }).toBe(true);
      }
      const turn = page.getByTestId('turn').last();
      await noSidewaysScroll(page, 'an answer');
      await inViewport(page, page.locator('#message'), 'the message box after an answer');
      await inViewport(page, page.locator('.composer button[type=submit]'), 'the Send button after an answer');

      // Each amount of the transaction list is inside the screen and not clipped.
      const cells = turn.getByTestId('transactions').locator('tbody td.num');
      const count = await cells.count();
      expect(count).toBeGreaterThan(0);
      for (let i = 0; i < count; i++) {
        const cell = cells.nth(i);
        const clipped = await cell.evaluate((td) => td.scrollWidth > td.clientWidth + 1);
        expect(clipped, `amount ${i} is cut`).toBe(false);
        const box = await cell.boundingBox();
        expect(box.x + box.width, `amount ${i} ends right of the screen`).toBeLessThanOrEqual(width);
        await expect(cell).toHaveText(words.amount);
      }
      await snap(page, { path: `test-results/layout-${width}-${lang}-${testInfo.project.name}.png`, fullPage: false });

      // Budgets and recurring payments: the page never scrolls sideways, every amount whole.
      for (const [question, table] of words.tables) {
        await ask(page, question);
        const cells = page.getByTestId('turn').last().getByTestId(table).locator('tbody td.num');
        await expect(cells.first()).toBeVisible();
        await noSidewaysScroll(page, question);
        const cut = await cells.evaluateAll((tds, w) => tds
          .filter((td) => td.scrollWidth > td.clientWidth + 1 || td.getBoundingClientRect().right > w)
          .map((td) => td.textContent), width);
        expect(cut, `${question}: amounts cut or off screen`).toEqual([]);
      }
    });

    // The tests below read French labels and answers: once per width is enough.
    if (lang !== 'fr-FR') return;

    test('focus: the message box on arrival, after a suggestion, after an example', async ({ page }, testInfo) => {
      await open(page, testInfo, '/');
      await expect(page.locator('#message'), 'focused on arrival').toBeFocused();
      // A suggestion of a clarification sends its plan; the caret is back in the box.
      await ask(page, 'bonjour');
      const suggestion = page.getByTestId('turn').last().locator('.suggestion button').first();
      await suggestion.click();
      await expect(page.getByTestId('turn')).toHaveCount(2);
      await expect(page.getByTestId('turn').last().getByTestId('result')).toBeVisible();
      // Hydrated, the caret comes back to the box. Without JavaScript the new page opens
      // on the newest answer (#latest), and browsers skip autofocus on a page opened at
      // a fragment: reading position wins there.
      if (hydrated(testInfo)) await expect(page.locator('#message'), 'focused after a suggestion').toBeFocused();

      // An example of the start page fills the box (a link without JavaScript).
      await open(page, testInfo, '/');
      const example = page.locator('.examples a.example').first();
      const text = await example.textContent();
      await example.click();
      await expect(page.locator('#message')).toHaveValue(text);
      await expect(page.locator('#message'), 'focused after an example').toBeFocused();
      if (!hydrated(testInfo)) await expect(page).toHaveURL(/\/\?q=/);
      await page.locator('#message').press('Enter');
      await expect(page.getByTestId('turn').last().getByTestId('total')).toBeVisible();
      // The page is named after what the answer computed.
      expect(await page.title()).toMatch(/janvier 2026 · Sou$/);
    });

    test('the live plan does not move the message box', async ({ page }, testInfo) => {
      test.skip(!hydrated(testInfo), 'the live plan is computed in the browser');
      await open(page, testInfo, '/');
      const input = page.locator('#message');
      const before = await input.boundingBox();
      await input.pressSequentially('Mes dépenses par catégorie le mois dernier', { delay: 5 });
      await expect(page.getByTestId('draft-plan')).toBeVisible();
      expect(await input.boundingBox(), 'with the live plan shown').toEqual(before);
      await inViewport(page, page.getByTestId('draft-plan'), 'the live plan');
      await input.fill('');
      await expect(page.getByTestId('draft-plan')).toHaveCount(0);
      expect(await input.boundingBox(), 'after the live plan went').toEqual(before);
    });

    test('a long list says how many it shows, and they add up', async ({ page }, testInfo) => {
      await open(page, testInfo, '/');
      await ask(page, 'toutes mes opérations en 2025');
      const turn = page.getByTestId('turn').last();
      const title = await turn.getByTestId('rows-title').textContent();
      const rows = await turn.getByTestId('transactions').locator('tbody tr').count();
      // "Opérations — 100 affichées sur 154" or "Opérations — 42": the first number is
      // how many rows the page holds, "show N more" included.
      const [shown, of] = (title.match(/\d[\d\s\u202f]*/g) || []).map((n) => Number(n.replace(/\D/g, '')));
      expect(rows, title).toBe(shown);
      if (of !== undefined) expect(of, title).toBeGreaterThan(shown);
      const more = turn.locator('.rows-block summary');
      if (await more.count()) {
        const n = Number((await more.textContent()).replace(/\D/g, ''));
        expect(8 + n, 'the first rows and "show N more" add up to the count').toBe(shown);
      }
    });

    test('charts keep their labels legible, numbers line up with their headers', async ({ page }, testInfo) => {
      // The drawing shown, and the size its 13 px labels end up at on screen.
      const legible = async (chart, what) => {
        const sizes = await chart.evaluate((figure) => [...figure.querySelectorAll('svg')]
          .filter((svg) => svg.getBoundingClientRect().width > 0)
          .map((svg) => {
            const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            return parseFloat(getComputedStyle(svg.querySelector('.chart-label')).fontSize) * scale;
          }));
        expect(sizes.length, `${what}: one drawing shown`).toBe(1);
        expect(sizes[0], `${what}: labels on screen, in px`).toBeGreaterThanOrEqual(11);
      };
      // A line in the chat.
      await open(page, testInfo, '/');
      await ask(page, 'Dépenses par mois en 2025');
      const line = page.getByTestId('turn').last().getByTestId('chart');
      await expect(line).toHaveAttribute('data-kind', 'line');
      await legible(line, 'line');
      // Bars on the Data page, from a small table with a long label.
      await open(page, testInfo, '/datasets');
      await page.getByLabel('Fichier CSV').setInputFiles({ name: 'rayons.csv', mimeType: 'text/csv',
        buffer: Buffer.from('rayon;ventes\nAlimentation et boissons;1234,50\nMaison;80\nJardin;7\n') });
      await page.getByRole('button', { name: 'Créer la table' }).click();
      await expect(page.getByTestId('dataset-added')).toBeVisible();
      await page.getByLabel('SQL').fill('SELECT rayon, ventes FROM rayons ORDER BY ventes DESC');
      await page.getByRole('button', { name: 'Exécuter' }).click();
      const bars = page.getByTestId('chart');
      await expect(bars).toHaveAttribute('data-kind', 'bar');
      await legible(bars, 'bars');
      // A column of numbers is aligned right, its header with it: the text of each
      // cell ends the same distance from the cell's right edge.
      const gaps = await page.getByTestId('query-result').evaluate((t) => [...t.querySelectorAll('tr')].map((tr) => {
        const cell = tr.children[1];
        const range = document.createRange();
        range.selectNodeContents(cell);
        return Math.round(cell.getBoundingClientRect().right - range.getBoundingClientRect().right);
      }));
      expect(gaps.length).toBe(4);
      expect(gaps.every((gap) => Math.abs(gap - gaps[0]) <= 1), `numbers and header end together: ${gaps}`).toBe(true);
    });
  });
}
