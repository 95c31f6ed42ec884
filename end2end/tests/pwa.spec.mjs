// Sou as an installable app: a manifest in the browser's language with its icons, a
// service worker that keeps exactly the chat's shell and this build's files, and,
// offline, the chat page opening from it with the parser still reading questions, and
// a question sent offline kept and sent when the network is back.
import { test, expect } from '@playwright/test';
import { hydrated, watchConsole, expectNoConsoleErrors, signIn } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo));
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

test('the manifest names Sou in the browser\'s language, with its icons', async ({ page }) => {
  for (const [lang, name] of [['fr-FR', 'Sou — vos comptes, en réponses'], ['en-GB', 'Sou — your money, answered']]) {
    const r = await page.request.get('/manifest.webmanifest', { headers: { 'accept-language': lang } });
    expect(r.status()).toBe(200);
    expect(r.headers()['content-type']).toBe('application/manifest+json');
    const m = await r.json();
    expect(m).toMatchObject({ name, short_name: 'Sou', start_url: '/', scope: '/', display: 'standalone', lang: lang.slice(0, 2) });
    expect(m.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of m.icons) {
      const png = await page.request.get(icon.src);
      expect(png.status(), icon.src).toBe(200);
      expect(png.headers()['content-type']).toBe('image/png');
    }
  }
});

test('installable; offline, the chat opens from the service worker and still parses', async ({ page, context }, testInfo) => {
  test.skip(!hydrated(testInfo), 'a service worker needs JavaScript');
  await signIn(page, testInfo);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect(page.locator('body[data-hydrated]')).toHaveCount(1);
  expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)), 'the worker controls the page').toBe(true);

  // It keeps exactly its list, and the list is this build's files (the ones this page
  // loads), the offline shell, the icons and the manifest.
  const worker = await (await page.request.get('/sw.js')).text();
  const list = JSON.parse(worker.match(/^const PRECACHE = (.*);$/m)[1]);
  const kept = await page.evaluate(async () => {
    const names = await caches.keys();
    const cache = await caches.open(names[0]);
    return { names, paths: (await cache.keys()).map((r) => new URL(r.url).pathname) };
  });
  expect(kept.names).toHaveLength(1);
  expect([...kept.paths].sort()).toEqual([...list].sort());
  const html = await page.content();
  const bundle = list.filter((p) => p.startsWith('/pkg/'));
  expect(bundle.map((p) => p.replace(/\.[A-Za-z0-9_-]{22}\./, '.<hash>.')).sort())
    .toEqual(['/pkg/sou.<hash>.css', '/pkg/sou.<hash>.js', '/pkg/sou.<hash>.wasm']);
  for (const file of bundle) expect(html, `the page loads ${file}`).toContain(file);
  expect(list.some((p) => p.startsWith('/api') || p.startsWith('/c/') || p === '/'), 'no page with data, no API').toBe(false);

  // Chromium's own installability checks (all but one: Playwright's contexts are
  // incognito, where Chromium installs nothing, whatever the site).
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.map((e) => e.errorId)).toEqual(['in-incognito']);

  // Offline: the chat opens (the shell, with no one's data) and the parser reads.
  await context.setOffline(true);
  await page.goto('/');
  await expect(page.getByTestId('offline')).toBeVisible();
  await expect(page.locator('body[data-hydrated]')).toHaveCount(1);
  await expect(page.getByTestId('history')).toHaveCount(0);
  await page.locator('#message').fill("Combien j'ai dépensé en janvier 2026 ?");
  await expect(page.getByTestId('draft-plan')).toHaveAttribute('data-tool', 'spending_summary');
  await page.locator('#message').fill("Combien j'ai gagné en 2025 ?");
  await expect(page.getByTestId('draft-plan')).toHaveAttribute('data-tool', 'income_summary');

  // Sent offline: kept, on screen, and sent as soon as the network is back.
  await page.locator('#message').press('Enter');
  const turn = page.getByTestId('turn').last();
  await expect(turn.locator('.bubble.user')).toHaveText("Combien j'ai gagné en 2025 ?");
  await expect(turn.getByTestId('waiting')).toBeVisible();
  await expect(page.locator('#message')).toHaveValue('');
  await page.waitForTimeout(300);
  await expect(turn.getByTestId('waiting'), 'still waiting while offline').toBeVisible();
  await context.setOffline(false);
  await expect(turn.getByTestId('waiting')).toHaveCount(0);
  await expect(turn.getByTestId('total')).toBeVisible();
  await expect(page).toHaveURL(/\/c\/[0-9a-f]{32}/);
  // The browser reports each try made while offline: provoked on purpose.
  const others = testInfo.problems.filter((p) => !p.includes('net::ERR_INTERNET_DISCONNECTED'));
  testInfo.problems.splice(0, testInfo.problems.length, ...others);
});
