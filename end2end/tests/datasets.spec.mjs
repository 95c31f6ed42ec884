// Analyst mode's data in the browser: a CSV uploaded as a table (typed columns, what
// the model is told), SQL typed in the page answered with a table and an SVG chart, a
// write refused with the reason — with JavaScript and without.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { watchConsole, expectNoConsoleErrors, open, signIn, snap } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo));
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

test('a CSV becomes a table; SQL over it gives a table and a chart', async ({ page }, testInfo) => {
  await signIn(page, testInfo);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sou-ds-')), 'ventes par région.csv');
  fs.writeFileSync(file, 'Région;Montant;Mois\nNord;1200,50;2026-01\nSud;800;2026-01\nNord;300,25;2026-02\nEst;50;2026-02\n');

  await open(page, testInfo, '/datasets');
  await page.getByLabel('Fichier CSV').setInputFiles(file);
  await page.getByRole('button', { name: 'Créer la table' }).click();
  await expect(page.getByTestId('dataset-added')).toHaveText('Table « ventes_par_region » créée.');
  const item = page.getByTestId('dataset-list').locator('li');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('region (text), montant (number), mois (text)');
  await expect(page.getByTestId('described')).toContainText(
    '- **ventes_par_region**: 4 rows, columns: region (text), montant (number), mois (text)');

  await page.getByLabel('SQL').fill(
    'SELECT region, SUM(montant) AS total FROM ventes_par_region GROUP BY region ORDER BY total DESC');
  await page.getByRole('button', { name: 'Exécuter' }).click();
  const rows = page.getByTestId('query-result').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText('Nord');
  await expect(rows.first()).toContainText('1500,75');
  const chart = page.getByTestId('chart');
  await expect(chart).toHaveAttribute('data-kind', 'bar');
  await expect(chart.locator('svg.chart-wide[role="img"] rect.chart-bar')).toHaveCount(3);
  await expect(chart.locator('svg.chart-wide desc')).toHaveText(
    'Diagramme en barres — total / region — Nord : 1500,75; Sud : 800; Est : 50');
  await snap(page, { path: `test-results/datasets-${testInfo.project.name}.png`, fullPage: true });

  await page.getByLabel('SQL').fill('DELETE FROM ventes_par_region');
  await page.getByRole('button', { name: 'Exécuter' }).click();
  await expect(page.getByTestId('query-error')).toHaveText(
    'Requête refusée : only SELECT queries are allowed, not DELETE.');

  await page.getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByTestId('dataset-list')).toHaveCount(0);
});
