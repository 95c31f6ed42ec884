// Hostile text everywhere Sou shows text. Two accounts are filled the same way — one
// with plain words, one with markup, script and links in every field it can write
// (a question and its conversation's title, an API token's label, a rule, an imported
// account and its transactions' labels, a dataset's file, columns and cells) — and
// every page is opened with those words, and in every query parameter it reads, for
// both. A page fails when the hostile version has an element or attribute the plain
// one does not, a link or a source off this site, an event handler, or runs anything;
// the policy (CSP) must report nothing. With JavaScript and without.
import { test, expect } from '@playwright/test';
import { hydrated, watchConsole, expectNoConsoleErrors, open, expectLive } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo));
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

const MARK = 'souxss';
// Each at most 60 characters (the shortest field's limit), each breaking out of
// another context: a text field, an attribute, a raw-text element, Markdown, a URL.
const HOSTILE = [
  `</textarea><script>window.__xss=1</script>${MARK}`,
  `"><img src=x onerror=window.__xss=1 ${MARK}>`,
  `'><svg onload=window.__xss=1 ${MARK}>`,
  `[${MARK}](https://evil.example/${MARK})`,
  `</noscript></title><b ${MARK}=1>b</b>`,
  `javascript:window.__xss=1//${MARK}`,
  `<a href=//evil.example>${MARK}</a>`,
  `</style><iframe src=//evil.example ${MARK}>`,
];
const ALL = HOSTILE.join(' ');
const plain = (i) => `zorglub${i} quux`;
const hostile = (i) => HOSTILE[i % HOSTILE.length];

// Fills a new account through the same requests the pages send; returns what the
// pages to visit need.
async function plant(page, testInfo, v, tag) {
  const request = page.context().request;
  const name = `hostile-${tag}-${testInfo.project.name}-${Date.now()}`;
  const password = 'une phrase de passe assez longue';
  let r = await request.post('/auth/signup', { form: { name, password, confirm: password } });
  expect(r.ok(), 'signed up').toBeTruthy();

  r = await request.post('/chat', { form: { message: `combien en courses en janvier 2026 ? ${v(0)}` } });
  const conversation = new URL(r.url()).pathname.split('/').pop();
  expect(conversation).toMatch(/^[0-9a-f]{32}$/);
  r = await request.post('/api/rename_conversation', { form: { id: conversation, title: v(1) }, headers: { accept: 'application/json' } });
  expect(r.ok(), `rename: ${await r.text()}`).toBeTruthy();
  r = await request.post('/api/create_token', { form: { label: v(2) }, headers: { accept: 'application/json' } });
  expect(r.ok(), `token: ${await r.text()}`).toBeTruthy();

  // A bank file whose labels are the words, into an account named with them.
  const lines = ['Date;Libellé;Montant'];
  for (let i = 0; i < HOSTILE.length; i++) lines.push(`${10 + i}/01/2026;CB ${v(i)};-${i + 1},50`);
  r = await request.post('/import', { multipart: { file: { name: 'releve.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n') + '\n') } } });
  const importPage = new URL(r.url()).pathname;
  expect(importPage).toMatch(/^\/import\/[0-9a-f]{32}$/);
  r = await request.post(`${importPage}/run`, { form: { new_account: v(3) } });
  expect(r.ok(), 'imported').toBeTruthy();

  await page.goto('/rules');
  const category = await page.locator('select[name="category"] option:not([value=""])').first().getAttribute('value');
  r = await request.post('/rules', { form: { pattern: v(4), category } });
  expect(r.ok(), 'rule').toBeTruthy();

  // A dataset: its file name, a column named with the words, cells holding them.
  const csv = ['libelle;montant', ...HOSTILE.map((_, i) => `"${v(i).replaceAll('"', '""')}";${i + 1}`)].join('\n') + '\n';
  r = await request.post('/datasets', { multipart: { file: { name: `${v(1)}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) } } });
  expect(r.ok(), 'dataset').toBeTruthy();
  await page.goto('/datasets');
  const dataset = await page.getByTestId('dataset-list').locator('li').first().getAttribute('data-name');
  r = await request.post('/chat', { form: { message: `total montant par libelle dans ${dataset}`, conversation_id: conversation } });
  expect(r.ok(), 'dataset question').toBeTruthy();
  r = await request.post('/chat', { form: { message: 'top 10 marchands en janvier 2026', conversation_id: conversation } });
  expect(r.ok(), 'merchants question').toBeTruthy();
  return { conversation, importPage, dataset };
}

// Every page, with the account's words in it and `q` in every parameter it reads.
function pages({ conversation, importPage, dataset }, q) {
  const e = encodeURIComponent(q);
  return [
    `/?q=${e}`,
    `/c/${conversation}?q=${e}`,
    `/settings?reveal=${e}&error=${e}`,
    `/settings?reveal=1`,
    `/import?refused=${e}`,
    importPage,
    `/rules?rule=${e}&error=${e}`,
    `/datasets?sql=${e}&refused=${e}&added=${e}`,
    `/datasets?sql=${encodeURIComponent(`SELECT libelle, montant FROM ${dataset}`)}`,
    `/no-such-page/${e}`,
  ];
}

// What a page is made of: each element name with each of its attribute names, and
// what would be wrong in any page.
async function anatomy(page) {
  return page.evaluate((mark) => {
    const pairs = new Set();
    const wrong = [];
    for (const el of document.querySelectorAll('*')) {
      const tag = el.localName;
      pairs.add(tag);
      if (tag.includes(mark)) wrong.push(`element <${tag}>`);
      for (const a of el.attributes) {
        pairs.add(`${tag}[${a.name}]`);
        if (a.name.includes(mark)) wrong.push(`attribute ${a.name} on <${tag}>`);
        if (a.name.startsWith('on')) wrong.push(`handler ${a.name} on <${tag}>`);
        if (['href', 'src', 'action', 'formaction', 'xlink:href'].includes(a.name)) {
          const url = new URL(a.value, location.href);
          if (url.origin !== location.origin) wrong.push(`<${tag} ${a.name}="${a.value}">`);
        }
      }
    }
    if (window.__xss) wrong.push('a script ran');
    return { pairs: [...pairs], wrong };
  }, MARK);
}

async function visit(page, testInfo, url) {
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  const r = await page.goto(url);
  expect(r.status(), url).toBeLessThan(500);
  await expectLive(page, testInfo);
  const a = await anatomy(page);
  expect(dialogs, url).toEqual([]);
  return a;
}

// Each hostile page against its plain twin: nothing wrong, and no element or
// attribute the plain one does not have.
async function compare(testInfo, [calm, calmUrls], [wild, wildUrls]) {
  for (let i = 0; i < calmUrls.length; i++) {
    const base = await visit(calm, testInfo, calmUrls[i]);
    const seen = await visit(wild, testInfo, wildUrls[i]);
    expect(seen.wrong, wildUrls[i]).toEqual([]);
    const known = new Set(base.pairs);
    expect(seen.pairs.filter((p) => !known.has(p)), `new in ${wildUrls[i]}`).toEqual([]);
  }
}

test('no text a user, a bank, a file or a URL gives becomes markup', async ({ browser }, testInfo) => {
  test.setTimeout(240_000);
  const context = async () => browser.newContext({ javaScriptEnabled: hydrated(testInfo), locale: 'fr-FR', baseURL: testInfo.project.use.baseURL });
  const calm = await (await context()).newPage();
  const wild = await (await context()).newPage();
  // The missing page answers 404, which the browser logs; nothing else may be logged.
  const missing = (m) => /status of 404/.test(m.text()) && m.location().url.includes('/no-such-page/');
  await watchConsole(wild, testInfo, missing);
  const calmPlaces = await plant(calm, testInfo, plain, 'plain');
  const wildPlaces = await plant(wild, testInfo, hostile, 'wild');
  const calmPages = pages(calmPlaces, plain(9));
  const wildPages = pages(wildPlaces, ALL);
  await compare(testInfo, [calm, calmPages], [wild, wildPages]);
  // The sign-in pages, signed out: their parameters are what a link can carry.
  const anonymous = async (q) => {
    const p = await (await context()).newPage();
    const e = encodeURIComponent(q);
    return [p, [`/login?next=${e}&name=${e}&error=${e}&retry=${e}`, `/signup?name=${e}&error=${e}`, `/login?error=rate_limited&retry=${e}`]];
  };
  const [calmOut, calmUrls] = await anonymous(plain(9));
  const [wildOut, wildUrls] = await anonymous(ALL);
  await watchConsole(wildOut, testInfo);
  await compare(testInfo, [calmOut, calmUrls], [wildOut, wildUrls]);

  // The words are on the pages as text.
  await wild.goto(wildPages[7]);
  await expect(wild.locator('#sql')).toHaveValue(ALL);
  await wild.goto(wildPages[8]);
  const cells = wild.getByTestId('query-result').locator('tbody td');
  for (const h of HOSTILE) await expect(cells.filter({ hasText: h }).first()).toHaveText(h);
  await wild.screenshot({ path: `test-results/hostile-${testInfo.project.name}.png`, fullPage: true });
});

// The policy is on, and a violation is seen: a script added without the page's nonce
// does not run, and the report every test fails on arrives.
test('a script without the nonce is refused, and the tests hear of it', async ({ page }, testInfo) => {
  test.skip(!hydrated(testInfo), 'adding a script needs JavaScript');
  await open(page, testInfo, '/login');
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__probe = 1';
    document.body.append(s);
  });
  expect(await page.evaluate(() => window.__probe)).toBeUndefined();
  await expect.poll(() => testInfo.problems.filter((p) => p.includes('securitypolicyviolation')).length).toBeGreaterThan(0);
  // Provoked on purpose: not a problem of this page.
  testInfo.problems.length = 0;
});
