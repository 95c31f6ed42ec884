// What a browser downloads: only the chat pages load Sou's browser code (a JS module
// and its WASM, once the page is idle); every other page is HTML and a stylesheet. The
// files carry their hash in their name, come precompressed, and a second visit takes
// them from the browser's cache without asking the server.
import { test, expect } from '@playwright/test';
import { hydrated, watchConsole, expectNoConsoleErrors, open, signIn } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo));
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

const FORM_PAGES = ['/settings', '/import', '/rules', '/datasets', '/settings/reports'];

test('only the chat pages load browser code, and a second visit downloads none of it', async ({ page }, testInfo) => {
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const code = () => fetched.filter((p) => /\.(js|wasm)$/.test(p));

  await page.goto('/login');
  expect(code(), 'the sign-in page').toEqual([]);
  await signIn(page, testInfo);
  for (const url of FORM_PAGES) {
    fetched.length = 0;
    await open(page, testInfo, url);
    expect(code(), `${url} loads no browser code`).toEqual([]);
    expect(await page.locator('script[type=module], script[src], link[rel=modulepreload]').count(), url).toBe(0);
  }

  fetched.length = 0;
  await open(page, testInfo, '/');
  if (!hydrated(testInfo)) {
    expect(code(), 'without JavaScript, nothing is fetched').toEqual([]);
    return;
  }
  const files = code();
  expect(files.map((p) => p.replace(/\.[A-Za-z0-9_-]{22}\./, '.<hash>.')).sort())
    .toEqual(['/pkg/sou.<hash>.js', '/pkg/sou.<hash>.wasm']);
  for (const file of files) {
    const r = await page.request.get(file, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(r.status(), file).toBe(200);
    expect(r.headers()['content-encoding'], `${file} precompressed`).toBe('br');
    expect(r.headers()['cache-control'], file).toBe('public, max-age=31536000, immutable');
    expect(r.headers()['vary'], file).toContain('accept-encoding');
  }

  // A second visit: the same files, from the cache, not from the network.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  // Served from the memory cache (announced first), the disk cache or the service
  // worker's, or not.
  const cached = new Set();
  const fromNetwork = [];
  cdp.on('Network.requestServedFromCache', (e) => cached.add(e.requestId));
  cdp.on('Network.responseReceived', (e) => {
    const path = new URL(e.response.url).pathname;
    const kept = cached.has(e.requestId) || e.response.fromDiskCache || e.response.fromServiceWorker;
    if (/\.(js|wasm|css)$/.test(path) && !kept) fromNetwork.push(path);
  });
  await open(page, testInfo, '/');
  expect(fromNetwork, 'files downloaded again on a second visit').toEqual([]);
});
