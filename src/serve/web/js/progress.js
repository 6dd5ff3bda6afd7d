// The progress of a long request (the optimisers'): a bar and a line that tick while it runs.

/** How often the line is said again (its seconds tick). */
const TICK_MS = 250;

/**
 * Shows `bar` (busy, without a value, until the first progress) and says `say(parts,
 * seconds)` in the line now and every TICK_MS: `parts` is the last progress told ({done,
 * total}; null before any), `seconds` the time since the start, with one decimal. Returns
 * `onProgress`, to pass to the request, and `stop`, which stops the ticks (the caller hides
 * the bar).
 */
export function ticking(bar, say) {
  const started = performance.now();
  let parts = null;
  const tick = () => say(parts, ((performance.now() - started) / 1000).toFixed(1));
  bar.hidden = false;
  bar.removeAttribute('value');
  tick();
  const timer = setInterval(tick, TICK_MS);
  return {
    onProgress(p) {
      parts = { done: p.done, total: p.total };
      if (p.total > 0) {
        bar.max = p.total;
        bar.value = p.done;
      }
      tick();
    },
    stop() { clearInterval(timer); },
  };
}

/** `n` with its thousands marked: 41,000. */
export function thousands(n) {
  return n.toLocaleString('en-US');
}
