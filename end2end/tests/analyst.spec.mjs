// Analyst mode in the chat: a CSV uploaded as a dataset, then questions about it.
// Without any model, "total amount by region" is planned by the parser and answered
// with a table and a chart; a follow-up is one click away. With a model, a question
// the parser leaves alone is answered by the model writing SQL — checked by the
// sandbox, refused once with the reason, corrected, then run.
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { llmPort, mockPort } from './model-env.mjs';
import { watchConsole, expectNoConsoleErrors, open, ask, signIn, snap, hydrated } from './support.mjs';

test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo));
test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

const SALES = 'region,amount,month\nNord,1200.50,2026-01\nSud,800,2026-01\nNord,300.25,2026-02\nEst,50,2026-02\nSud,950,2026-02\n';

const ORDERS = 'day,region,amount,units\n2026-01-05,Nord,120.50,3\n2026-01-20,Sud,80,1\n2026-02-03,Nord,30.25,2\n2026-04-11,Est,50,5\n2025-12-30,Nord,95,4\n';

async function upload(page, testInfo, name, content) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sou-analyst-')), name);
  fs.writeFileSync(file, content);
  await open(page, testInfo, '/datasets');
  await page.getByLabel('Fichier CSV').setInputFiles(file);
  await page.getByRole('button', { name: 'Créer la table' }).click();
  await expect(page.getByTestId('dataset-added')).toBeVisible();
}

test('a question about a dataset: a table and a chart, no model', async ({ page }, testInfo) => {
  await signIn(page, testInfo);
  await upload(page, testInfo, 'sales.csv', SALES);

  await open(page, testInfo, '/');
  if (hydrated(testInfo)) {
    // The browser's parser recognises a dataset question and leaves it to the server.
    await page.locator('#message').fill('total amount by region');
    await expect(page.getByTestId('draft-plan')).toContainText('A question about your data (“sales”)');
  }
  await ask(page, 'total amount by region');
  const result = page.getByTestId('result').last();
  await expect(result).toHaveAttribute('data-tool', 'query_dataset');
  await expect(page.getByTestId('plan').last()).toHaveAttribute('data-confidence', 'high');
  await expect(result.locator('.result-heading')).toHaveText('Sum of amount by region — sales');
  const rows = result.getByTestId('query-result').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toHaveText(/Sud\s*1750/);
  await expect(rows.nth(1)).toHaveText(/Nord\s*1500\.75/);
  await expect(rows.nth(2)).toHaveText(/Est\s*50/);
  const chart = result.getByTestId('chart');
  await expect(chart).toHaveAttribute('data-kind', 'bar');
  await expect(chart.locator('svg.chart-wide[role="img"] rect.chart-bar')).toHaveCount(3);
  await expect(chart.locator('svg.chart-wide desc')).toContainText('Sud: 1750; Nord: 1500.75; Est: 50');
  await expect(page.getByTestId('answer').last()).toContainText('3 row(s); first, Sud (1750)');

  // Shares of a whole, asked for: a pie.
  await ask(page, 'share of amount by region');
  const shares = page.getByTestId('result').last().getByTestId('chart');
  await expect(shares).toHaveAttribute('data-kind', 'pie');
  await expect(shares.locator('svg.chart-wide desc')).toContainText('Sud: 1750');

  // A follow-up reuses the dataset; without a model Sou asks, one click away.
  await ask(page, 'and by month?');
  const clarify = page.getByTestId('clarify').last();
  await expect(clarify).toBeVisible();
  await clarify.getByRole('button', { name: 'Sum of amount by month — sales' }).click();
  const byMonth = page.getByTestId('result').last();
  await expect(byMonth.locator('.result-heading')).toHaveText('Sum of amount by month — sales');
  await expect(byMonth.getByTestId('chart')).toHaveAttribute('data-kind', 'line');
  await expect(byMonth.getByTestId('query-result').locator('tbody tr')).toHaveText([/2026-01\s*2000\.5/, /2026-02\s*1300\.25/]);

  // Dates per month or quarter, conditions on a column, a period: still no model.
  await upload(page, testInfo, 'orders.csv', ORDERS);
  await open(page, testInfo, '/');
  await ask(page, 'total amount by month in orders where region is Nord');
  await expect(page.getByTestId('plan').last()).toHaveAttribute('data-confidence', 'high');
  const nord = page.getByTestId('result').last();
  await expect(nord.locator('.result-heading')).toHaveText('Sum of amount by month (day) — orders, region = Nord');
  await expect(nord.getByTestId('query-result').locator('thead th')).toHaveText(['month', 'sum_amount']);
  await expect(nord.getByTestId('query-result').locator('tbody tr')).toHaveText([/2025-12\s*95/, /2026-01\s*120\.5/, /2026-02\s*30\.25/]);
  await expect(nord.getByTestId('chart')).toHaveAttribute('data-kind', 'line');
  await ask(page, 'total units by quarter in orders in 2026');
  const quarters = page.getByTestId('result').last();
  await expect(quarters.locator('.result-heading')).toHaveText('Sum of units by quarter (day) — orders, day: year 2026');
  await expect(quarters.getByTestId('query-result').locator('tbody tr')).toHaveText([/2026-Q1\s*6/, /2026-Q2\s*5/]);
  await snap(page, { path: `test-results/analyst-${testInfo.project.name}.png`, fullPage: true });
});

test.describe('with a model', () => {
  test.use({ baseURL: `http://127.0.0.1:${llmPort}` });

  test('a free-form question about a dataset: the model writes SQL, the sandbox checks it', async ({ page }, testInfo) => {
    await signIn(page, testInfo);
    await upload(page, testInfo, 'ventes.csv', SALES.replace('region,amount,month', 'region,montant,mois'));
    await open(page, testInfo, '/');
    await ask(page, 'Quelle région a le plus progressé entre janvier et février, et pourquoi ?');
    const result = page.getByTestId('result').last();
    await expect(result).toHaveAttribute('data-tool', 'run_sql');
    const rows = result.getByTestId('query-result').locator('tbody tr');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toHaveText(/Sud\s*150/);
    await expect(result.getByTestId('chart')).toHaveAttribute('data-kind', 'bar');
    await expect(page.getByTestId('answer').last()).toContainText('Sud a le plus progressé : +150 entre janvier et février.');

    // The model's first SQL named a table that is not the user's: refused with the reason.
    const state = await (await fetch(`http://127.0.0.1:${mockPort}/__mock/state`)).json();
    const tries = state.sql.slice(-2);
    expect(tries[0].sql).toBe('SELECT * FROM transactions');
    expect(tries[1].refusedWith).toContain('no dataset named "transactions" (yours: ventes)');
    await expect(result.getByTestId('sql')).toHaveText(tries[1].sql, { useInnerText: false });
  });
});
