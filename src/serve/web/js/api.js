// Calls to the server's JSON API. Every answer comes from the same solvers as the command line.

/** A refusal of the API: its status and the JSON body's message, line and column. */
export class ApiError extends Error {
  constructor(status, body) {
    const where = body.line ? `line ${body.line}, column ${body.column}: ` : '';
    super(`${where}${body.error}`);
    this.status = status;
    this.body = body;
  }
}

function url(path, params) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params || {})) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== null) query.append(key, String(v));
    }
  }
  const q = query.toString();
  return `/api/${path}${q ? `?${q}` : ''}`;
}

async function refusal(response) {
  let body;
  try {
    body = await response.json();
  } catch {
    body = { error: `${response.status} ${response.statusText}` };
  }
  return new ApiError(response.status, body);
}

/** POSTs `body` (a judge input) and returns the answer's text. */
export async function text(path, body, params, init = {}) {
  const response = await fetch(url(path, params), {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    body,
    ...init,
  });
  if (!response.ok) throw await refusal(response);
  return response.text();
}

/** POSTs `body` and returns the answer's JSON Lines as objects, and the raw lines. */
export async function jsonLines(path, body, params, init) {
  const answer = await text(path, body, params, init);
  const lines = answer.split('\n').filter((line) => line.length > 0);
  return { objects: lines.map((line) => JSON.parse(line)), lines };
}

/**
 * GETs a stream of server-sent events, calling `onEvent(name, data)` for each, until the
 * stream ends or `signal` aborts it.
 */
export async function events(path, params, onEvent, signal) {
  const response = await fetch(url(path, params), { signal });
  if (!response.ok) throw await refusal(response);
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
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      onEvent(name, data);
    }
  }
}

/** POSTs a JSON body and returns the answer's JSON Lines as objects. */
export async function postJson(path, value) {
  const response = await fetch(url(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(value),
  });
  if (!response.ok) throw await refusal(response);
  const answer = await response.text();
  return answer.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
}

/** GETs `path` with `params` and returns the answer's JSON Lines as objects. */
export async function getLines(path, params) {
  const response = await fetch(url(path, params));
  if (!response.ok) throw await refusal(response);
  const answer = await response.text();
  return answer.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
}

/** The address of an API request, for a download or a link. */
export function address(path, params) {
  return url(path, params);
}
