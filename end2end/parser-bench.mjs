// Parse time per corpus message in headless Debian Chromium: loads the measuring crate
// `agent/web-bench` (built by scripts/measure-parser.sh into target/parser-web-bench)
// from a local HTTP server and prints its figures. Not a test; asserts nothing.
//
//   node end2end/parser-bench.mjs [--min-batch-ms 2] [--batches 5] [--no-isolation]
//
// The page is served cross-origin isolated (COOP + COEP), which gives performance.now()
// a 5 µs step instead of 100 µs; --no-isolation measures with the coarse clock.
import { chromium } from '@playwright/test';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const pkgDir = path.join(root, 'target', 'parser-web-bench');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? Number(args[i + 1]) : fallback;
};
const minBatchMs = option('--min-batch-ms', 2);
const batches = option('--batches', 5);
const isolated = !args.includes('--no-isolation');

if (!fs.existsSync(path.join(pkgDir, 'parser_web_bench.js'))) {
  console.error(`${pkgDir}/parser_web_bench.js is missing: run scripts/measure-parser.sh`);
  process.exit(1);
}

const files = {
  '/corpus.txt': [path.join(root, 'agent', 'tests', 'corpus.txt'), 'text/plain; charset=utf-8'],
  '/vocabulary.json': [path.join(root, 'backend', 'demo', 'vocabulary.json'), 'application/json'],
  '/pkg/parser_web_bench.js': [path.join(pkgDir, 'parser_web_bench.js'), 'text/javascript'],
  '/pkg/parser_web_bench_bg.wasm': [path.join(pkgDir, 'parser_web_bench_bg.wasm'), 'application/wasm'],
};
const page = '<!doctype html><meta charset="utf-8"><title>parser bench</title><p>parser bench</p>';

const server = http.createServer((req, res) => {
  const headers = isolated
    ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' }
    : {};
  const url = new URL(req.url, 'http://localhost').pathname;
  if (url === '/') {
    res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' });
    return res.end(page);
  }
  const file = files[url];
  if (!file) {
    res.writeHead(404, headers);
    return res.end();
  }
  res.writeHead(200, { ...headers, 'Content-Type': file[1], 'Cache-Control': 'no-store' });
  fs.createReadStream(file[0]).pipe(res);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
});
let status = 0;
try {
  const tab = await browser.newPage();
  tab.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await tab.goto(`${base}/`);
  const result = await tab.evaluate(
    async ({ minBatchMs, batches }) => {
      const bench = await import('/pkg/parser_web_bench.js');
      await bench.default({ module_or_path: '/pkg/parser_web_bench_bg.wasm' });
      const [corpus, vocabulary] = await Promise.all(
        ['/corpus.txt', '/vocabulary.json'].map((u) => fetch(u).then((r) => r.text())),
      );
      return {
        isolated: globalThis.crossOriginIsolated,
        userAgent: navigator.userAgent,
        report: JSON.parse(bench.run(corpus, vocabulary, minBatchMs, batches)),
      };
    },
    { minBatchMs, batches },
  );
  console.log(`Chromium ${browser.version()}, headless, cross-origin isolated: ${result.isolated}`);
  process.stdout.write(result.report.text);
  fs.writeFileSync(path.join(pkgDir, 'report.json'), JSON.stringify(result, null, 1));
  console.log(`  per-message figures: ${path.relative(root, path.join(pkgDir, 'report.json'))}`);
} catch (e) {
  console.error(`parser bench failed: ${e.message}`);
  status = 1;
} finally {
  await browser.close();
  server.close();
}
process.exit(status);
