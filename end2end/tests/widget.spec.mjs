// Sou's widget on another site, with two origins on loopback: a host page served on
// another port loads /widget.js; its launcher opens Sou's embed page in an iframe, which
// answers within the site's scope (a dataset) and refuses outside it (a ledger
// question), by keyboard with its labels; a host not on the site's list cannot frame
// it; a revoked site stops answering at once. Settings → Widgets works without
// JavaScript (the form and its snippet).
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { hydrated, watchConsole, expectNoConsoleErrors, signIn, open, snap } from './support.mjs';

const souPort = process.env.SOU_E2E_PORT || '3917';
const sou = `http://127.0.0.1:${souPort}`;
const allowedPort = 3941;
const otherPort = 3942;

// A host page: another site, with its own language and nothing of Sou's but the snippet.
function hostPage(site) {
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Boutique</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>La boutique</h1><p>Une page d'un autre site.</p><a href="#">Un lien de la boutique</a>
<script src="${sou}/widget.js" data-site="${site}" async></script></body></html>`;
}

let servers = [];
let siteId = '';
function serve(port) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(hostPage(siteId));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}
test.beforeAll(async () => { servers = [await serve(allowedPort), await serve(otherPort)]; });
test.afterAll(async () => { for (const s of servers) s.close(); });

// A dataset, then a site that answers about it only, for the host on `allowedPort`.
async function makeSite(page, testInfo) {
  await signIn(page, testInfo);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sou-widget-')), 'ventes.csv');
  fs.writeFileSync(file, 'Région;Montant;Mois\nNord;1200,50;2026-01\nSud;800;2026-01\nNord;300,25;2026-02\n');
  await open(page, testInfo, '/datasets');
  await page.getByLabel('Fichier CSV').setInputFiles(file);
  await page.getByRole('button', { name: 'Créer la table' }).click();
  await expect(page.getByTestId('dataset-added')).toHaveText('Table « ventes » créée.');

  await open(page, testInfo, '/settings');
  await page.getByTestId('widgets-link').click();
  await expect(page).toHaveURL(/\/settings\/widgets$/);
  await expect(page.getByTestId('no-sites')).toBeVisible();
  // A refused form keeps what was typed and says why.
  await page.getByLabel('Nom', { exact: true }).fill('Ventes de la boutique');
  await page.getByLabel('Origines autorisées (une par ligne)').fill('boutique.example');
  await page.getByLabel('ventes').check();
  await page.getByRole('button', { name: 'Créer le site' }).click();
  await expect(page.getByTestId('widget-error')).toContainText('« boutique.example » n\'est pas une origine');
  await expect(page.getByLabel('Nom', { exact: true })).toHaveValue('Ventes de la boutique');
  await expect(page.getByLabel('ventes')).toBeChecked();
  await page.getByLabel('Origines autorisées (une par ligne)').fill(`http://127.0.0.1:${allowedPort}`);
  await page.getByLabel("Message d'accueil").fill('Bonjour ! Questions sur nos ventes.');
  await page.getByRole('button', { name: 'Créer le site' }).click();
  const snippet = await page.getByTestId('new-snippet').inputValue();
  expect(snippet).toMatch(new RegExp(`^<script src="${sou}/widget.js" data-site="[A-Za-z0-9_-]{22}" async></script>$`));
  siteId = snippet.match(/data-site="([^"]+)"/)[1];
  await expect(page.getByTestId('site')).toHaveCount(1);
  await expect(page.getByTestId('site')).toContainText('« ventes »');
  return siteId;
}

test.describe('the widget', () => {
  test.beforeEach(async ({ page }, testInfo) => watchConsole(page, testInfo));
  test.afterEach(async ({}, testInfo) => expectNoConsoleErrors(testInfo));

  test('Settings → Widgets makes a site and gives its snippet', async ({ page }, testInfo) => {
    await makeSite(page, testInfo);
    await snap(page, { path: testInfo.outputPath('widgets-settings.png'), fullPage: true });
  });

  test('on another site: opens by keyboard, answers in its scope, refuses outside it, closes', async ({ page, context }, testInfo) => {
    test.skip(!hydrated(testInfo), 'the widget is a script on the host page');
    await makeSite(page, testInfo);
    // The host's console is its own: a frame it may not show logs a refusal there.
    const host = await context.newPage();
    const hostErrors = [];
    host.on('pageerror', (e) => hostErrors.push(String(e)));
    await host.setViewportSize({ width: 390, height: 760 });
    await host.goto(`http://127.0.0.1:${allowedPort}/`);
    const launcher = host.getByRole('button', { name: 'Ouvrir l’assistant Sou' });
    await expect(launcher).toHaveAttribute('aria-expanded', 'false');
    // By keyboard: the shop's link, then the launcher.
    await host.getByRole('link', { name: 'Un lien de la boutique' }).focus();
    await host.keyboard.press('Tab');
    await expect(launcher).toBeFocused();
    await host.keyboard.press('Enter');
    const closeLauncher = host.getByRole('button', { name: 'Fermer l’assistant Sou' });
    await expect(closeLauncher).toHaveAttribute('aria-expanded', 'true');
    const iframe = host.locator('iframe[title="Assistant Sou"]');
    await expect(iframe).toBeVisible();
    const widget = host.frameLocator('iframe[title="Assistant Sou"]');
    await expect(widget.locator('body[data-hydrated]')).toHaveCount(1);
    await expect(widget.getByTestId('greeting')).toHaveText('Bonjour ! Questions sur nos ventes.');
    const box = widget.getByLabel('Votre question');
    await expect(box).toBeFocused();

    // The parser runs in the widget as in the app: the badge, then the answer.
    await box.pressSequentially('Total montant par région');
    await expect(widget.getByTestId('draft').locator('.plan')).toBeVisible();
    await box.press('Enter');
    const answer = widget.getByTestId('turn').last();
    await expect(answer.locator('table')).toContainText('Nord');
    await expect(answer.locator('table')).toContainText(/1\s?500,75/);
    await expect(answer.getByTestId('share-form')).toHaveCount(0);
    // The frame grew with the answer.
    expect((await iframe.boundingBox()).height).toBeGreaterThan(300);

    // Outside the site's scope: refused, with what it does answer; nothing ran.
    await box.fill("combien j'ai dépensé en janvier 2026 ?");
    await box.press('Enter');
    const refused = widget.getByTestId('turn').last();
    await expect(refused.locator('[data-code=outside_scope]')).toHaveText(
      'Cet assistant ne répond pas à cette question ici. Il répond sur : « ventes ».');
    await expect(refused.locator('table')).toHaveCount(0);
    await snap(host, { path: testInfo.outputPath('widget-390.png') });

    // Escape closes it, and the focus goes back to the launcher.
    await box.press('Escape');
    await expect(iframe).toBeHidden();
    await expect(launcher).toBeFocused();
    await expect(launcher).toHaveAttribute('aria-expanded', 'false');
    // Opened again: the conversation is still there.
    await launcher.press('Enter');
    await expect(widget.getByTestId('turn')).toHaveCount(2);
    // The close button inside the frame says what it does.
    await widget.getByRole('button', { name: "Fermer l'assistant" }).click();
    await expect(iframe).toBeHidden();

    // The owner's own history has none of the visitor's questions.
    await open(page, testInfo, '/');
    await expect(page.locator('nav.history')).not.toContainText('Total montant par région');

    // Revoked: the open widget stops answering, and a new visit finds nothing.
    await launcher.press('Enter');
    await open(page, testInfo, '/settings/widgets');
    await page.getByTestId('revoke').click();
    await expect(page.getByTestId('revoked')).toBeVisible();
    await box.fill('Total montant par région');
    await box.press('Enter');
    await expect(widget.getByTestId('turn').last().locator('[role=alert]'))
      .toContainText("Cet assistant n'est plus disponible sur ce site.");
    await host.reload();
    await host.getByRole('button', { name: 'Ouvrir l’assistant Sou' }).click();
    await expect(host.locator('iframe')).toBeVisible();
    await host.waitForTimeout(500);
    const frame = host.frames().find((f) => f !== host.mainFrame());
    expect(await frame.locator('#message').count(), 'nothing of the widget is left').toBe(0);
    expect(hostErrors).toEqual([]);
  });

  test('a host not on the site\'s list cannot frame it', async ({ page, context }, testInfo) => {
    test.skip(!hydrated(testInfo), 'the widget is a script on the host page');
    await makeSite(page, testInfo);
    const host = await context.newPage();
    const refused = [];
    host.on('console', (m) => { if (/frame-ancestors/.test(m.text())) refused.push(m.text()); });
    await host.goto(`http://127.0.0.1:${otherPort}/`);
    await host.getByRole('button', { name: 'Ouvrir l’assistant Sou' }).click();
    await expect(host.locator('iframe')).toBeVisible();
    await expect.poll(() => refused.length, { message: 'Chromium refused the frame' }).toBeGreaterThan(0);
    const frame = host.frames().find((f) => f !== host.mainFrame());
    expect(await frame.locator('#message').count()).toBe(0);
  });
});
