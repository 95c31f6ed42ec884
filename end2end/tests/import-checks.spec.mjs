// What a preview says before anything is imported: a Revolut export recognised by its
// header, the rows its bank did not book and the row in dollars listed with the reason,
// the fee as a row of its own (or taken off, as the user chooses), the balances checked;
// a Crédit Mutuel export whose balance jumps, warned; a QIF file that states no currency
// asks the new account's, and its opening balance opens the account; a QIF file of two
// accounts has a target for each. At 390 px and
// 1280 px, with JavaScript and without; the page never scrolls sideways.
import { test, expect } from '@playwright/test';
import { watchConsole, expectNoConsoleErrors, snap, signUp, uploadFile } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo));
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));


async function noSidewaysScroll(page, where) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll, `${where}: the page is ${scroll} px wide in a ${width} px window`).toBeLessThanOrEqual(width);
}

for (const [width, height] of [[390, 844], [1280, 800]]) {
  test.describe(`${width} px`, () => {
    test.use({ viewport: { width, height }, locale: 'fr-FR' });
    const shot = (page, testInfo, name) =>
      snap(page, { path: `test-results/import-checks-${name}-${width}-${testInfo.project.name}.png`, fullPage: true });

    test('a Revolut export: states, currencies, fees and balances said before importing', async ({ page }, testInfo) => {
      await signUp(page, testInfo, 'checks');
      await uploadFile(page, testInfo, 'revolut-devises-frais.csv');
      await expect(page.getByTestId('detected')).toContainText('relevé Revolut');
      await expect(page.getByTestId('detected')).toContainText('frais en lignes à part');
      await expect(page.getByTestId('found').first()).toContainText('format Revolut');
      await expect(page.getByTestId('summary')).toContainText('4 opérations lues · 4 lignes rejetées');
      const rejected = page.getByTestId('rejected');
      await expect(rejected).toContainText('Ligne 4 : le montant est en USD, le compte en EUR');
      await expect(rejected).toContainText('Ligne 5 : la banque l\'indique « PENDING » : pas comptabilisée, donc pas importée');
      await expect(rejected).toContainText('« REVERTED »');
      await expect(rejected).toContainText('« DECLINED »');
      const rows = page.getByTestId('preview').locator('tbody tr');
      await expect(rows).toHaveCount(4);
      await expect(rows.nth(2)).toContainText('Fee: Cash at Distributeur Opera');
      await expect(rows.nth(2)).toContainText('-1,50');
      const balances = page.getByTestId('balances');
      await expect(balances).toHaveAttribute('data-adds-up', 'true');
      await expect(balances).toContainText('1 375,10');
      await expect(balances).toContainText("Le solde d'ouverture du compte sera 1 000,00");
      await noSidewaysScroll(page, 'the Revolut preview');
      await shot(page, testInfo, 'revolut');

      // The user takes the fees off the amounts: three rows, the withdrawal 101,50.
      await page.getByLabel('Les frais').selectOption('netted');
      await page.getByRole('button', { name: "Mettre à jour l'aperçu" }).click();
      await expect(page.getByTestId('detected')).toContainText('frais déduits des montants');
      await expect(rows).toHaveCount(3);
      await expect(rows.nth(1)).toContainText('-101,50');
      await expect(page.getByTestId('balances')).toHaveAttribute('data-adds-up', 'true');
      const run = page.getByTestId('run-form').getByRole('button');
      await expect(run).toHaveText('Importer 3 opérations');
      await run.click();
      await expect(page.getByTestId('added')).toContainText('3 opérations ajoutées');
      await expect(page.getByTestId('opening-set')).toContainText("Solde d'ouverture du compte : 1 000,00");
    });

    test('a balance that jumps is warned; a QIF file asks its currency and opens the account', async ({ page }, testInfo) => {
      await signUp(page, testInfo, 'checks');
      await uploadFile(page, testInfo, 'credit-mutuel-trou.csv');
      await expect(page.getByTestId('detected')).toContainText('relevé Crédit Mutuel / CIC');
      const balances = page.getByTestId('balances');
      await expect(balances).toHaveAttribute('data-adds-up', 'false');
      await expect(balances).toHaveAttribute('role', 'alert');
      await expect(balances).toContainText('ne suit pas les montants ligne 4');
      await expect(balances).toContainText('écart -42,50');
      await noSidewaysScroll(page, 'the warned preview');
      await shot(page, testInfo, 'gap');

      await uploadFile(page, testInfo, 'qif-solde-initial.qif');
      await expect(page.getByTestId('summary')).toContainText('2 opérations lues');
      const currency = page.getByTestId('currency');
      await expect(currency).toHaveValue('EUR');
      await currency.selectOption('CHF');
      await expect(page.getByTestId('balances')).toContainText("Le solde d'ouverture du compte sera 1 500,00");
      await page.getByTestId('run-form').getByRole('button').click();
      await expect(page.getByTestId('added')).toContainText('2 opérations ajoutées');
      await expect(page.getByTestId('opening-set')).toContainText('1 500,00');
      await expect(page.getByTestId('opening-set')).toContainText('CHF');
      await shot(page, testInfo, 'qif-report');
    });

    test('a QIF file of two accounts: a target for each', async ({ page }, testInfo) => {
      await signUp(page, testInfo, 'checks');
      await uploadFile(page, testInfo, 'qif-tous-comptes.qif');
      const parts = page.getByTestId('parts');
      await expect(parts).toContainText('Ce fichier contient 2 comptes');
      await expect(parts).toContainText('Compte chèque · 2 opérations');
      await expect(parts).toContainText('Carte Visa · 1 opération');
      await expect(page.getByTestId('summary')).toContainText('3 opérations lues');
      await noSidewaysScroll(page, 'the two-account preview');
      await shot(page, testInfo, 'parts');
      await page.getByTestId('run-form').getByRole('button').click();
      await expect(page.getByTestId('added')).toContainText('3 opérations ajoutées au compte « Compte chèque, Carte Visa »');
      // A second file goes into the accounts the first made: the card's row is already there.
      await uploadFile(page, testInfo, 'qif-tous-comptes.qif');
      await page.locator('#l-part2').selectOption({ label: 'Carte Visa (EUR)' });
      await page.locator('#l-part1').selectOption({ label: 'Compte chèque (EUR)' });
      await page.getByRole('button', { name: "Mettre à jour l'aperçu" }).click();
      await expect(page.getByTestId('summary')).toContainText('3 déjà dans ce compte');
      await page.getByTestId('run-form').getByRole('button').click();
      await expect(page.getByTestId('added')).toContainText('0 opération ajoutée');
    });
  });
}
