// Accounts in the browser: sign up, sign out, a wrong password, sign in again, and
// personal API tokens in Settings (shown once, usable, revoked) — with JavaScript and
// without.
import { test, expect } from '@playwright/test';
import { watchConsole, expectNoConsoleErrors, open, snap } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo));
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

test('sign up, sign out, a wrong password, sign in again', async ({ page }, testInfo) => {
  const name = `ana-${testInfo.project.name}-${Date.now()}`;
  const password = 'une phrase de passe assez longue';

  // Anonymous: any page leads to the sign-in page, which remembers where you were going.
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings$/);
  await expect(page.getByRole('heading', { name: 'Se connecter' })).toBeVisible();
  await snap(page, { path: `test-results/login-${testInfo.project.name}.png`, fullPage: true });

  await page.getByRole('link', { name: 'Créer un compte' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.getByLabel("Nom d'utilisateur").fill(name);
  await page.getByLabel('Mot de passe (10 caractères au moins)').fill(password);
  await page.getByLabel('Le même, encore').fill(`${password}!`);
  await page.getByRole('button', { name: 'Créer le compte' }).click();
  // Back with the reason, the name kept, the passwords not.
  await expect(page.getByTestId('auth-error')).toHaveText('Les deux mots de passe ne sont pas identiques.');
  await expect(page.getByLabel("Nom d'utilisateur")).toHaveValue(name);
  await expect(page.getByLabel('Le même, encore')).toHaveValue('');
  await snap(page, { path: `test-results/signup-error-${testInfo.project.name}.png`, fullPage: true });
  await page.getByLabel('Mot de passe (10 caractères au moins)').fill(password);
  await page.getByLabel('Le même, encore').fill(password);
  await page.getByRole('button', { name: 'Créer le compte' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('account')).toContainText(name);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'sou_session');
  expect(cookie.httpOnly).toBe(true);
  expect(cookie.sameSite).toBe('Lax');

  await page.getByRole('button', { name: 'Se déconnecter' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel("Nom d'utilisateur").fill(name);
  await page.getByLabel('Mot de passe').fill('pas le bon mot de passe');
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByTestId('auth-error')).toHaveText('Nom ou mot de passe incorrect.');
  await expect(page.getByLabel("Nom d'utilisateur")).toHaveValue(name);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('account')).toContainText(name);
});

test('an API token is shown once, works, and is revoked', async ({ page, playwright }, testInfo) => {
  await open(page, testInfo, '/login');
  await page.getByTestId('try-demo').click();
  await expect(page).toHaveURL(/\/$/);
  await open(page, testInfo, '/settings');
  const tokens = page.getByTestId('tokens');
  await tokens.getByLabel('Nom du jeton').fill(`script ${testInfo.project.name}`);
  await tokens.getByRole('button', { name: 'Créer un jeton' }).click();
  const shown = tokens.getByTestId('new-token').locator('code');
  await expect(shown).toHaveText(/^sou_pat_[A-Za-z0-9_-]{43}$/);
  const token = await shown.textContent();
  await expect(tokens.getByTestId('token')).toHaveCount(1);
  await expect(tokens.getByTestId('token')).toContainText(`script ${testInfo.project.name}`);
  await expect(tokens.getByTestId('token')).toContainText(token.slice(0, 12));
  await snap(page, { path: `test-results/token-${testInfo.project.name}.png`, fullPage: true });
  // Once: a reload shows the list, not the token.
  await page.reload();
  await expect(page.getByTestId('tokens').getByTestId('token')).toHaveCount(1);
  await expect(page.getByTestId('new-token')).toHaveCount(0);
  expect(await page.content()).not.toContain(token);

  // The token answers for this account, from outside the browser.
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const ask = () => api.post('/api/v1/plan', {
    headers: { authorization: `Bearer ${token}` },
    data: { message: 'Combien en courses en janvier 2026 ?' },
  });
  const ok = await ask();
  expect(ok.status()).toBe(200);
  expect((await ok.json()).plan.tool).toBe('spending_summary');

  await page.getByTestId('tokens').getByRole('button', { name: 'Révoquer' }).click();
  await expect(page.getByTestId('tokens').getByTestId('token')).toHaveCount(0);
  const refused = await ask();
  expect(refused.status()).toBe(401);
  await api.dispose();
  await expect(page).toHaveURL(/\/settings/);
});
