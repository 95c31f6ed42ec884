// Sou under load, on loopback only and bounded in time: the release binary on a fresh
// data directory (or PostgreSQL with `--postgres URL`), the mock model provider of the
// browser tests, and clients made here. It prints
//   1. requests/s, p50, p99 and errors with 50 and then 200 clients, each sending the
//      mix a chat page makes: a plan as the user types (`/api/v1/plan`), a question the
//      parser answers (`/api/v1/chat`), a static file;
//   2. a static file and a parser answer on one keep-alive connection and on a fresh
//      connection each;
//   3. the server's resident memory before and after 1,000 streamed model answers (all
//      at once; `--streams-at-once N`), and the difference per answer.
// `node scripts/load.mjs [--seconds 20] [--bin target/release/sou] [--postgres URL (Sou's
// role; the owner's in SOU_DATABASE_OWNER_URL)]
// [--only plan|chat|static] [--streams-at-once 1000] [--settle 2] [--rounds 1]` (`--only`: phase 1
// sends that request alone; `--settle`: seconds before memory is read again).
// Build first: `cargo leptos build --release`. Asserts nothing; exits 1 if a phase
// could not run at all.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const seconds = Number(arg('seconds', '20'));
const binary = path.resolve(arg('bin', path.join(root, 'target', 'release', 'sou')));
const postgres = arg('postgres', '');
const port = 3990;
const mockPort = 3991;
const host = '127.0.0.1';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(url, limit = 60_000) {
  const start = Date.now();
  while (Date.now() - start < limit) {
    try {
      const r = await request({ path: url, port: new URL(url).port || port, agent: false }, null, false);
      if (r.status === 200) return;
    } catch { /* not yet */ }
    await sleep(200);
  }
  throw new Error(`${url} did not answer`);
}

// One HTTP request; resolves with status, body (unless `drain`) and time in ms.
function request({ method = 'GET', path: p, headers = {}, agent, port: to = port }, body, keep = true) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const url = p.startsWith('http') ? new URL(p) : null;
    const req = http.request(
      { host, port: url ? url.port : to, path: url ? url.pathname : p, method, headers, agent },
      (res) => {
        const chunks = [];
        res.on('data', (c) => { if (keep) chunks.push(c); });
        res.on('end', () => resolve({
          status: res.statusCode,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

function quantile(values, q) {
  if (values.length === 0) return NaN;
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.round((v.length - 1) * q))];
}

function rss(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

async function demo(agent) {
  const r = await request({ method: 'POST', path: '/auth/demo', agent,
    headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' } }, '');
  const cookie = [].concat(r.headers['set-cookie'] || []).find((c) => c.startsWith('sou_session='));
  if (!cookie) throw new Error(`no demo session (${r.status})`);
  return cookie.split(';')[0];
}

const json = (cookie) => ({ cookie, 'content-type': 'application/json' });
const questions = [
  'combien j\'ai dépensé en courses en octobre 2026',
  'top 5 merchants in 2025',
  'dépenses par mois en 2025',
  'quel est mon solde ?',
];

// The static file the chat page loads first.
let staticPath = '/pkg/sou.css';

async function one(kind, cookie, agent, i) {
  if (kind === 'plan') {
    const body = JSON.stringify({ message: questions[i % questions.length] });
    return request({ method: 'POST', path: '/api/v1/plan', headers: json(cookie), agent }, body, false);
  }
  if (kind === 'chat') {
    const body = JSON.stringify({ message: questions[i % questions.length] });
    return request({ method: 'POST', path: '/api/v1/chat', headers: json(cookie), agent }, body, false);
  }
  return request({ path: staticPath, agent }, null, false);
}

// One keep-alive connection that sends a request, reads its whole response, and sends
// the next: what a browser's connection does, at a fraction of `http.request`'s cost per
// request, so that on a machine the client shares with the server most of the CPU goes
// to the server being measured. Reads `Content-Length` and chunked bodies.
class Connection {
  constructor() {
    this.socket = net.connect({ host, port });
    this.socket.setNoDelay(true);
    this.buffer = Buffer.alloc(0);
    this.waiting = null;
    this.socket.on('data', (chunk) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      this.parse();
    });
    const fail = (e) => {
      const w = this.waiting;
      this.waiting = null;
      if (w) w.reject(e || new Error('connection closed'));
      this.closed = true;
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail());
  }

  // Resolves with { status, ms } once the whole response is read.
  send(method, p, headers, body) {
    if (this.closed) return Promise.reject(new Error('connection closed'));
    const payload = body ? Buffer.from(body) : null;
    let head = `${method} ${p} HTTP/1.1\r\nhost: ${host}:${port}\r\n`;
    for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
    if (payload) head += `content-length: ${payload.length}\r\n`;
    head += '\r\n';
    return new Promise((resolve, reject) => {
      // A response that never comes is an error, not a hung phase.
      const timer = setTimeout(() => {
        if (process.env.SOU_LOAD_DEBUG) console.error('no response', method, p, this.buffer.toString('latin1').slice(0, 300));
        this.closed = true;
        this.socket.destroy();
      }, 30_000);
      const done = (f) => (v) => { clearTimeout(timer); f(v); };
      this.waiting = { resolve: done(resolve), reject: done(reject), started: process.hrtime.bigint() };
      this.socket.write(payload ? Buffer.concat([Buffer.from(head), payload]) : head);
    });
  }

  parse() {
    const w = this.waiting;
    if (!w) return;
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let at = end + 4;
    if (length) {
      if (this.buffer.length < at + Number(length[1])) return;
      at += Number(length[1]);
    } else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      for (;;) {
        const line = this.buffer.indexOf('\r\n', at);
        if (line < 0) return;
        const size = parseInt(this.buffer.subarray(at, line).toString('latin1'), 16);
        if (this.buffer.length < line + 2 + size + 2) return;
        at = line + 2 + size + 2;
        if (size === 0) break;
      }
    }
    this.buffer = this.buffer.subarray(at);
    this.waiting = null;
    w.resolve({ status, ms: Number(process.hrtime.bigint() - w.started) / 1e6 });
  }

  close() {
    this.socket.destroy();
  }
}

function sendOn(connection, kind, cookie, i) {
  if (kind === 'static') return connection.send('GET', staticPath, {});
  const body = JSON.stringify({ message: questions[i % questions.length] });
  const to = kind === 'plan' ? '/api/v1/plan' : '/api/v1/chat';
  return connection.send('POST', to, json(cookie), body);
}

// `clients` loops for `seconds`, each on its own keep-alive connection: each sends
// plan, plan, plan, chat, static, in turn (or `--only` one of them).
async function phase(clients, cookies) {
  const times = { plan: [], chat: [], static: [] };
  let errors = 0;
  let done = 0;
  const stop = Date.now() + seconds * 1000;
  const mix = arg('only', '') ? [arg('only', '')] : ['plan', 'plan', 'plan', 'chat', 'static'];
  await Promise.all(Array.from({ length: clients }, async (_, c) => {
    let connection = new Connection();
    let i = c;
    while (Date.now() < stop) {
      const kind = mix[i % mix.length];
      try {
        const r = await sendOn(connection, kind, cookies[c % cookies.length], i);
        if (r.status >= 400) errors += 1; else times[kind].push(r.ms);
      } catch {
        errors += 1;
        connection.close();
        connection = new Connection();
      }
      done += 1;
      i += 1;
    }
    connection.close();
  }));
  return { rps: done / seconds, errors, times };
}

const row = (cells, widths) => cells.map((c, i) => String(c).padStart(widths[i])).join(' ');
const ms = (v) => `${v.toFixed(1)} ms`;

async function main() {
  if (!fs.existsSync(binary)) {
    console.error(`no ${binary}: build it first (cargo leptos build --release)`);
    process.exit(1);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sou-load-'));
  const mock = spawn('node', [path.join(root, 'end2end', 'mock-provider.mjs')], {
    env: { ...process.env, SOU_MOCK_PORT: String(mockPort), SOU_MOCK_KEYS: 'sk-load' },
    stdio: 'ignore',
  });
  const env = {
    PATH: process.env.PATH,
    SOU_CONFIG: path.join(dir, 'none.toml'),
    SOU_ADDR: `${host}:${port}`,
    SOU_DATA_DIR: dir,
    SOU_LOG: process.env.SOU_LOAD_DEBUG ? 'info' : 'warn',
    SOU_TIMEZONE: 'UTC',
    SOU_DEMO_PER_ADDRESS: '100000',
    LEPTOS_SITE_ROOT: path.join(root, 'target', 'site'),
    LEPTOS_SITE_PKG_DIR: 'pkg',
    LEPTOS_OUTPUT_NAME: 'sou',
    SOU_LLM__PROVIDER: 'openai',
    SOU_LLM__PROVIDERS__OPENAI__BASE_URL: `http://${host}:${mockPort}/v1`,
    OPENAI_API_KEY: 'sk-load',
  };
  if (postgres) env.DATABASE_URL = postgres;
  // Sou's role owns nothing: the tables' owner runs the migrations.
  if (postgres && process.env.SOU_DATABASE_OWNER_URL) env.SOU_DATABASE_OWNER_URL = process.env.SOU_DATABASE_OWNER_URL;
  // The allocator's settings, when measuring them.
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith('MALLOC_')) env[k] = v;
  const sou = spawn(binary, [], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const stopAll = () => { sou.kill('SIGKILL'); mock.kill('SIGKILL'); };
  process.on('exit', stopAll);
  try {
    await until(`http://${host}:${mockPort}/__mock/health`);
    await until(`http://${host}:${port}/healthz`);
    const setup = new http.Agent({ keepAlive: true });
    const css = fs.readdirSync(path.join(root, 'target', 'site', 'pkg')).find((f) => f.endsWith('.css'));
    if (css) staticPath = `/pkg/${css}`;
    const cookies = [];
    for (let i = 0; i < 20; i += 1) cookies.push(await demo(setup));
    console.log(`Sou ${path.relative(root, binary)} on ${postgres ? 'PostgreSQL' : 'SQLite'}, ${os.cpus().length} cores, ${seconds} s a phase\n`);

    // 1. Throughput and latency.
    const widths = [8, 9, 7, 12, 12, 12, 12, 12, 12];
    console.log(row(['clients', 'req/s', 'errors', 'plan p50', 'plan p99', 'chat p50', 'chat p99', 'static p50', 'static p99'], widths));
    for (const clients of [50, 200]) {
      const r = await phase(clients, cookies);
      const t = r.times;
      console.log(row([clients, r.rps.toFixed(0), r.errors,
        ms(quantile(t.plan, 0.5)), ms(quantile(t.plan, 0.99)),
        ms(quantile(t.chat, 0.5)), ms(quantile(t.chat, 0.99)),
        ms(quantile(t.static, 0.5)), ms(quantile(t.static, 0.99))], widths));
    }

    // 2. One keep-alive connection against a fresh connection each time.
    console.log('\nsequential, 200 each         keep-alive p50    fresh p50');
    for (const kind of ['static', 'chat']) {
      const keep = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const [kept, fresh] = [[], []];
      for (let i = 0; i < 200; i += 1) {
        kept.push((await one(kind, cookies[0], keep, i)).ms);
        fresh.push((await one(kind, cookies[0], false, i)).ms);
      }
      keep.destroy();
      console.log(`${kind.padEnd(28)} ${ms(quantile(kept, 0.5)).padStart(10)} ${ms(quantile(fresh, 0.5)).padStart(12)}`);
    }

    // 3. Memory per streamed model answer.
    const atOnce = Number(arg('streams-at-once', '1000'));
    // Warm: the first answers allocate what every later one reuses.
    const warm = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 50; i += 1) {
      await request({ method: 'POST', path: '/api/v1/chat', headers: json(cookies[i % cookies.length]), agent: warm },
        JSON.stringify({ message: i % 2 ? 'Bonjour, qui es-tu ?' : 'Should I cancel my Netflix subscription?' }), false);
    }
    warm.destroy();
    await sleep(1000);
    const mb = (b) => `${(b / 1024 / 1024).toFixed(1)} MB`;
    const start = rss(sou.pid);
    // Rounds after the first show whether memory keeps growing (a leak) or is reused.
    for (let round = 1; round <= Number(arg('rounds', '1')); round += 1) {
      const before = rss(sou.pid);
      let next = 0;
      let failed = 0;
      let modelled = 0;
      const stream = new http.Agent({ keepAlive: true, maxSockets: atOnce });
      const ask = (i) => request({ method: 'POST', path: '/api/v1/chat', headers: json(cookies[i % cookies.length]), agent: stream },
        JSON.stringify({ message: i % 2 ? 'Bonjour, qui es-tu ?' : 'Should I cancel my Netflix subscription?' }), true);
      await Promise.all(Array.from({ length: atOnce }, async () => {
        while (next < 1000) {
          const i = next;
          next += 1;
          try {
            const r = await ask(i);
            if (r.status !== 200 || !r.body.includes('"status"')) failed += 1;
            if (r.body.includes('"route":"llm"')) modelled += 1;
          } catch {
            failed += 1;
          }
        }
      }));
      stream.destroy();
      await sleep(Number(arg('settle', '2')) * 1000);
      const after = rss(sou.pid);
      console.log(`${round === 1 ? '\n' : ''}1,000 streamed answers, ${atOnce} at once (${modelled} by the model, ${failed} failed): resident memory ${mb(before)} -> ${mb(after)}, ${((after - before) / 1000 / 1024).toFixed(1)} KB an answer${round > 1 ? ` (${((after - start) / 1000 / 1024 / round).toFixed(1)} KB an answer over ${round} rounds)` : ''}`);
    }
  } finally {
    stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
