// N-Queens on any board: give queens by clicking; watch the backtracking search (the trace of
// `nqueens list --trace`), count the placements (with progress and a stop button), list the
// first ones, or find the best placement on random weights (with progress and the same stop
// button).
import * as api from './api.js';
import { Board } from './board.js';
import { makeIo } from './io.js';
import { Player } from './player.js';
import { ticking } from './progress.js';
import { QueensTrace, endNote, parseTrace, placementWords } from './queenstrace.js';
import { SearchPanels } from './searchpanel.js';
import { MAX_STATE, StateError, makeShare, numberParam, writeState } from './share.js';
import { TryIt } from './tryit.js';

/** Numbers in [0, 1) from a seed (Marsaglia's xorshift32): the same seed, the same weights. */
function seeded(seed) {
  // Zero is xorshift's fixed point: mix the seed with an odd constant first.
  let x = (seed ^ 0x9e3779b9) >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

export function init() {
  let side = 8;
  let fixed = new Set();
  let placements = [];
  let index = 0;
  let weights = null;
  let weightsInput = '';
  let weightsSeed = null;
  let counting = null;
  let searching = null; // the best placement's request, while it runs
  let board = null;
  let trace = null;
  let mode = 'answer'; // 'answer' (placements), 'best', 'count' or 'search'
  let trying = false;
  const tryit = new TryIt(document.getElementById('nqueens-try'));
  const tryButton = document.getElementById('nqueens-try-mode');
  const sideInput = document.getElementById('nqueens-side');
  const result = document.getElementById('nqueens-result');
  const detail = document.getElementById('nqueens-detail');
  const progress = document.getElementById('nqueens-progress');
  const step = document.getElementById('nqueens-step');
  const cancel = document.getElementById('nqueens-cancel');
  const io = makeIo('nqueens', (text) => bestInput(text),
    'An input of nqueens best: the number of boards, then for each its side n and n rows of n weights');
  const key = (r, c) => r * 64 + c;
  const panels = new SearchPanels(document.getElementById('nqueens-panels'), 'nqueens');
  const player = new Player(document.getElementById('nqueens-player'), {
    id: 'nqueens',
    sentenceIn: document.getElementById('nqueens-sentence'),
    show: (k) => showStep(k),
    isSolution: (k) => trace !== null && trace.isSolution(k),
    tally: (k) => (trace ? trace.tally(k) : ''),
    onChange: () => save(),
  });
  makeShare('nqueens', () => {
    if (mode === 'best') return api.text('nqueens/best', weightsInput, { format: 'svg' });
    if (mode === 'count') return api.get('nqueens/count', { n: side, fix: fixes(), format: 'svg' });
    return api.get('nqueens/list', { n: side, fix: fixes(), limit: 20, format: 'svg' });
  }, (m) => io.setError(m));

  function save() {
    const s = { n: side, fix: fixes().join(';') };
    if (mode === 'best') {
      // The weights go in the link: their seed when drawn at random, else the weights
      // themselves when they fit in a link.
      if (weightsSeed !== null) s.seed = weightsSeed;
      else if (weights && weights.length === side) {
        const flat = weights.flat().join(',');
        if (flat.length <= MAX_STATE - 100) s.w = flat;
      }
    }
    if (mode === 'search') s.step = player.index;
    else if (mode === 'answer' && placements.length) s.p = index + 1;
    writeState('nqueens', s);
  }

  function build() {
    board = new Board(document.getElementById('nqueens-board'), {
      rows: side, cols: side, label: `${side} by ${side} board: give or take away queens`,
      rowLabel: (r) => r + 1, colLabel: (c) => c + 1,
      name: (r, c) => `row ${r + 1}, column ${c + 1}`,
      onActivate: (r, c) => {
        if (trying) {
          tryit.toggle(r + 1, c + 1);
          tryit.draw(board);
          tryit.answer();
          return;
        }
        if (fixed.has(key(r, c))) fixed.delete(key(r, c)); else fixed.add(key(r, c));
        forget();
        draw();
        save();
      },
    });
  }

  /** The try-it mode on or off: the learner's own queens, answered by the library. */
  function setTrying(on) {
    trying = on;
    tryButton.setAttribute('aria-pressed', String(on));
    tryit.reset(side);
    if (on) {
      fixed = new Set();
      forget();
      step.textContent = 'Your own placement: click a square (or press Enter on it) to put a queen there or take her back.';
      tryit.draw(board);
      tryit.answer();
    } else {
      draw();
    }
  }

  function forget() {
    placements = [];
    weights = null;
    trace = null;
    panels.clear();
    mode = 'answer';
    player.load(0, '');
    result.textContent = '\u2014';
    detail.textContent = '';
  }

  function fixes() {
    return [...fixed].sort((a, b) => a - b).map((k) => `${Math.floor(k / 64) + 1},${(k % 64) + 1}`);
  }

  function draw() {
    board.clear();
    if (weights && side <= 16) board.weights(weights);
    const placement = placements[index];
    if (placement) {
      placement.forEach((row, c) => {
        const isFixed = fixed.has(key(row - 1, c));
        board.glyph(row - 1, c, isFixed ? '\u2655' : '\u265B', isFixed ? 'given queen' : 'queen', isFixed ? 'given' : '');
      });
      step.textContent = `Showing placement ${index + 1} of ${placements.length}: ${placementWords(placement, side)}.`;
    } else {
      step.textContent = fixed.size ? `${fixed.size} queen${fixed.size === 1 ? '' : 's'} given.` : '';
    }
    for (const k of fixed) {
      const r = Math.floor(k / 64);
      const c = k % 64;
      board.mark(r, c, 'mark', true, 'given');
      if (!placement) board.glyph(r, c, '\u2655', 'given queen', 'given');
    }
  }

  function showStep(k) {
    if (!trace) return '';
    mode = 'search';
    trace.seek(k);
    const sentence = trace.draw(board);
    panels.show(k);
    step.textContent = `Showing the search on the ${side}x${side} board, at step ${k}.`;
    return sentence;
  }

  function describeProblem() {
    const f = fixes();
    return `${side}x${side} board, ${f.length ? `queens given at ${f.map((x) => `(${x})`).join(' ')}` : 'no queen given'}`;
  }

  /** Loads the search's trace and shows it at step `at`. */
  async function watch(at) {
    const lines = await api.getLines('nqueens/trace', { n: side, fix: fixes() });
    const parsed = parseTrace(lines);
    trace = new QueensTrace(parsed);
    panels.load(trace);
    weights = null;
    mode = 'search';
    io.setOutput('');
    detail.textContent = `${describeProblem()}: the backtracking search, column by column from the left, each column's rows from the top (${endNote(parsed.end)}).`;
    player.load(parsed.steps.length, endNote(parsed.end), at);
  }

  async function count() {
    if (counting) return;
    // One long request at a time: a best placement's search under way is stopped.
    if (searching) {
      const other = searching;
      searching = null;
      other.abort();
    }
    const controller = new AbortController();
    counting = controller;
    cancel.disabled = false;
    progress.hidden = false;
    progress.value = 0;
    result.textContent = 'counting\u2026';
    detail.textContent = describeProblem();
    try {
      await api.events('nqueens/count/events', { n: side, fix: fixes() }, (name, data) => {
        if (name === 'progress') {
          const p = JSON.parse(data);
          if (p.total === undefined) {
            // The browser's count before it knows its parts: a bar that only says it is
            // busy, and the time.
            progress.removeAttribute('value');
            detail.textContent = `${describeProblem()}: counting in this browser for ${p.seconds.toFixed(1)} s`;
            return;
          }
          if (p.total > 0) {
            progress.max = p.total;
            progress.value = p.done;
          }
          detail.textContent = `${describeProblem()}: ${p.done} of ${p.total} parts after ${p.seconds.toFixed(1)} s`;
        } else if (name === 'result') {
          // The count may exceed what a JavaScript number holds exactly: keep its digits.
          const digits = /"count":(\d+)/.exec(data)[1];
          result.textContent = digits;
          mode = mode === 'search' ? mode : 'count';
          detail.textContent = `${describeProblem()}: ${digits} placement${digits === '1' ? '' : 's'}`;
          io.setOutput(`${digits}\n`);
        } else if (name === 'error') {
          const e = JSON.parse(data);
          result.textContent = 'stopped';
          io.setError(e.error);
        }
      }, controller.signal);
    } catch (e) {
      if (e.name === 'AbortError') {
        if (counting === controller) result.textContent = 'cancelled';
      } else {
        result.textContent = '\u2014';
        io.setError(e.message);
      }
    } finally {
      if (counting === controller) {
        counting = null;
        cancel.disabled = true;
        progress.hidden = true;
      }
      save();
    }
  }

  async function list(at = 0) {
    const params = { n: side, fix: fixes(), limit: 20 };
    const [json, judge] = await Promise.all([
      api.jsonLines('nqueens/list', '', params),
      api.text('nqueens/list', '', { ...params, format: 'judge' }),
    ]);
    trace = null;
    panels.clear();
    player.load(0, '');
    mode = 'answer';
    io.setOutput(judge);
    placements = json.objects.map((p) => p.rows);
    index = Math.min(Math.max(0, at), Math.max(0, placements.length - 1));
    weights = null;
    result.textContent = placements.length === 20 ? 'first 20' : `all ${placements.length}`;
    detail.textContent = `${describeProblem()}: the first placements (at most 20), in order: the queen's row in column 1 from the top, then in column 2, and so on`;
    draw();
    save();
  }

  async function bestInput(text, seed = null) {
    const tokens = text.trim().split(/\s+/);
    const n = Number(tokens[1]);
    if (n >= 1 && n <= 64 && tokens.length >= 2 + n * n) {
      side = n;
      sideInput.value = String(n);
      fixed = new Set();
      build();
    }
    // One long request at a time: a count or an earlier search under way is stopped.
    for (const other of [counting, searching]) if (other) other.abort();
    counting = null;
    const controller = new AbortController();
    searching = controller;
    const boards = Number(tokens[0]) >= 1 ? Number(tokens[0]) : 1;
    cancel.disabled = false;
    result.textContent = 'searching\u2026';
    const ticks = ticking(progress, (p, seconds) => {
      const proven = p && p.total > 0 ? p : { done: 0, total: boards };
      detail.textContent = `the best placement on the weights: ${proven.done} of ${proven.total} board${proven.total === 1 ? '' : 's'} proven after ${seconds} s`;
    });
    // One search: its JSON lines say each board's best sum, the judge's line.
    let json;
    try {
      json = await api.jsonLines('nqueens/best', text, undefined, {
        signal: controller.signal,
        onProgress: ticks.onProgress,
      });
    } catch (e) {
      if (searching === controller) {
        result.textContent = e.name === 'AbortError' ? 'cancelled' : '\u2014';
        detail.textContent = '';
      }
      throw e;
    } finally {
      ticks.stop();
      if (searching === controller) {
        searching = null;
        cancel.disabled = true;
        progress.hidden = true;
      }
    }
    // Each board's best sum as its line says it (a sum may exceed what a JavaScript number
    // holds exactly): the judge's answer is these sums, a line each, `impossible` for none.
    const scores = json.lines.map((line) => /"score":(\d+|null)/.exec(line)[1]);
    const judge = scores.map((score) => `${score === 'null' ? 'impossible' : score}\n`).join('');
    trace = null;
    panels.clear();
    player.load(0, '');
    weightsInput = text;
    weightsSeed = seed;
    weights = [];
    if (n >= 1 && n <= 64) {
      for (let r = 0; r < n; r++) weights.push(tokens.slice(2 + r * n, 2 + (r + 1) * n).map(Number));
    }
    mode = 'best';
    io.setOutput(judge);
    const first = json.objects[0];
    placements = first && first.rows ? [first.rows] : [];
    index = 0;
    result.textContent = scores.length > 0 && scores[0] !== 'null' ? scores[0] : '\u2014';
    detail.textContent = first ? `the best sum of weights under ${first.n} queens (weights drawn on boards up to 16x16)` : '';
    draw();
    save();
  }

  /** Random weights 1..99 drawn from `seed` (a new one when null), and their best placement. */
  async function best(seed = null) {
    if (side === 2 || side === 3) {
      io.setError('2x2 and 3x3 boards have no placement');
      return;
    }
    fixed = new Set();
    const s = seed === null ? Math.floor(Math.random() * 4294967296) : seed;
    const next = seeded(s);
    const rows = [];
    for (let r = 0; r < side; r++) {
      rows.push(Array.from({ length: side }, () => 1 + Math.floor(next() * 99)).join(' '));
    }
    const text = `1\n${side}\n${rows.join('\n')}\n`;
    io.setInput(text);
    await bestInput(text, s);
  }

  function stepPlacement(by) {
    if (!placements.length) return;
    if (mode === 'search') {
      player.pause();
      mode = 'answer';
    }
    index = (index + by + placements.length) % placements.length;
    draw();
    save();
  }

  sideInput.addEventListener('change', () => {
    const n = Math.min(64, Math.max(1, Math.round(Number(sideInput.value) || 1)));
    sideInput.value = String(n);
    side = n;
    fixed = new Set([...fixed].filter((k) => Math.floor(k / 64) < n && k % 64 < n));
    build();
    forget();
    draw();
    if (trying) setTrying(true);
    save();
  });
  tryButton.addEventListener('click', () => setTrying(!trying));
  // Every other action leaves the try-it mode.
  for (const id of ['nqueens-watch', 'nqueens-count', 'nqueens-list', 'nqueens-best', 'nqueens-clear']) {
    document.getElementById(id).addEventListener('click', () => { if (trying) setTrying(false); });
  }
  document.getElementById('nqueens-clear').addEventListener('click', () => {
    fixed = new Set();
    forget();
    draw();
    save();
  });
  document.getElementById('nqueens-watch').addEventListener('click', () => io.run(() => watch(0)));
  document.getElementById('nqueens-count').addEventListener('click', () => io.run(count));
  // Stop ends the count or the best placement's search under way.
  cancel.addEventListener('click', () => {
    if (counting) counting.abort();
    if (searching) searching.abort();
  });
  document.getElementById('nqueens-list').addEventListener('click', () => io.run(() => list(0)));
  document.getElementById('nqueens-best').addEventListener('click', () => io.run(() => best()));
  document.getElementById('nqueens-prev').addEventListener('click', () => stepPlacement(-1));
  document.getElementById('nqueens-next').addEventListener('click', () => stepPlacement(1));
  document.getElementById('view-nqueens').addEventListener('keydown', (e) => {
    if (mode === 'search') player.key(e);
  });

  return {
    /** Opens the position of a link: `n` the side, `fix` the given queens (`ROW,COL;...`),
     * `step` a step of the search or `p` a placement of the first 20. */
    async open(params) {
      const n = numberParam(params, 'n', 1, 64, 8);
      const f = params.get('fix');
      const given = new Set();
      if (f) {
        for (const part of f.split(';').slice(0, 65)) {
          const m = /^(\d{1,2}),(\d{1,2})$/.exec(part);
          if (!m || Number(m[1]) < 1 || Number(m[1]) > n || Number(m[2]) < 1 || Number(m[2]) > n) {
            throw new StateError(`fix: expected ROW,COLUMN pairs within 1..${n} separated by ';', found '${part.slice(0, 40)}'`);
          }
          given.add(key(Number(m[1]) - 1, Number(m[2]) - 1));
        }
      }
      const at = numberParam(params, 'step', 0, 1000000, null);
      const p = numberParam(params, 'p', 1, 20, 1);
      const seed = numberParam(params, 'seed', 0, 4294967295, null);
      const w = params.get('w');
      let flat = null;
      if (w !== null) {
        flat = w.split(',');
        if (flat.length !== n * n || flat.some((x) => !/^\d{1,10}$/.test(x) || Number(x) > 4294967295)) {
          throw new StateError(`w: expected ${n * n} weights 0..4294967295 separated by ',', found '${w.slice(0, 40)}'`);
        }
      }
      side = n;
      sideInput.value = String(n);
      fixed = given;
      trying = false;
      tryButton.setAttribute('aria-pressed', 'false');
      tryit.reset(n);
      build();
      forget();
      draw();
      if (seed !== null) {
        await best(seed);
        return;
      }
      if (flat !== null) {
        const rows = [];
        for (let r = 0; r < n; r++) rows.push(flat.slice(r * n, (r + 1) * n).join(' '));
        const text = `1\n${n}\n${rows.join('\n')}\n`;
        io.setInput(text);
        await bestInput(text);
        return;
      }
      if (at !== null) {
        await watch(at);
        return;
      }
      await list(p - 1);
    },
    refresh() { save(); },
  };
}
