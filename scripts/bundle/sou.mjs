// A Sou of its own for the measuring scripts: the release binary on a free port and a
// fresh data directory, raw HTTP requests to it, and a demo account's session.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

export async function startSou(binary, siteRoot) {
  const port = 3960 + Math.floor(Math.random() * 30);
  const base = `http://127.0.0.1:${port}`;
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'sou-measure-'));
  const child = spawn(binary, [], {
    env: {
      ...process.env, SOU_ADDR: `127.0.0.1:${port}`, SOU_DATA_DIR: data, SOU_LOG: 'warn', SOU_TIMEZONE: 'UTC',
      LEPTOS_SITE_ROOT: siteRoot, LEPTOS_SITE_PKG_DIR: 'pkg', LEPTOS_OUTPUT_NAME: 'sou',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });

  // One request; the body's bytes as they came over the wire (never decompressed).
  const request = (method, url, headers = {}, body = null) => new Promise((resolve, reject) => {
    const req = http.request(base + url, { method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });

  const stop = () => {
    child.kill('SIGINT');
    fs.rmSync(data, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    try {
      if ((await request('GET', '/healthz')).status === 200) break;
    } catch {}
    if (i === 600) {
      stop();
      throw new Error('Sou did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  // "Try the demo": a new account with the demo ledger; its session cookie.
  const demoSession = async () => {
    const demo = await request('POST', '/auth/demo', { origin: base, 'content-type': 'application/x-www-form-urlencoded' });
    const cookie = (demo.headers['set-cookie'] || []).map((c) => c.split(';')[0]).join('; ');
    if (!cookie) throw new Error(`no session from /auth/demo (HTTP ${demo.status})`);
    return cookie;
  };
  return { base, request, demoSession, stop };
}
