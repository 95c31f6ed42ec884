// Settings → Accounts on the demo ledger: each account's balance is the one the chat
// gives; a rename shows the new name and keeps the old one understood (the chat still
// answers for it, with the same figure); a taken name is refused with the reason and
// changes nothing. With JavaScript and without; a phone and a desktop, French and English.
import { test, expect } from '@playwright/test';
import { watchConsole, expectNoConsoleErrors, open, ask, signIn, snap } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo));
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

test('accounts: the chat\'s balances, renamed, the old name still understood', async ({ page }, testInfo) => {
  await signIn(page, testInfo);
  await open(page, testInfo, '/settings');
  await page.getByTestId('accounts-link').click();
  await expect(page).toHaveURL(/\/settings\/accounts$/);
  await expect(page.locator('h1')).toHaveText('Comptes');
  await expect(page.getByTestId('bank-account')).toHaveCount(2);
  await expect(page.getByTestId('accounts-total').locator('.total')).toHaveText(/^\d[\d\u202f]*,\d\d\u00a0€$/);
  const livret = page.locator('[data-testid=bank-account][data-key=livret_a]');
  await expect(livret.getByRole('heading')).toContainText('Livret A');
  await expect(livret.getByTestId('activity')).toContainText(/\d+ opérations, du .+ au .+\./);
  const balance = (await livret.getByTestId('balance').textContent()).trim();
  expect(balance).toMatch(/^\d[\d\u202f]*,\d\d\u00a0€$/);
  await snap(page, { path: `test-results/accounts-${testInfo.project.name}.png`, fullPage: true });

  // A name another account has (case and accents aside) is refused, nothing changes.
  await livret.getByLabel('Nom').fill('compte COURANT');
  await livret.getByRole('button', { name: 'Renommer' }).click();
  await expect(page.getByTestId('rename-error')).toHaveText('Un autre compte s\'appelle déjà « Compte courant » ; rien n\'a été modifié.');
  await expect(livret.getByRole('heading')).toContainText('Livret A');

  await livret.getByLabel('Nom').fill('  Épargne   vacances ');
  await livret.getByRole('button', { name: 'Renommer' }).click();
  // Back on the page, the refusal's trace gone from its address.
  await expect(page).toHaveURL(/\/settings\/accounts\??$/);
  await expect(page.getByTestId('rename-error')).toHaveCount(0);
  await expect(livret.getByRole('heading')).toContainText('Épargne vacances');
  await expect(livret.getByTestId('aliases')).toContainText('Livret A');
  await snap(page, { path: `test-results/accounts-renamed-${testInfo.project.name}.png`, fullPage: true });

  // The chat answers for both names, with the page's figure.
  await open(page, testInfo, '/');
  for (const question of ['solde du livret A', 'solde de épargne vacances']) {
    await ask(page, question);
    await expect(page.getByTestId('turn').last().getByTestId('total')).toHaveText(balance);
  }
});

for (const [width, height] of [[390, 844], [1280, 800]]) {
  test.describe(`${width} px, English`, () => {
    test.use({ viewport: { width, height }, locale: 'en-GB' });
    test('accounts in English, on a phone and a desktop', async ({ page }, testInfo) => {
      await signIn(page, testInfo);
      await open(page, testInfo, '/settings/accounts');
      await expect(page.locator('h1')).toHaveText('Accounts');
      const current = page.locator('[data-testid=bank-account][data-key=compte_courant]');
      await expect(current.getByRole('heading')).toContainText('Current account');
      await expect(current.getByTestId('balance')).toHaveText(/^€[\d,]+\.\d\d$/);
      await expect(current.getByTestId('activity')).toContainText(/\d+ transactions, from .+ to .+\./);
      const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect(scroll, 'no sideways scroll').toBeLessThanOrEqual(inner);
      await snap(page, { path: `test-results/accounts-en-${width}-${testInfo.project.name}.png`, fullPage: true });
    });
  });
}
