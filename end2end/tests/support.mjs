// Helpers shared by the specs: which project runs, console errors as failures,
// opening a page (checking it hydrated or not), asking a question, a new account and
// a bank file uploaded.
import { expect } from '@playwright/test';
import path from 'node:path';

export const hydrated = (testInfo) => testInfo.project.name === 'hydrated';

// Console errors and uncaught exceptions are collected in `testInfo.problems`;
// `expected(message)` may excuse one (a 400 the test provokes on purpose).
// A Content-Security-Policy violation is always a problem: Chromium logs it as a
// console error (with JavaScript or without), and the page's own listener reports it
// too when scripts run.
export function watchConsole(page, testInfo, expected = () => false) {
  const problems = testInfo.problems || [];
  const csp = (text) => /Content Security Policy|securitypolicyviolation/i.test(text);
  page.on('console', (m) => {
    if ((m.type() === 'error' && !expected(m)) || csp(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => {
    if (!expected({ type: () => 'pageerror', text: () => String(e) })) problems.push(String(e));
  });
  testInfo.problems = problems;
  return page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) =>
    console.error(`securitypolicyviolation: ${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`)));
}

export function expectNoConsoleErrors(testInfo) {
  expect(testInfo.problems, 'browser console errors').toEqual([]);
}

// Goes to `url` and waits until its browser code runs (or checks there is none).
export async function open(page, testInfo, url = '/') {
  await page.goto(url);
  await expectLive(page, testInfo);
}

// A page with an island (the chat's composer) runs Sou's browser code once loaded,
// with JavaScript; every other page is server HTML and plain forms, and never does.
export async function expectLive(page, testInfo) {
  const island = (await page.locator('leptos-island').count()) > 0;
  await expect(page.locator('body[data-hydrated]')).toHaveCount(hydrated(testInfo) && island ? 1 : 0);
}

// Every page Settings links to (`/settings/…`), in its order: a page added there is
// checked by the tests that walk every page, without a list of their own.
export async function settingsPages(page, testInfo) {
  await open(page, testInfo, '/settings');
  const hrefs = await page.locator('main a[href^="/settings/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  const pages = [...new Set(hrefs)];
  expect(pages.length, 'Settings links to its pages').toBeGreaterThanOrEqual(7);
  return pages;
}

// "Try the demo" on the sign-in page: a new account with the demo ledger, signed in
// in this browser context. Returns the account's name.
export async function signIn(page, testInfo) {
  await open(page, testInfo, '/login');
  await page.getByTestId('try-demo').click();
  await expect(page).toHaveURL(/\/$/);
  await expectLive(page, testInfo);
  return page.getByTestId('account').locator('.account-name').getAttribute('title');
}

export async function ask(page, question) {
  const input = page.locator('#message');
  await input.fill(question);
  await input.press('Enter');
}

// A screenshot for people to look at, not an assertion: headless Chromium sometimes
// answers "Unable to capture screenshot" under load, so it is taken again once.
export async function snap(page, options) {
  try {
    return await page.screenshot(options);
  } catch (error) {
    if (!String(error).includes('Unable to capture screenshot')) throw error;
    await page.waitForTimeout(250);
    return page.screenshot(options);
  }
}

// A new account of its own (no demo ledger), signed in: what importing one's own data
// starts from. `prefix` names the test that made it. Returns its name and password.
export async function signUp(page, testInfo, prefix) {
  const name = `${prefix}-${testInfo.project.name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const password = 'une phrase de passe assez longue';
  await open(page, testInfo, '/signup');
  await page.getByLabel("Nom d'utilisateur").fill(name);
  await page.getByLabel('Mot de passe (10 caractères au moins)').fill(password);
  await page.getByLabel('Le même, encore').fill(password);
  await page.getByRole('button', { name: 'Créer le compte' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectLive(page, testInfo);
  return { name, password };
}

// Uploads a fixture of backend/tests/fixtures/import through the import form: on its
// preview page after.
export async function uploadFile(page, testInfo, file) {
  await open(page, testInfo, '/import');
  await page.getByLabel('Fichier').setInputFiles(importFixture(file));
  await page.getByRole('button', { name: 'Lire le fichier' }).click();
  await expect(page).toHaveURL(/\/import\/[0-9a-f]{32}$/);
  await expectLive(page, testInfo);
}

export const importFixture = (name) => path.resolve(import.meta.dirname, '../../backend/tests/fixtures/import', name);
