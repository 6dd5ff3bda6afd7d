// The web board's library in a Web Worker (the static site built by web/build.sh): owns the
// WebAssembly module and answers the page's requests (js/api.js) one at a time, with the
// function `chess-puzzles serve` answers them with, so that long work never runs on the page's
// thread. A message {id, path, query, body, maxTime} is answered {id, status, type, text}, or
// {id, error} when the module could not be loaded or failed. The page stops a request by
// terminating this worker.
import init, { answer } from './chess_puzzles_web.js';

const ready = init();
const encoder = new TextEncoder();
const decoder = new TextDecoder();

self.onmessage = async (event) => {
  const { id, path, query, body, maxTime } = event.data;
  try {
    await ready;
    const reply = answer(path, query, encoder.encode(body), maxTime);
    const message = { id, status: reply.status, type: reply.content_type, text: decoder.decode(reply.body) };
    reply.free();
    self.postMessage(message);
  } catch (error) {
    self.postMessage({ id, error: String((error && error.message) || error) });
  }
};
