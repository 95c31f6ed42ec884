// A mock model provider for the browser tests: it speaks the OpenAI Chat Completions
// wire format (server-sent events, `data: [DONE]` end marker, tool-call deltas,
// usage chunk) on 127.0.0.1, so Sou's real adapter, router, tool loop and stream run
// end to end without any network.
//
// What it answers depends on the request, like a model would:
// - the router's request (its system prompt starts "You route questions") gets a
//   classification;
// - a request offering the `verdict` tool (the guardian) gets an approval;
// - "Netflix" in the last user message: first a `recurring_payments` tool call, then,
//   once the tool result is in the conversation, a Markdown answer that quotes the
//   monthly amount the tool returned, plus things the page must not render as HTML
//   (a script tag, a remote image, a javascript: link);
// - "progressé" / "grew" (a question about an uploaded dataset): it reads the
//   dataset's table and columns from the system prompt, as a model would, first writes
//   SQL over a table that is not there (Sou refuses it and says why), then corrects it
//   with run_sql, then answers quoting the first row;
// - "tips" / "astuces": a slow answer, one word every 100 ms for a minute, to test
//   the stop button;
// - "story" / "histoire": forty words, one every 100 ms, then "fin.": an answer a page
//   reloads in the middle of;
// - "budget" with the write tools offered: a `set_budget` call (250 € for restaurants
//   from next month); once the person decided, an answer saying what became of it;
// - anything else: a short answer.
// GET /v1/models checks the key (200 for the accepted keys, 401 otherwise), as Sou's
// "check and save" does. GET /__mock/state tells the tests what the mock saw.
import http from 'node:http';

const port = Number(process.env.SOU_MOCK_PORT || 3919);
const accepted = (process.env.SOU_MOCK_KEYS || '').split(',').filter(Boolean);

const state = { requests: [], streams: [] };

function chunk(res, delta, finish = null, model = 'gpt-4.1') {
  const c = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 0, model,
    choices: [{ index: 0, delta, finish_reason: finish }] };
  res.write(`data: ${JSON.stringify(c)}\n\n`);
}

function end(res, input, output) {
  const u = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 0, choices: [],
    usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output } };
  res.write(`data: ${JSON.stringify(u)}\n\ndata: [DONE]\n\n`);
  res.end();
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function text(res, pieces, pause, model) {
  chunk(res, { role: 'assistant', content: '' }, null, model);
  for (const p of pieces) {
    if (res.destroyed) return false;
    chunk(res, { content: p }, null, model);
    await sleep(pause);
  }
  chunk(res, {}, 'stop', model);
  end(res, 1200, pieces.length);
  return true;
}

function toolCall(res, name, args, model) {
  const a = JSON.stringify(args);
  const half = Math.floor(a.length / 2);
  chunk(res, { role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_mock_1', type: 'function',
    function: { name, arguments: a.slice(0, half) } }] }, null, model);
  chunk(res, { tool_calls: [{ index: 0, function: { arguments: a.slice(half) } }] }, null, model);
  chunk(res, {}, 'tool_calls', model);
  end(res, 900, 40);
}

const day = (d) => d.toISOString().slice(0, 10);

// The first dataset the system prompt describes ("- **sales**: 4 rows, columns: region
// (text), amount (number), month (text)"), and the SQL a model would write over it: the
// change of each label between the first two months.
function datasetSql(system) {
  const m = system.match(/- \*\*(\w+)\*\*: \d+ rows, columns: ([^\n]+)/);
  if (!m) return null;
  const columns = m[2].split(', ').map((c) => {
    const [, name, type] = c.match(/(\w+) \((\w+)\)/) || [];
    return { name, type };
  });
  const label = columns.find((c) => c.type === 'text' && !/mois|month/.test(c.name));
  const value = columns.find((c) => c.type === 'number' || c.type === 'integer');
  const month = columns.find((c) => /mois|month/.test(c.name));
  if (!label || !value || !month) return null;
  const sum = (mo) => `SUM(CASE WHEN ${month.name} = '${mo}' THEN ${value.name} ELSE 0 END)`;
  return `SELECT ${label.name}, ${sum('2026-02')} - ${sum('2026-01')} AS progression FROM ${m[1]} `
    + `GROUP BY ${label.name} ORDER BY progression DESC`;
}

function lastUser(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'user') return String(messages[i].content ?? '');
  }
  return '';
}

async function chat(req, res, body) {
  const model = body.model || 'unknown';
  const messages = body.messages || [];
  const system = messages[0]?.role === 'system' ? String(messages[0].content) : '';
  const tools = (body.tools || []).map((t) => t.function?.name);
  const question = lastUser(messages);
  const toolResult = messages.find((m) => m.role === 'tool');
  const stream = { question, model, startedAt: Date.now(), closedAt: null, completed: false, words: 0 };
  state.streams.push(stream);
  res.on('close', () => { stream.closedAt = Date.now(); });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });

  const aboutData = /progress|grew/i.test(question);
  const toolResults = messages.filter((m) => m.role === 'tool');
  const lastResult = String(toolResults[toolResults.length - 1]?.content ?? '');
  if (system.startsWith('You route questions')) {
    const tool = aboutData ? 'run_sql' : 'recurring_payments';
    stream.completed = await text(res, [`{"tools": ["${tool}"], `, '"complexity": "simple"}'], 0, model);
  } else if (tools.includes('verdict')) {
    toolCall(res, 'verdict', { verdict: 'approve' }, model);
    stream.completed = true;
  } else if (/netflix/i.test(question) && !toolResult) {
    const today = new Date();
    const start = new Date(Date.UTC(today.getUTCFullYear() - 1, today.getUTCMonth(), 1));
    const next = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1));
    toolCall(res, 'recurring_payments', {
      period: { start: day(start), end: day(next), label: 'last 12 months' }, merchant: 'netflix',
    }, model);
    stream.completed = true;
  } else if (/netflix/i.test(question)) {
    // Sou sends a one-line summary, then the tool's output as JSON.
    const content = String(toolResult.content);
    let monthly;
    try {
      monthly = JSON.parse(content.slice(content.indexOf('{'))).result.monthly_total.minor;
    } catch {
      monthly = undefined;
    }
    const amount = typeof monthly === 'number' ? `${Math.floor(monthly / 100)},${String(monthly % 100).padStart(2, '0')} €` : '?';
    const answer = [
      '**Netflix** ', `vous coûte ${amount} `, 'par mois.\n\n',
      '- Gardez-le si vous ', 'le regardez chaque semaine.\n',
      '- Sinon, résiliez-le.\n\n',
      '<script>window.__pwned = true</script>\n\n',
      'Voir ![suivi](https://tracker.example/pixel.png) ',
      '[piège](javascript:alert(1)) ',
      '[Aide Netflix](https://help.netflix.com/fr)',
    ];
    stream.completed = await text(res, answer, 40, model);
  } else if (aboutData) {
    const sql = datasetSql(system);
    state.sql = state.sql || [];
    if (!sql) {
      stream.completed = await text(res, ['Je ne vois ', 'aucun jeu de données.'], 20, model);
    } else if (toolResults.length === 0) {
      // A first try over a table that does not exist: Sou says which ones do.
      state.sql.push({ sql: 'SELECT * FROM transactions' });
      toolCall(res, 'run_sql', { sql: 'SELECT * FROM transactions' }, model);
      stream.completed = true;
    } else if (lastResult.startsWith('error:')) {
      state.sql.push({ sql, refusedWith: lastResult });
      toolCall(res, 'run_sql', { sql }, model);
      stream.completed = true;
    } else {
      const data = JSON.parse(lastResult.slice(lastResult.indexOf('{')));
      const [label, value] = data.result.result.rows[0];
      const shown = typeof value === 'object' ? value.num : String(value);
      stream.completed = await text(res, [`**${label}** `, `a le plus progressé : +${shown} `, 'entre janvier et février.'], 20, model);
    }
  } else if (/budget/i.test(question) && tools.includes('set_budget')) {
    if (!toolResult) {
      const now = new Date();
      const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      toolCall(res, 'set_budget', {
        category: 'restaurants', amount: { minor: 25000, currency: 'EUR' }, from: day(next),
      }, model);
      stream.completed = true;
    } else if (lastResult.startsWith('Done')) {
      stream.completed = await text(res, ["C'est fait : ", '250 € par mois ', 'pour les restaurants.'], 20, model);
    } else {
      stream.completed = await text(res, ['Entendu, ', "rien n'a changé."], 20, model);
    }
  } else if (/story|histoire/i.test(question)) {
    const words = [...Array.from({ length: 40 }, (_, i) => `mot${i + 1} `), 'fin.'];
    stream.completed = await text(res, words, 100, model);
    stream.words = words.length;
  } else if (/tips|astuces/i.test(question)) {
    const words = Array.from({ length: 600 }, (_, i) => `mot${i + 1} `);
    stream.completed = await text(res, words, 100, model);
    stream.words = words.length;
  } else {
    stream.completed = await text(res, ['Je ', 'ne sais ', 'pas.'], 20, model);
  }
}

const server = http.createServer((req, res) => {
  const auth = req.headers.authorization || '';
  const key = auth.startsWith('Bearer ') ? auth.slice(7) : '';
  const url = new URL(req.url, `http://127.0.0.1:${port}`);
  if (req.method === 'GET' && url.pathname === '/__mock/state') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(state));
    return;
  }
  if (req.method === 'GET' && url.pathname === '/__mock/health') {
    res.writeHead(200).end('ok');
    return;
  }
  state.requests.push({ method: req.method, path: url.pathname, keyAccepted: accepted.includes(key) });
  if (!accepted.includes(key)) {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error',
      code: 'invalid_api_key' } }));
    return;
  }
  if (req.method === 'GET' && url.pathname === '/v1/models') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4.1', object: 'model', owned_by: 'mock' }] }));
    return;
  }
  if (req.method === 'POST' && url.pathname === '/v1/chat/completions') {
    let raw = '';
    req.on('data', (d) => { raw += d; });
    req.on('end', () => {
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'invalid JSON body' } }));
        return;
      }
      chat(req, res, body).catch(() => res.destroy());
    });
    return;
  }
  res.writeHead(404).end();
});

server.listen(port, '127.0.0.1');
