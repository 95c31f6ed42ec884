// Lighthouse on Sou's pages, as scripts/lighthouse.sh runs it:
//   node scripts/bundle/lighthouse.mjs <sou binary> <site root> <lighthouse prefix>
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSou } from './sou.mjs';

const [binary, siteRoot, prefix] = process.argv.slice(2);

// Questions of the demo ledger whose answers draw every kind of result.
const QUESTIONS = [
  'Combien j\'ai dépensé en courses en janvier 2026 ?',
  'Top 5 des commerçants en 2025',
  'Mes dépenses par mois en 2025',
  'Compare mes dépenses de restaurants en 2024 et 2025',
  'Les 10 plus grosses dépenses de 2025',
  'Quel est mon solde ?',
  'Où en sont mes budgets ce mois-ci ?',
  'Mes abonnements',
  'Mes revenus et dépenses en 2025',
];

function lighthouse(url, cookie) {
  const out = path.join(os.tmpdir(), `sou-lh-${process.pid}.json`);
  const args = [
    path.join(prefix, 'node_modules', 'lighthouse', 'cli', 'index.js'), url, '--quiet',
    '--chrome-flags=--headless --no-sandbox --disable-gpu',
    '--only-categories=performance,accessibility', '--output=json', `--output-path=${out}`,
  ];
  if (cookie) args.push(`--extra-headers=${JSON.stringify({ Cookie: cookie })}`);
  execFileSync(process.execPath, args, { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH || '/usr/bin/chromium' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const r = JSON.parse(fs.readFileSync(out, 'utf8'));
  fs.rmSync(out);
  const a = r.audits;
  return {
    performance: Math.round(r.categories.performance.score * 100),
    accessibility: Math.round(r.categories.accessibility.score * 100),
    kib: a['total-byte-weight'].numericValue / 1024,
    tti: a.interactive.numericValue / 1000,
    tbt: a['total-blocking-time'].numericValue,
    others: ['first-contentful-paint', 'largest-contentful-paint', 'speed-index', 'cumulative-layout-shift']
      .map((id) => `${id.split('-').map((w) => w[0]).join('').toUpperCase()} ${a[id].displayValue}`).join(', '),
    failing: Object.values(a).filter((x) => x.score === 0 && x.scoreDisplayMode === 'binary')
      .map((x) => `${x.id} (${(x.details?.items || []).slice(0, 4).map((i) => i.node?.snippet || '').join(' ')})`),
  };
}

async function main() {
  const { base, request, demoSession, stop } = await startSou(binary, siteRoot);
  try {
    const cookie = await demoSession();
    let conversation = null;
    for (const message of QUESTIONS) {
      const body = JSON.stringify(conversation ? { message, conversation_id: conversation } : { message });
      const r = await request('POST', '/api/v1/chat', { origin: base, cookie, 'content-type': 'application/json' }, body);
      const id = r.body.toString().match(/"conversation_id":"([0-9a-f]+)"/);
      if (r.status !== 200 || !id) throw new Error(`${message}: HTTP ${r.status}`);
      conversation = id[1];
    }
    console.log('page                        performance  accessibility  total KiB  TTI (s)  TBT (ms)');
    for (const [name, url, withCookie] of [
      ['sign-in', '/login', false], ['chat', '/', true], ['9 answers', `/c/${conversation}`, true],
    ]) {
      const m = lighthouse(base + url, withCookie ? cookie : null);
      console.log(`${name.padEnd(27)} ${String(m.performance).padStart(11)}  ${String(m.accessibility).padStart(13)}  ` +
        `${m.kib.toFixed(1).padStart(9)}  ${m.tti.toFixed(2).padStart(7)}  ${String(Math.round(m.tbt)).padStart(8)}`);
      console.log(`  ${m.others}`);
      if (m.failing.length) console.log(`  failing audits: ${m.failing.join(', ')}`);
    }
  } finally {
    stop();
  }
}

main().catch((e) => {
  console.error(`lighthouse: ${e.message}`);
  process.exit(2);
});
