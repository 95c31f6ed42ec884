// Accounts in the browser: sign up, sign out, a wrong password, sign in again, and
// personal API tokens in Settings (shown once, usable, revoked) — with JavaScript and
// without.
import { test, expect } from '@playwright/test';
import { watchConsole, expectNoConsoleErrors, open, snap, signUp } from './support.mjs';

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

// Settings → Account, in two browsers signed in to one account: the first signs the
// second out from the list of sessions, then changes the password, which signs the
// second out again; the new password is the one that works.
test('sessions are listed and signed out; a new password signs out the others', async ({ page, browser }, testInfo) => {
  const { name, password } = await signUp(page, testInfo, 'ines');
  const renewed = 'une autre phrase encore plus longue';

  // The second browser: its own context, the same project's options.
  const { baseURL, javaScriptEnabled } = testInfo.project.use;
  const other = await browser.newContext({ baseURL, javaScriptEnabled, locale: 'fr-FR' });
  const second = await other.newPage();
  const signInThere = async (pw) => {
    await second.goto('/login');
    await second.getByLabel("Nom d'utilisateur").fill(name);
    await second.getByLabel('Mot de passe').fill(pw);
    await second.getByRole('button', { name: 'Se connecter' }).click();
    await expect(second).toHaveURL(/\/$/);
  };
  const signedOutThere = async () => {
    await second.goto('/settings');
    await expect(second).toHaveURL(/\/login\?next=%2Fsettings$/);
  };
  await signInThere(password);

  // From Settings to the list: this browser marked, the other one beside it.
  await open(page, testInfo, '/settings');
  await page.getByTestId('account-link').click();
  await expect(page).toHaveURL(/\/settings\/account$/);
  const sessions = page.getByTestId('sessions').getByTestId('session');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.first()).toContainText('cet appareil');
  await expect(sessions.first()).toContainText(/Chrom(e|ium) sous Linux/);
  await expect(sessions.nth(1)).toContainText('127.0.0.1');
  await expect(sessions.nth(1)).toContainText(/vue le \d\d\/\d\d\/\d{4} à \d\d:\d\d/);
  await snap(page, { path: `test-results/account-sessions-${testInfo.project.name}.png`, fullPage: true });

  // Sign out the other one from the list.
  await sessions.nth(1).getByRole('button', { name: 'Déconnecter' }).click();
  await expect(page.getByTestId('account-status')).toHaveText('1 session déconnectée.');
  await expect(sessions).toHaveCount(1);
  await signedOutThere();

  // Signed in there again, then the password changed here: signed out there again.
  await signInThere(password);
  await page.reload();
  await expect(sessions).toHaveCount(2);
  const form = page.getByTestId('password-card');
  await form.getByLabel('Mot de passe actuel').fill('pas le bon mot de passe');
  await form.getByLabel('Nouveau mot de passe (10 caractères au moins)').fill(renewed);
  await form.getByLabel('Le nouveau, encore').fill(renewed);
  await form.getByRole('button', { name: 'Changer le mot de passe' }).click();
  await expect(page.getByTestId('account-error')).toHaveText("Ce n'est pas votre mot de passe actuel.");
  await form.getByLabel('Mot de passe actuel').fill(password);
  await form.getByLabel('Nouveau mot de passe (10 caractères au moins)').fill(renewed);
  await form.getByLabel('Le nouveau, encore').fill(renewed);
  await form.getByRole('button', { name: 'Changer le mot de passe' }).click();
  await expect(page.getByTestId('account-status')).toHaveText('Mot de passe changé. 1 session ailleurs a été déconnectée.');
  await expect(sessions).toHaveCount(1);
  await signedOutThere();
  await signInThere(renewed);
  // This browser stayed signed in.
  await open(page, testInfo, '/settings/account');
  await expect(page.getByTestId('account-page')).toBeVisible();
  await other.close();
});
