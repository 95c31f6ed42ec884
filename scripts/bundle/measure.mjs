// What a browser downloads to open Sou's pages (at once, or once idle), as the server
// sends it, beside the stock Leptos app (a counter) built with the same profile. Run by scripts/bundle.sh, which builds
// both; prints the figures and exits 1 when the chat page is over its budget.
//
//   node scripts/bundle/measure.mjs <sou binary> <site root> <counter pkg dir>
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { startSou } from './sou.mjs';

// The chat page's first load (its JS and WASM, compressed as served) may weigh this
// much, and this many times the counter's (the same files, compressed the same way).
const BUDGET_BYTES = 300 * 1000;
const BUDGET_RATIO = 2.5;

const [binary, siteRoot, counterDir] = process.argv.slice(2);

// What a page makes the browser fetch: its stylesheet, and on a page with an island the
// JS module and the WASM, nothing else.
function assetsOf(html) {
  const links = [...html.matchAll(/<link\b[^>]*>/g)].map((m) => m[0]);
  const href = (tag) => (tag.match(/href="([^"]+)"/) || [])[1];
  return {
    css: links.filter((l) => /rel="stylesheet"/.test(l)).map(href),
    // Preloaded, or named by the islands' loader (app/src/fields.rs), which fetches
    // them once the page is idle.
    js: [...links.filter((l) => /rel="modulepreload"/.test(l)).map(href),
      ...[...html.matchAll(/import\("([^"]+\.js)"\)/g)].map((m) => m[1])],
    wasm: [...links.filter((l) => /rel="preload"/.test(l) && /\.wasm"/.test(l)).map(href),
      ...[...html.matchAll(/module_or_path: "([^"]+\.wasm)"/g)].map((m) => m[1])],
    // Scripts that load code: a module, or a file. (Leptos also writes inline data
    // scripts, which download nothing.)
    scripts: (html.match(/<script\b[^>]*\b(type="module"|src=)/g) || []).length,
  };
}

const kb = (n) => `${(n / 1000).toFixed(1)} KB`;

async function main() {
  const { request, demoSession, stop } = await startSou(binary, siteRoot);
  let failed = false;
  try {
    const cookie = await demoSession();
    const accept = { 'accept-encoding': 'br, gzip', cookie };

    // Every file of a page, as served to a browser that takes brotli.
    const served = {};
    const fetchFile = async (url) => {
      if (!served[url]) {
        const r = await request('GET', url, accept);
        if (r.status !== 200) throw new Error(`${url}: HTTP ${r.status}`);
        served[url] = r;
      }
      return served[url];
    };

    console.log('page                 HTML (as served)  scripts  JS+WASM (as served)');
    const pages = ['/login', '/', '/settings', '/import', '/rules', '/datasets', '/settings/reports'];
    let chat = null;
    for (const url of pages) {
      const page = await request('GET', url, url === '/login' ? { 'accept-encoding': 'br, gzip' } : accept);
      const html = (page.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(page.body)
        : page.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(page.body) : page.body).toString();
      const a = assetsOf(html);
      let code = 0;
      for (const f of [...a.js, ...a.wasm]) code += (await fetchFile(f)).body.length;
      for (const f of a.css) await fetchFile(f);
      console.log(`${url.padEnd(20)} ${kb(page.body.length).padStart(16)}  ${String(a.scripts).padStart(7)}  ${kb(code).padStart(19)}`);
      if (url === '/') chat = { ...a, code };
      if (url !== '/' && (a.wasm.length || a.js.length || a.scripts)) {
        console.log(`FAIL: ${url} loads browser code; only the chat pages may`);
        failed = true;
      }
    }
    if (!chat.js.length || !chat.wasm.length) throw new Error('the chat page loads no WASM: nothing measured');

    // The chat page's files in detail, and how they are served.
    console.log('\nthe chat page\'s files (as served; raw; gzip and brotli as built):');
    for (const url of [...chat.js, ...chat.wasm, ...chat.css]) {
      const r = served[url];
      const file = path.join(siteRoot, url);
      const raw = fs.statSync(file).size;
      const gz = fs.existsSync(file + '.gz') ? fs.statSync(file + '.gz').size : NaN;
      const br = fs.existsSync(file + '.br') ? fs.statSync(file + '.br').size : NaN;
      console.log(`  ${url}: ${r.body.length} B ${r.headers['content-encoding'] || 'identity'}; raw ${raw}, gzip ${gz}, br ${br}`);
      console.log(`    cache-control: ${r.headers['cache-control']}; vary: ${r.headers.vary}`);
    }
    // A repeat visit: nothing to download again (a hashed name, kept for good).
    for (const url of [...chat.js, ...chat.wasm]) {
      if (!/immutable/.test(served[url].headers['cache-control'] || '')) {
        console.log(`FAIL: ${url} is not cached for good`);
        failed = true;
      }
    }

    // The counter, compressed as cargo-leptos compresses Sou's files (brotli at its
    // default quality, 11; gzip at level 9 beside it).
    const counter = fs.readdirSync(counterDir).filter((f) => /\.(js|wasm)$/.test(f));
    let counterBr = 0, counterGz = 0, counterRaw = 0;
    for (const f of counter) {
      const bytes = fs.readFileSync(path.join(counterDir, f));
      counterRaw += bytes.length;
      counterBr += zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
      counterGz += zlib.gzipSync(bytes, { level: 9 }).length;
    }
    let souBrBuilt = 0, souGzBuilt = 0, souRaw = 0;
    for (const url of [...chat.js, ...chat.wasm]) {
      const bytes = fs.readFileSync(path.join(siteRoot, url));
      souRaw += bytes.length;
      souBrBuilt += zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
      souGzBuilt += zlib.gzipSync(bytes, { level: 9 }).length;
    }
    const ratio = souBrBuilt / counterBr;
    console.log('\nfirst load of the chat page (JS + WASM), beside a stock Leptos counter (same profile):');
    console.log(`  Sou:     raw ${kb(souRaw)}, gzip -9 ${kb(souGzBuilt)}, brotli 11 ${kb(souBrBuilt)}; as served ${kb(chat.code)}`);
    console.log(`  counter: raw ${kb(counterRaw)}, gzip -9 ${kb(counterGz)}, brotli 11 ${kb(counterBr)}`);
    console.log(`  ratio (brotli): ${ratio.toFixed(2)}× (gzip: ${(souGzBuilt / counterGz).toFixed(2)}×)`);
    console.log(`budget: ${kb(chat.code)} as served ≤ ${kb(BUDGET_BYTES)}: ${chat.code <= BUDGET_BYTES ? 'ok' : 'OVER'};` +
      ` ${ratio.toFixed(2)}× ≤ ${BUDGET_RATIO}×: ${ratio <= BUDGET_RATIO ? 'ok' : 'OVER'}`);
    failed ||= chat.code > BUDGET_BYTES || ratio > BUDGET_RATIO;
  } finally {
    stop();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(`bundle: ${e.message}`);
  process.exit(2);
});
