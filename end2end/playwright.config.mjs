// Sou's browser tests. Every test runs twice: with JavaScript disabled (the plain
// server-rendered form) and hydrated (the WebAssembly app). The server is started by
// Playwright on a fresh data directory, so the demo ledger is the only data.
import { defineConfig } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const port = process.env.SOU_E2E_PORT || '3917';
const root = path.resolve(import.meta.dirname, '..');
if (!process.env.SOU_E2E_DATA_DIR) {
  process.env.SOU_E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'sou-e2e-'));
}
const binary = process.env.SOU_E2E_BIN || path.join(root, 'target', 'debug', 'sou');

export default defineConfig({
  testDir: './tests',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: './test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'fr-FR',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ],
    },
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'js-disabled', use: { javaScriptEnabled: false } },
    { name: 'hydrated', use: { javaScriptEnabled: true } },
  ],
  webServer: {
    command: binary,
    url: `http://127.0.0.1:${port}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      SOU_ADDR: `127.0.0.1:${port}`,
      SOU_DATA_DIR: process.env.SOU_E2E_DATA_DIR,
      SOU_LOG: 'warn',
      // The tests compute "today" in UTC; the server must agree.
      SOU_TIMEZONE: 'UTC',
      LEPTOS_SITE_ROOT: path.join(root, 'target', 'site'),
      LEPTOS_SITE_PKG_DIR: 'pkg',
      LEPTOS_OUTPUT_NAME: 'sou',
    },
  },
});
