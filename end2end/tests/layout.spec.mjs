// Every page on a phone (390 px) and a desktop (1280 px): nothing wider than the screen,
// one header with the same links everywhere, the message box and its button on screen,
// a transaction list whose amounts are shown whole, and fields large enough that a
// phone does not zoom on them. With JavaScript and without.
import { test, expect } from '@playwright/test';
import { watchConsole, expectNoConsoleErrors, open, ask, signIn, snap } from './support.mjs';

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

for (const [width, height] of [[390, 844], [1280, 800]]) {
  test.describe(`${width} px`, () => {
    test.use({ viewport: { width, height } });

    test.beforeEach(async ({ page }, testInfo) => {
      watchConsole(page, testInfo);
      await signIn(page, testInfo);
    });
    test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

    test('every page fits the screen and has the same navigation', async ({ page }, testInfo) => {
      for (const path of PAGES) {
        await open(page, testInfo, path);
        await noSidewaysScroll(page, path);
        const nav = page.locator('header.top nav.top-links');
        await expect(nav, `${path}: one navigation`).toHaveCount(1);
        const hrefs = await nav.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
        expect(hrefs, `${path}: the same links`).toEqual(LINKS);
        if (path !== '/') {
          await expect(nav.locator('a[aria-current="page"]'), `${path}: marked as the current page`)
            .toHaveAttribute('href', path);
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
      for (const question of ['Mes dépenses par catégorie en 2025', "Combien j'ai dépensé en courses en janvier 2026 ?"]) {
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
        await expect(cell).toHaveText(/\d,\d\d\s€/);
      }
      await snap(page, { path: `test-results/layout-${width}-${testInfo.project.name}.png`, fullPage: false });
    });
  });
}
