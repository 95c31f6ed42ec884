// Sou's browser tests. Every test runs twice: with JavaScript disabled (the plain
// server-rendered form) and hydrated (the WebAssembly app). The servers are started by
// Playwright on fresh data directories, so the demo ledger is the only data: one Sou
// without any model (chat.spec.mjs), and one whose provider is a local mock speaking
// the OpenAI wire format (model.spec.mjs).
import { defineConfig } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// The second Sou (with a model) and the mock provider it talks to: see model.spec.mjs.
import { llmPort, mockPort, canary, mistralKey } from './tests/model-env.mjs';

const port = process.env.SOU_E2E_PORT || '3917';
const root = path.resolve(import.meta.dirname, '..');
if (!process.env.SOU_E2E_DATA_DIR) {
  process.env.SOU_E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'sou-e2e-'));
}
if (!process.env.SOU_E2E_LLM_DATA_DIR) {
  process.env.SOU_E2E_LLM_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'sou-e2e-llm-'));
}
const binary = process.env.SOU_E2E_BIN || path.join(root, 'target', 'debug', 'sou');
const llmLog = path.join(process.env.SOU_E2E_LLM_DATA_DIR, 'sou.log');
const site = {
  // The tests compute "today" in UTC; the servers must agree.
  SOU_TIMEZONE: 'UTC',
  // Every test starts its own demo from 127.0.0.1: far more than a visitor may.
  SOU_DEMO_PER_ADDRESS: '1000',
  LEPTOS_SITE_ROOT: path.join(root, 'target', 'site'),
  LEPTOS_SITE_PKG_DIR: 'pkg',
  LEPTOS_OUTPUT_NAME: 'sou',
};

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
  webServer: [
    {
      // Sou without any model: the parser and the rules only.
      command: binary,
      url: `http://127.0.0.1:${port}/healthz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: { ...site, SOU_ADDR: `127.0.0.1:${port}`, SOU_DATA_DIR: process.env.SOU_E2E_DATA_DIR, SOU_LOG: 'warn' },
    },
    {
      command: `node ${JSON.stringify(path.join(import.meta.dirname, 'mock-provider.mjs'))}`,
      url: `http://127.0.0.1:${mockPort}/__mock/health`,
      timeout: 30_000,
      reuseExistingServer: false,
      env: { SOU_MOCK_PORT: mockPort, SOU_MOCK_KEYS: [canary, mistralKey].join(',') },
    },
    {
      // Sou with the mock as its OpenAI-format provider (key from the environment) and
      // as Mistral's endpoint (no key: the settings test saves one). Its log goes to a
      // file the tests read.
      command: `exec ${JSON.stringify(binary)} >>${JSON.stringify(llmLog)} 2>&1`,
      url: `http://127.0.0.1:${llmPort}/healthz`,
      timeout: 120_000,
      reuseExistingServer: false,
      env: {
        ...site,
        SOU_ADDR: `127.0.0.1:${llmPort}`,
        SOU_DATA_DIR: process.env.SOU_E2E_LLM_DATA_DIR,
        SOU_LOG: 'debug,hyper=info,h2=info,rustls=info,sqlx=info',
        SOU_LLM__PROVIDER: 'openai',
        SOU_LLM__PROVIDERS__OPENAI__BASE_URL: `http://127.0.0.1:${mockPort}/v1`,
        SOU_LLM__PROVIDERS__MISTRAL__BASE_URL: `http://127.0.0.1:${mockPort}/v1`,
        OPENAI_API_KEY: canary,
      },
    },
  ],
});
