// Calls to the library's JSON API. Every answer comes from the same solvers as the command line,
// through one of two transports chosen when the page loads:
//
// - 'server': the routes of `chess-puzzles serve` (fetch);
// - 'worker': on a static host (the page built by `web/build.sh` carries
//   <meta name="chess-puzzles-transport" content="worker">), a Web Worker (worker.js beside the
//   page) that owns the library as WebAssembly and answers each request with the function the
//   server answers it with, `answer(path, query, body, max_time)`: the same bytes. Long work
//   never runs on the page's thread; stopping a request ends the worker at once and starts a
//   fresh one.

/** The longest a solve may take in the browser, in seconds: the server's default `--max-time`. */
export const MAX_TIME = 10;

/** A refusal of the API: its status and the JSON body's message, line and column. */
export class ApiError extends Error {
  constructor(status, body) {
    const where = body.line ? `line ${body.line}, column ${body.column}: ` : '';
    super(`${where}${body.error}`);
    this.status = status;
    this.body = body;
  }
}

function query(params) {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params || {})) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== null) q.append(key, String(v));
    }
  }
  return q.toString();
}

function stopped() {
  return new DOMException('the request was stopped', 'AbortError');
}

/** The routes the server also answers with progress, at `<route>/events`. */
const WITH_EVENTS = new Set(['showdown', 'showdown/trace', 'nqueens/best']);

/**
 * The server's routes, relative to the page (`api/...`), so that a server under a sub-path
 * works. A request with `onProgress` to a route of WITH_EVENTS goes to its `/events` twin: the
 * same answer after its progress, as server-sent events, whose writes also tell the server at
 * once when the request is stopped (its solve then ends and frees its solver).
 */
const server = {
  name: 'server',
  async request(path, q, { method, body, type, signal, onProgress }) {
    const init = { method, signal };
    if (method === 'POST') {
      init.body = body;
      init.headers = { 'Content-Type': type };
    }
    const events = onProgress && method === 'POST' && WITH_EVENTS.has(path);
    const response = await fetch(`api/${path}${events ? '/events' : ''}${q ? `?${q}` : ''}`, init);
    if (!events || !response.ok) return { status: response.status, statusText: response.statusText, response };
    let answer = null;
    await readEvents(response, (name, data) => {
      if (name === 'progress') {
        const p = JSON.parse(data);
        onProgress({ done: p.done, total: p.total });
      } else if (name === 'result') {
        answer = { status: 200, text: data };
      } else if (name === 'error') {
        const e = JSON.parse(data);
        answer = { status: e.status, text: JSON.stringify({ error: e.error, line: e.line, column: e.column }) };
      }
    });
    if (answer === null) throw new Error('the server ended the answer early');
    return answer;
  },
};

/**
 * The library in a Web Worker: requests are answered one at a time, in the order sent. A
 * stopped request ends the worker (`terminate()`, at once, whatever it computes) and the
 * requests still waiting are sent again to a fresh one.
 */
class WorkerTransport {
  constructor(url) {
    this.name = 'worker';
    this.url = url;
    this.pending = new Map();
    this.next = 1;
    this.start();
  }

  start() {
    const worker = new Worker(this.url, { type: 'module' });
    worker.onmessage = (e) => {
      const waiting = this.pending.get(e.data.id);
      if (!waiting) return;
      if (e.data.progress) {
        if (waiting.onProgress) waiting.onProgress(e.data.progress);
        return;
      }
      this.pending.delete(e.data.id);
      if (e.data.error !== undefined) {
        waiting.reject(new Error(e.data.error));
        // A module that failed (a panic traps) is not used again.
        this.restart();
      } else {
        waiting.resolve(e.data);
      }
    };
    worker.onerror = (e) => {
      e.preventDefault();
      const why = new Error(`the library's worker failed: ${e.message || 'it could not be loaded'}`);
      for (const waiting of this.pending.values()) waiting.reject(why);
      this.pending.clear();
      // The next request starts a fresh one (not now: a worker that cannot load would fail
      // again at once, for ever).
      worker.terminate();
      if (this.worker === worker) this.worker = null;
    };
    this.worker = worker;
  }

  /** A fresh worker, sent every request still waiting. */
  restart() {
    if (this.worker) this.worker.terminate();
    this.start();
    for (const waiting of this.pending.values()) this.worker.postMessage(waiting.message);
  }

  request(path, q, { body, signal, onProgress }) {
    return this.send({ path: `/api/${path}`, query: q, body: body || '' }, { signal, onProgress });
  }

  /** Sends `fields` (see worker.js) and waits for the answer. */
  send(fields, { signal, onProgress } = {}) {
    if (signal && signal.aborted) return Promise.reject(stopped());
    const id = this.next++;
    const message = { id, maxTime: MAX_TIME, ...fields };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { message, resolve, reject, onProgress });
      if (this.worker) this.worker.postMessage(message);
      else this.restart();
      if (signal) {
        signal.addEventListener('abort', () => {
          if (!this.pending.delete(id)) return;
          reject(stopped());
          this.restart();
        }, { once: true });
      }
    });
  }
}

function chooseTransport() {
  const meta = document.querySelector('meta[name="chess-puzzles-transport"]');
  if (meta && meta.content === 'worker') return new WorkerTransport(new URL('../worker.js', import.meta.url));
  return server;
}

const transport = chooseTransport();

/** The most workers that share a count. */
const MAX_WORKERS = 8;
/** The workers beside `transport` that share counts, started with the first such count. */
const helpers = [];

/** `shards` workers (the page's own first), for a count shared between them. */
function workers(shards) {
  while (helpers.length < shards - 1) helpers.push(new WorkerTransport(transport.url));
  document.documentElement.dataset.workers = String(helpers.length + 1);
  return [transport, ...helpers.slice(0, shards - 1)];
}
/** 'server' or 'worker': which transport answers this page. */
export const transportName = transport.name;
document.documentElement.dataset.transport = transportName;

async function refusal(status, statusText, readText) {
  let body;
  try {
    body = JSON.parse(await readText());
  } catch {
    body = { error: `${status} ${statusText || ''}`.trim() };
  }
  return new ApiError(status, body);
}

/** Sends a request and returns the answer's text; a refusal throws an ApiError. */
async function request(path, params, options) {
  const answer = await transport.request(path, query(params), options);
  if (answer.response) {
    const { response } = answer;
    if (!response.ok) throw await refusal(response.status, response.statusText, () => response.text());
    return response.text();
  }
  if (answer.status !== 200) throw await refusal(answer.status, '', async () => answer.text);
  return answer.text;
}

function lines(answer) {
  return answer.split('\n').filter((line) => line.length > 0);
}

/**
 * POSTs `body` (a judge input) and returns the answer's text. `init.signal` stops the request
 * (in the browser, the worker is ended at once; under `serve`, the server's solve ends too when
 * it is asked with progress); `init.onProgress({done, total})` is told the optimisers' progress:
 * with `steps`, the local-search steps of `showdown` and `showdown/trace` made out of those the
 * search will make (else their tests answered), and in the browser the boards of
 * `nqueens/best` proven (the server tells it none: {done: 0, total: 0}).
 */
export async function text(path, body, params, init = {}) {
  return request(path, params, {
    method: 'POST', body, type: 'text/plain', signal: init.signal, onProgress: init.onProgress,
  });
}

/** POSTs `body` and returns the answer's JSON Lines as objects, and the raw lines (`init` as for `text`). */
export async function jsonLines(path, body, params, init) {
  const found = lines(await text(path, body, params, init));
  return { objects: found.map((line) => JSON.parse(line)), lines: found };
}

/** GETs `path` with `params` and returns the answer's text (`init` as for `text`). */
export async function get(path, params, init = {}) {
  return request(path, params, { method: 'GET', signal: init.signal, onProgress: init.onProgress });
}

/** GETs `path` with `params` and returns the answer's JSON Lines as objects. */
export async function getLines(path, params) {
  return lines(await get(path, params)).map((l) => JSON.parse(l));
}

/** POSTs a JSON body and returns the answer's JSON Lines as objects. */
export async function postJson(path, value) {
  const answer = await request(path, undefined, {
    method: 'POST', body: JSON.stringify(value), type: 'application/json',
  });
  return lines(answer).map((l) => JSON.parse(l));
}

/** How often the worker's transport tells a waiting page how far its count has gone. */
const TICK_MS = 250;

/**
 * A count with progress (`nqueens/count/events`), calling `onEvent(name, data)` for each event
 * until the count ends or `signal` stops it: `progress` ({done, total, seconds}: parts of the
 * count done and known; {seconds} alone in the browser until the first parts are known), then
 * `result` (the count's JSON line) or `error` (a refusal's JSON).
 */
export async function events(path, params, onEvent, signal) {
  if (transport === server) return serverEvents(path, params, onEvent, signal);
  const shards = Math.min(navigator.hardwareConcurrency || 1, MAX_WORKERS);
  const given = [].concat(params.fix ?? []).length;
  if (path === 'nqueens/count/events' && given === 0 && shards > 1) {
    return sharedCount(query(params), shards, onEvent, signal);
  }
  const started = performance.now();
  let parts = {};
  const tick = () => onEvent('progress', JSON.stringify({ ...parts, seconds: (performance.now() - started) / 1000 }));
  tick();
  const timer = setInterval(tick, TICK_MS);
  const onProgress = (p) => {
    parts = { done: p.done, total: p.total };
    tick();
  };
  try {
    const answer = await transport.request(path, query(params), { signal, onProgress });
    // The server's stream: a count's time limit is an `error` event, other refusals its status.
    if (answer.status === 200) onEvent('result', answer.text.trim());
    else if (answer.status === 504) onEvent('error', answer.text.trim());
    else throw await refusal(answer.status, '', async () => answer.text);
  } finally {
    clearInterval(timer);
  }
}

/**
 * An empty board's count shared by `shards` workers, one shard each (`nqueens count N --shard
 * I/K`): their progress summed, then the sum of their placements written by the library as the
 * count's answer. The first refusal stops the others; `signal` stops them all.
 */
async function sharedCount(q, shards, onEvent, signal) {
  const started = performance.now();
  const parts = Array.from({ length: shards }, () => null);
  const tick = () => {
    const known = parts.filter((p) => p !== null);
    const sum = known.length === 0 ? {} : {
      done: known.reduce((s, p) => s + p.done, 0),
      total: known.reduce((s, p) => s + p.total, 0),
    };
    onEvent('progress', JSON.stringify({ ...sum, seconds: (performance.now() - started) / 1000 }));
  };
  tick();
  const timer = setInterval(tick, TICK_MS);
  const inner = new AbortController();
  const stop = () => inner.abort();
  if (signal) signal.addEventListener('abort', stop, { once: true });
  let failed = null;
  try {
    const runs = workers(shards).map((worker, index) => worker.send(
      { query: q, shard: { index, shards } },
      { signal: inner.signal, onProgress: (p) => { parts[index] = p; } },
    ).then((answer) => {
      if (answer.status !== 200 && failed === null) {
        failed = answer;
        inner.abort();
      }
      return answer;
    }));
    let answers;
    try {
      answers = await Promise.all(runs);
    } catch (e) {
      if (failed === null) throw e;
    }
    if (failed !== null && failed.status === 504) {
      // The server's stream: a count's time limit is an `error` event, said with the parts
      // every worker counted.
      const known = parts.filter((p) => p !== null);
      const timedOut = {
        seconds: (performance.now() - started) / 1000,
        done: known.reduce((s, p) => s + p.done, 0),
        total: known.reduce((s, p) => s + p.total, 0),
      };
      const said = await transport.send({ timedOut });
      onEvent('error', said.text.trim());
      return;
    }
    if (failed !== null) throw await refusal(failed.status, '', async () => failed.text);
    const sum = answers.reduce((s, a) => s + BigInt(a.text), 0n);
    const total = await transport.send({ path: '/api/nqueens/count/total', query: q, body: sum.toString() }, { signal });
    if (total.status !== 200) throw await refusal(total.status, '', async () => total.text);
    onEvent('result', total.text.trim());
  } finally {
    clearInterval(timer);
    if (signal) signal.removeEventListener('abort', stop);
  }
}

async function serverEvents(path, params, onEvent, signal) {
  const q = query(params);
  const response = await fetch(`api/${path}${q ? `?${q}` : ''}`, { signal });
  if (!response.ok) throw await refusal(response.status, response.statusText, () => response.text());
  await readEvents(response, onEvent);
}

/** Calls `onEvent(name, data)` for each server-sent event of `response` (the data of several
 * `data:` lines joined by newlines), until it ends. */
async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    let end;
    while ((end = pending.indexOf('\n\n')) >= 0) {
      const block = pending.slice(0, end);
      pending = pending.slice(end + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      onEvent(name, data.join('\n'));
    }
  }
}
