// The web board's library in a Web Worker (the static site built by web/build.sh): owns the
// WebAssembly module and answers the page's requests (js/api.js) one at a time, with the
// function `chess-puzzles serve` answers them with, so that long work never runs on the page's
// thread. A message {id, path, query, body, maxTime} is answered {id, status, type, text}, or
// {id, error} when the module could not be loaded or failed. The progress of long work comes
// first as messages {id, progress: {done, total}}, at most every PROGRESS_MS (the last always):
// a count's parts (`/api/nqueens/count/events`, the library's `count_events`), the showdown
// optimiser's local-search steps made out of those it will make (`/api/showdown` and
// `/api/showdown/trace` with `steps`; else its tests answered), the boards of
// `/api/nqueens/best` proven. Several workers share an empty
// board's count: {shard: {index, shards}} asks for one shard's placements (`count_shard`),
// and `/api/nqueens/count/total` with their sum as the body writes the count's answer
// (`count_total`), or {timedOut: {seconds, done, total}} the refusal of a shared count that ran
// out of time. The page stops a request by terminating this worker.
import init, {
  answer, count_events as countEvents, count_shard as countShard, count_total as countTotal,
  count_timed_out_shared as countTimedOut,
} from './chess_puzzles_web.js';

// A module that cannot be loaded (an old browser, a policy without 'wasm-unsafe-eval', a
// missing file) fails every request with the reason.
const ready = init().catch((error) => {
  throw new Error(`the library could not be loaded in this browser: ${(error && error.message) || error}`);
});
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const PROGRESS_MS = 100;

/** The request being answered, and when its progress was last sent. */
let current = null;

// Called by the module each time parts of a count finish.
globalThis.chessPuzzlesProgress = (done, total) => {
  const now = performance.now();
  if (current === null || (now - current.sent < PROGRESS_MS && done < total)) return;
  current.sent = now;
  self.postMessage({ id: current.id, progress: { done, total } });
};

/** The module's answer to a message: a request of the API, or a part of a shared count. */
function call({ path, query, body, maxTime, shard, timedOut }) {
  if (shard) return countShard(query, shard.index, shard.shards, maxTime);
  if (timedOut) return countTimedOut(timedOut.seconds, timedOut.done, timedOut.total);
  if (path === '/api/nqueens/count/total') return countTotal(query, body);
  if (path === '/api/nqueens/count/events') return countEvents(query, maxTime);
  return answer(path, query, encoder.encode(body), maxTime);
}

self.onmessage = async (event) => {
  const { id } = event.data;
  try {
    await ready;
    current = { id, sent: -Infinity };
    const reply = call(event.data);
    current = null;
    const message = { id, status: reply.status, type: reply.content_type, text: decoder.decode(reply.body) };
    reply.free();
    self.postMessage(message);
  } catch (error) {
    current = null;
    const why = String((error && error.message) || error);
    self.postMessage({ id, error: why.startsWith('the library') ? why : `the library failed in this browser: ${why}` });
  }
};
