// Bringing one's own data: a new account (no demo ledger) imports a French bank CSV
// (Windows-1252, `;`, debit and credit columns), an OFX 1 statement and a CAMT.053 file,
// checks each preview (detected layout, merchants, categories, rejected lines, rows
// already there), corrects the CSV layout, sees the progress bar and the report, makes
// a rule and approves it for the past — then asks questions that only the imported
// data can answer. With JavaScript and without.
import { test, expect } from '@playwright/test';
import { watchConsole, expectNoConsoleErrors, open, ask, snap, signUp, uploadFile, importFixture } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo));
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

const fixture = importFixture;

test('import a French CSV, an OFX and a CAMT.053 file, then ask about them', async ({ page }, testInfo) => {
  const shot = (name) => snap(page, { path: `test-results/import-${name}-${testInfo.project.name}.png`, fullPage: true });
  await signUp(page, testInfo, 'import');

  // The French CSV: what Sou detected, the preview, the rejected lines.
  await uploadFile(page, testInfo, 'fr-banque-latin1.csv');
  await expect(page.getByTestId('detected')).toHaveText(
    'CSV · Windows-1252 (Latin-1) · séparateur « ; » · dates JJ/MM/AAAA · décimale « , » · débit et crédit séparés');
  await expect(page.getByTestId('summary')).toHaveText(
    '4 opérations lues · 3 lignes rejetées · 0 déjà dans ce compte');
  const rows = page.getByTestId('preview').locator('tbody tr');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText('CB CARREFOUR CITY 31/12');
  await expect(rows.nth(0)).toContainText('Carrefour');
  await expect(rows.nth(0)).toContainText('Courses');
  await expect(rows.nth(0)).toContainText('-45,67');
  await expect(rows.nth(3)).toContainText('CB LIBRAIRIE ÉLÉGANTE');
  const rejected = page.getByTestId('rejected');
  await expect(rejected).toContainText("Ligne 9 : la date « 32/01/2026 » n'est pas une date valide (JJ/MM/AAAA)");
  await expect(rejected).toContainText('Ligne 10 : un débit et un crédit à la fois');

  // A corrected layout: debit and credit swapped, the amounts change sign; then back.
  await page.getByLabel('Débit', { exact: true }).selectOption('5');
  await page.getByLabel('Crédit', { exact: true }).selectOption('4');
  await page.getByRole('button', { name: "Mettre à jour l'aperçu" }).click();
  await expect(rows.nth(0)).not.toContainText('-45,67');
  await expect(rows.nth(0)).toContainText('45,67');
  await page.getByLabel('Débit', { exact: true }).selectOption('4');
  await page.getByLabel('Crédit', { exact: true }).selectOption('5');
  await page.getByRole('button', { name: "Mettre à jour l'aperçu" }).click();
  await expect(rows.nth(0)).toContainText('-45,67');
  await shot('preview');

  // Import into a new account: the progress bar, full, and the report.
  await page.getByLabel('Nom du nouveau compte').fill('Compte BNP');
  await page.getByRole('button', { name: 'Importer 4 opérations' }).click();
  const report = page.getByTestId('report');
  await expect(report).toBeVisible();
  const bar = page.getByTestId('progress').locator('progress');
  await expect(bar).toHaveAttribute('max', '4');
  await expect(bar).toHaveAttribute('value', '4');
  await expect(page.getByTestId('progress')).toContainText('4 / 4 · 100 %');
  await expect(page.getByTestId('added')).toHaveText('4 opérations ajoutées au compte « Compte BNP ».');
  await expect(page.getByTestId('skipped')).toHaveText('0 déjà présente, ignorée · 3 lignes rejetées.');
  await shot('report');

  // The same CSV again into that account: every row is already there.
  await uploadFile(page, testInfo, 'fr-banque-latin1.csv');
  await page.getByLabel('Compte', { exact: true }).selectOption({ label: 'Compte BNP (EUR)' });
  await page.getByRole('button', { name: "Mettre à jour l'aperçu" }).click();
  await expect(page.getByTestId('summary')).toContainText('4 déjà dans ce compte');
  await expect(rows.nth(0)).toContainText('déjà importée');
  await page.getByRole('button', { name: 'Abandonner ce fichier' }).click();
  await expect(page).toHaveURL(/\/import$/);

  // The OFX statement, into the same account.
  await uploadFile(page, testInfo, 'releve-ofx1-sgml.ofx');
  await expect(page.getByTestId('detected')).toHaveText('OFX · Windows-1252 (Latin-1) · EUR');
  await page.getByLabel('Compte', { exact: true }).selectOption({ label: 'Compte BNP (EUR)' });
  await page.getByRole('button', { name: "Mettre à jour l'aperçu" }).click();
  await expect(page.getByTestId('summary')).toHaveText(
    '3 opérations lues · 2 lignes rejetées · 0 déjà dans ce compte');
  await page.getByRole('button', { name: 'Importer 3 opérations' }).click();
  await expect(page.getByTestId('added')).toHaveText('3 opérations ajoutées au compte « Compte BNP ».');

  // The CAMT.053 file, into a new account.
  await uploadFile(page, testInfo, 'releve-camt053.xml');
  await expect(page.getByTestId('detected')).toHaveText('CAMT.053 · UTF-8 · EUR');
  await expect(page.getByTestId('rejected')).toContainText('le montant est en USD, le compte en EUR');
  await page.getByLabel('Nom du nouveau compte').fill('Compte pro');
  await page.getByRole('button', { name: 'Importer 3 opérations' }).click();
  await expect(page.getByTestId('added')).toHaveText('3 opérations ajoutées au compte « Compte pro ».');

  // The three imports are listed.
  await open(page, testInfo, '/import');
  await expect(page.getByTestId('past-imports').locator('tbody tr')).toHaveCount(3);
  await shot('list');

  // A rule for the bookshop, approved for the past.
  await open(page, testInfo, '/rules');
  await page.getByLabel('Le libellé contient').fill('librairie');
  await page.getByLabel('Catégorie').selectOption({ label: 'Loisirs' });
  await page.getByRole('button', { name: 'Enregistrer la règle' }).click();
  await expect(page.getByTestId('matching')).toHaveText(
    'Elle correspond à 2 opérations passées, dont 2 changeraient de catégorie.');
  await shot('rule');
  await page.getByRole('button', { name: 'Appliquer à 2 opérations passées' }).click();
  await expect(page.getByTestId('applied')).toHaveText('2 opérations passées recatégorisées.');

  // Questions only the imported data answers (this account has no other).
  await open(page, testInfo, '/');
  await ask(page, "combien j'ai dépensé en courses en janvier 2026 ?");
  await expect(page.getByTestId('total').last()).toContainText('137,01');
  await ask(page, "combien j'ai dépensé en loisirs en janvier 2026 ?");
  await expect(page.getByTestId('total').last()).toContainText('24,60');
  await shot('answer');
});

test('a file Sou cannot read is refused with the reason', async ({ page }, testInfo) => {
  await signUp(page, testInfo, 'import');
  await open(page, testInfo, '/import');
  await page.getByLabel('Fichier').setInputFiles(fixture('camt-casse.xml'));
  await page.getByRole('button', { name: 'Lire le fichier' }).click();
  await expect(page).toHaveURL(/\/import\?refused=/);
  await expect(page.getByTestId('refused')).toContainText("Sou n'a pas pu lire ce fichier");
  await expect(page.getByTestId('refused')).toContainText('line 24');
});

test('a column of amounts Sou is not sure of waits for the user', async ({ page }, testInfo) => {
  await signUp(page, testInfo, 'import');
  // No header, and two columns of money (euros, then francs): which is the amount?
  await uploadFile(page, testInfo, 'sans-entete-deux-montants.csv');
  const unsure = page.getByTestId('layout-unsure');
  await expect(unsure).toContainText("Sou n'est pas sûr de la colonne des montants");
  await expect(unsure).toContainText('colonne 3');
  await expect(unsure).toContainText('colonne 4');
  const run = page.getByTestId('run-form').getByRole('button');
  await expect(run).toBeDisabled();
  await snap(page, { path: `test-results/import-unsure-${testInfo.project.name}.png`, fullPage: true });
  // The user chooses column 3 and updates the preview: the import can run.
  await page.getByLabel('Montant (colonne signée)').selectOption('3');
  await page.getByRole('button', { name: "Mettre à jour l'aperçu" }).click();
  await expect(page.getByTestId('layout-unsure')).toHaveCount(0);
  await expect(page.getByTestId('preview').locator('tbody tr').first()).toContainText('-45,67');
  await expect(run).toBeEnabled();
  await run.click();
  await expect(page.getByTestId('added')).toContainText('3 opérations ajoutées');
});
