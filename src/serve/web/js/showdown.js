// Chess Variants Showdown (SPOJ CHE): toggle kings, set the prices and the search steps, place
// the pieces; the pieces drawn as lettered discs (the command line's letters), which pieces
// check a king and which kings a piece checks (point at it, or move the cursor to it); the
// optimiser stepped from the trace of `showdown --trace` (the lower bound, the construction, the
// local search's moves, to the final board), with progress and a stop button while it runs; and
// the learner's own pieces, judged by the server.
import * as api from './api.js';
import { Board, svg } from './board.js';
import { makeIo } from './io.js';
import { StateError, makeShare, numberParam, writeState } from './share.js';
import { piecesPanel } from './pieces.js';
import { Player } from './player.js';
import { thousands, ticking } from './progress.js';
import { ShowdownTrace, kingList } from './showdowntrace.js';

// The command line's letters (`showdown --format board`): F is the phoenix.
const PIECES = [
  ['B', 'bishop'], ['R', 'rook'], ['N', 'knight'], ['G', 'gold general'],
  ['S', 'silver general'], ['H', 'horse'], ['F', 'phoenix'], ['C', 'cannon'],
];
const SAMPLE = { side: 5, rows: ['___##', '__#__', '##_#_', '_##__', '##___'], prices: [1, 1, 1, 1, 1, 1, 2, 1] };
const SEED = 1;
// The most steps of a trace the page asks for (a trace cut there jumps to the answer).
const TRACE_STEPS = 20000;

export function init() {
  piecesPanel(document.getElementById('showdown-pieces-panel'), document.getElementById('showdown-pieces'), PIECES);
  let side = SAMPLE.side;
  let kings = new Set();
  let answer = null; // { pieces, kingsChecked, costs }
  let board = null;
  let selected = null;
  const sideInput = document.getElementById('showdown-side');
  const stepsInput = document.getElementById('showdown-steps');
  const checks = document.getElementById('showdown-checks');
  let trace = null; // the stepped trace of the first test, while one is shown
  let trying = false; // the learner places pieces
  let mine = new Map(); // the learner's pieces: key -> type
  let judgedMine = null; // the server's verdict on them
  let verdict = ''; // the judge's word on the optimiser's answer
  let solving = null; // the optimiser's request, while it runs
  const stop = document.getElementById('showdown-stop');
  const progress = document.getElementById('showdown-progress');
  const detail = document.getElementById('showdown-detail');
  const tryButton = document.getElementById('showdown-try');
  const tryKind = document.getElementById('showdown-try-kind');
  const tryStatus = document.getElementById('showdown-try-status');
  PIECES.forEach(([letter, name], i) => {
    const o = document.createElement('option');
    o.value = String(i + 1);
    o.textContent = `${i + 1} ${name} (${letter})`;
    tryKind.appendChild(o);
  });
  tryKind.value = '6';
  const player = new Player(document.getElementById('showdown-player'), {
    id: 'showdown',
    landmarks: ['Previous phase', 'Next phase'],
    // The step's sentence under the board, where a phone shows it with the board.
    sentenceIn: document.getElementById('showdown-sentence'),
    show: (k) => {
      if (!trace) return '';
      trace.seek(k);
      drawTraced();
      showVerdict();
      return trace.sentence(k);
    },
    isSolution: (k) => trace !== null && trace.isLandmark(k),
    tally: (k) => (trace ? `cost ${trace.cost()}, ${trace.unchecked().length} king${trace.unchecked().length === 1 ? '' : 's'} unchecked` : ''),
    // (Not while the player is built: the prices are not there yet.)
    onChange: () => { if (trace) save(); },
  });
  const facts = {
    cost: document.getElementById('showdown-cost'),
    score: document.getElementById('showdown-score'),
    bound: document.getElementById('showdown-bound'),
    optimal: document.getElementById('showdown-optimal'),
  };
  const io = makeIo('showdown', (text) => solveInput(text));
  const steps = () => String(Math.min(300000, Math.max(0, Math.round(Number(stepsInput.value) || 0))));
  makeShare('showdown', () => api.text('showdown', inputText(), { format: 'svg', steps: steps(), seed: SEED }),
    (m) => io.setError(m));

  const prices = document.getElementById('showdown-prices');
  const priceInputs = PIECES.map(([letter, name], i) => {
    const label = document.createElement('label');
    label.htmlFor = `showdown-price-${i + 1}`;
    const key = document.createElement('span');
    key.className = `key p${i + 1}`;
    key.setAttribute('aria-hidden', 'true');
    key.textContent = letter;
    label.append(key, `${i + 1} ${name} (${letter})`);
    const input = document.createElement('input');
    input.type = 'number';
    input.min = '1';
    input.max = '1000000';
    input.id = `showdown-price-${i + 1}`;
    input.addEventListener('input', () => { forget(); draw(); io.setInput(inputText()); save(); });
    prices.append(label, input);
    return input;
  });

  const key = (r, c) => r * 256 + c;

  function save() {
    const rows = [];
    for (let r = 0; r < side; r++) {
      let row = '';
      for (let c = 0; c < side; c++) row += kings.has(key(r, c)) ? '#' : '_';
      rows.push(row);
    }
    const state = {
      n: side, k: rows.join('/'), p: priceInputs.map((i) => i.value.trim() || '1').join(','), s: steps(),
    };
    if (trace && !trying) state.step = player.index;
    writeState('showdown', state);
  }

  function pieceAt(r, c) {
    if (trying || (trace && player.index < player.steps)) return -1;
    return answer ? answer.pieces.findIndex((p) => p.row === r + 1 && p.col === c + 1) : -1;
  }

  function build() {
    board = new Board(document.getElementById('showdown-board'), {
      rows: side, cols: side, label: `${side} by ${side} board`,
      rowLabel: (r) => r + 1, colLabel: (c) => c + 1,
      name: (r, c) => `row ${r + 1}, column ${c + 1}`,
      // Its sentences and the judge's answer number rows and columns, on every side.
      coordinates: false,
      onActivate: (r, c) => {
        if (trying) {
          placeMine(r, c);
          return;
        }
        const i = pieceAt(r, c);
        if (i >= 0) {
          // A piece: select it (or let it go), to see the kings it checks.
          selected = selected === i ? null : i;
          showChecks(r, c);
          return;
        }
        if (kings.has(key(r, c))) kings.delete(key(r, c)); else kings.add(key(r, c));
        forget();
        draw();
        io.setInput(inputText());
        save();
      },
      onFocus: (r, c) => showChecks(r, c),
      onBlur: () => showChecks(null, null),
    });
  }

  /** The judge's verdict under the board, only while the board shows the answer it is about:
   * not at an earlier step of the optimiser, nor beside the learner's own pieces. */
  function showVerdict() {
    const final = answer && !trying && (!trace || player.index >= player.steps);
    checks.textContent = final ? verdict : '';
  }

  function forget() {
    verdict = '';
    answer = null;
    selected = null;
    trace = null;
    mine = new Map();
    judgedMine = null;
    player.load(0, '');
    if (trying) setTrying(false);
    // No answer shown any more: neither its facts nor the judge's word on it.
    for (const f of Object.values(facts)) f.textContent = '\u2014';
    showVerdict();
  }

  function load(next) {
    side = next.side;
    sideInput.value = String(side);
    kings = new Set();
    next.rows.forEach((row, r) => [...row].forEach((x, c) => { if (x === '#') kings.add(key(r, c)); }));
    next.prices.forEach((p, i) => { priceInputs[i].value = String(p); });
    forget();
    build();
    draw();
  }

  function inputText() {
    const rows = [];
    for (let r = 0; r < side; r++) {
      let row = '';
      for (let c = 0; c < side; c++) row += kings.has(key(r, c)) ? '#' : '_';
      rows.push(row);
    }
    const p = priceInputs.map((i) => i.value.trim() || '1');
    return `1\n${side}\n${rows.join('\n')}\n${p.join(' ')}\n`;
  }

  /** A piece drawn as a lettered disc. */
  function disc(r, c, type, index, cls = '') {
    const g = svg('g', index === null ? {} : { 'data-piece-index': index }, board.pieces);
    svg('circle', { cx: c + 0.5, cy: r + 0.5, r: 0.36, class: `piece-disc p${type} ${cls}` }, g);
    const t = svg('text', { x: c + 0.5, y: r + 0.52, class: 'piece-letter' }, g);
    t.textContent = PIECES[type - 1][0];
    const s = board.square(r, c);
    s.setAttribute('data-piece', PIECES[type - 1][1]);
    board.describe(r, c);
  }

  /** The board after the trace's current step: its pieces, the kings this step newly
   * checks, those left unchecked, and the square it changed. */
  function drawTraced() {
    board.clear();
    for (const k of kings) board.glyph(Math.floor(k / 256), k % 256, '\u265A', 'king');
    for (const [at, type] of trace.pieces()) disc(Math.floor(at / 256), at % 256, type, null);
    const step = trace.current();
    if (step && step.square) board.mark(step.square[0] - 1, step.square[1] - 1, 'checker', true, 'changed at this step');
    const fresh = new Set(((step && step.checked) || []).map(([r, c]) => key(r - 1, c - 1)));
    for (const at of fresh) board.mark(Math.floor(at / 256), at % 256, 'solution', true, 'newly checked');
    for (const at of trace.unchecked()) board.mark(Math.floor(at / 256), at % 256, 'bad', true, 'unchecked');
    const done = player.index >= player.steps;
    for (const f of Object.values(facts)) f.textContent = '\u2014';
    facts.cost.textContent = String(trace.cost());
    facts.bound.textContent = trace.bound() === null ? '\u2014' : String(trace.bound());
    if (done && answer) showFacts();
  }

  function showFacts() {
    facts.cost.textContent = String(answer.cost);
    facts.score.textContent = answer.score.toFixed(6);
    facts.bound.textContent = String(answer.lowerBound);
    facts.optimal.textContent = answer.optimal ? 'yes' : 'not proven';
  }

  /** The learner's pieces, the kings still unchecked, and the cost against the bound. */
  function drawMine() {
    board.clear();
    for (const k of kings) board.glyph(Math.floor(k / 256), k % 256, '\u265A', 'king');
    for (const [at, type] of mine) disc(Math.floor(at / 256), at % 256, type, null, 'mine');
    if (!judgedMine) return;
    for (const k of judgedMine.kings) {
      if (!k.checked_by.length) board.mark(k.row - 1, k.col - 1, 'bad', true, 'unchecked');
    }
  }

  async function judgeMine() {
    const text = inputText();
    const pieces = [...mine].map(([at, type]) => [type, Math.floor(at / 256) + 1, (at % 256) + 1]);
    const judged = await api.postJson('showdown/checks', { input: text, answers: [pieces] });
    judgedMine = judged[0];
    drawMine();
    const cost = pieces.reduce((sum, [t]) => sum + Number(priceInputs[t - 1].value || 1), 0);
    const open = judgedMine.kings.filter((k) => !k.checked_by.length);
    const against = answer
      ? ` The lower bound is ${answer.lowerBound}; the optimiser's answer costs ${answer.cost}.`
      : '';
    if (judgedMine.valid) {
      const over = answer ? judgedMine.cost - answer.cost : 0;
      tryStatus.textContent = `Every king is in check: your ${pieces.length} piece${pieces.length === 1 ? '' : 's'} cost ${judgedMine.cost}${answer ? (over > 0 ? `, ${over} more than the optimiser's` : over < 0 ? `, ${-over} less than the optimiser's` : ', as much as the optimiser\'s') : ''} (verified by the judge).${against}`;
    } else {
      tryStatus.textContent = `Your ${pieces.length} piece${pieces.length === 1 ? '' : 's'} cost ${cost}; ${open.length} king${open.length === 1 ? '' : 's'} still unchecked (marked \u2716)${open.length ? `: ${kingList(open.map((k) => [k.row, k.col]))}` : ''}.${against}`;
    }
    tryStatus.dataset.cost = String(cost);
    tryStatus.dataset.unchecked = String(open.length);
  }

  function placeMine(r, c) {
    const at = key(r, c);
    if (kings.has(at)) {
      tryStatus.textContent = `A king stands on row ${r + 1}, column ${c + 1}: a piece goes on an empty square.`;
      return;
    }
    if (mine.has(at)) mine.delete(at); else mine.set(at, Number(tryKind.value));
    drawMine();
    io.run(() => judgeMine());
  }

  function setTrying(on) {
    trying = on;
    tryButton.setAttribute('aria-pressed', String(on));
    tryButton.textContent = on ? 'Back to the optimiser' : 'Place your own pieces';
    if (on) {
      player.pause();
      // The optimiser's sentence is not about the learner's board.
      player.status.textContent = '';
      mine = new Map();
      judgedMine = null;
      drawMine();
      io.run(() => judgeMine());
    } else if (trace) {
      player.go(player.index);
    } else {
      draw();
    }
    showVerdict();
    save();
  }

  function draw() {
    board.clear();
    for (const k of kings) board.glyph(Math.floor(k / 256), k % 256, '\u265A', 'king');
    if (!answer) {
      for (const f of Object.values(facts)) f.textContent = '\u2014';
      showVerdict();
      return;
    }
    answer.pieces.forEach((p, i) => disc(p.row - 1, p.col - 1, p.type, i));
    showFacts();
  }

  function showChecks(r, c) {
    board.unmarkAll('checker');
    board.unmarkAll('king-focus');
    board.under.querySelectorAll('.check-line').forEach((n) => n.remove());
    if (!answer || !answer.kingsChecked) {
      showVerdict();
      return;
    }
    let i = r === null ? -1 : pieceAt(r, c);
    if (i < 0 && r === null && selected !== null) i = selected;
    if (i >= 0) {
      // A piece: the kings it checks.
      const p = answer.pieces[i];
      board.mark(p.row - 1, p.col - 1, 'checker');
      const checked = answer.kingsChecked.filter((k) => k.checked_by.includes(i));
      for (const k of checked) {
        board.mark(k.row - 1, k.col - 1, 'king-focus');
        board.line(p.row - 1, p.col - 1, k.row - 1, k.col - 1, 'check-line');
      }
      const names = checked.map((k) => `row ${k.row}, column ${k.col}`);
      checks.textContent = `The ${PIECES[p.type - 1][1]} (${PIECES[p.type - 1][0]}) on row ${p.row}, column ${p.col} checks ${checked.length} king${checked.length === 1 ? '' : 's'}${names.length ? `: on ${names.join('; ')}` : ''}.`;
      return;
    }
    if (r === null) {
      showVerdict();
      return;
    }
    const king = answer.kingsChecked.find((k) => k.row === r + 1 && k.col === c + 1);
    if (!king || trying || (trace && player.index < player.steps)) {
      showVerdict();
      return;
    }
    board.mark(r, c, 'king-focus');
    const by = king.checked_by.map((j) => answer.pieces[j]);
    for (const p of by) {
      board.mark(p.row - 1, p.col - 1, 'checker');
      board.line(p.row - 1, p.col - 1, r, c, 'check-line');
    }
    const names = by.map((p) => `the ${PIECES[p.type - 1][1]} (${PIECES[p.type - 1][0]}) on row ${p.row}, column ${p.col}`);
    checks.textContent = `The king on row ${r + 1}, column ${c + 1} is in check from ${names.join(' and ') || 'nothing'}.`;
  }

  async function solveInput(text, at = null) {
    // Show the first test of the input on the board.
    const tokens = text.trim().split(/\s+/);
    const n = Number(tokens[1]);
    if (tokens.length >= n + 10 && n >= 2 && n <= 25) {
      load({ side: n, rows: tokens.slice(2, 2 + n), prices: tokens.slice(2 + n, 10 + n).map(Number) });
      io.setInput(text);
    }
    const lines = await optimise(text, Number(tokens[0]), n);
    const answers = lines.objects.filter((l) => l.event === 'answer');
    const judge = answers.map((t) =>
      `${t.pieces.length} ${t.cost}\n${t.pieces.map((p) => `${p.type} ${p.row} ${p.col}\n`).join('')}`).join('');
    io.setOutput(judge);
    const first = answers[0];
    save();
    if (!first) return;
    answer = {
      pieces: first.pieces, kingsChecked: null, cost: first.cost, score: first.score,
      lowerBound: first.lower_bound, optimal: first.optimal,
    };
    trace = new ShowdownTrace(lines.objects.filter((l) => l.case === 1), kings, key);
    const end = trace.end;
    player.load(trace.steps.length, end && !end.complete ? 'the trace stops at its limit, then jumps to the answer' : '',
      at === null ? trace.steps.length : at);
    const judged = await api.postJson('showdown/checks', {
      input: text,
      answers: answers.map((t) => t.pieces.map((p) => [p.type, p.row, p.col])),
    });
    answer.kingsChecked = judged[0] ? judged[0].kings : null;
    if (player.index >= player.steps && !trying) draw();
    verdict = judged.every((j) => j.valid)
      ? 'Every king is in check (verified by the judge).'
      : `The judge rejects this answer: ${judged.find((j) => !j.valid).error}`;
    showVerdict();
  }

  /** The optimiser's trace of `text` (`tests` tests, the first of side `n`), with its progress
   * beside the answer (a bar, and the local search's steps made of those it will make and the
   * time) and Stop, which ends the request (under `serve`, the server's solve too); a stopped
   * one rejects with an AbortError. */
  async function optimise(text, tests, n) {
    if (solving) solving.abort();
    const controller = new AbortController();
    solving = controller;
    const what = n >= 2 && n <= 25 ? `${n}x${n} board, ${kings.size} king${kings.size === 1 ? '' : 's'}` : 'the input';
    stop.disabled = false;
    const ticks = ticking(progress, (p, seconds) => {
      detail.textContent = p && p.total > 0
        ? `${what}: ${thousands(p.done)} of ${thousands(p.total)} search steps after ${seconds} s`
        : `${what}: searching for ${seconds} s`;
    });
    try {
      const lines = await api.jsonLines('showdown/trace', text, { steps: steps(), seed: SEED, trace_steps: TRACE_STEPS }, {
        signal: controller.signal,
        onProgress: ticks.onProgress,
      });
      if (solving === controller) detail.textContent = '';
      return lines;
    } catch (e) {
      if (solving === controller) detail.textContent = e.name === 'AbortError' ? 'cancelled' : '';
      throw e;
    } finally {
      ticks.stop();
      if (solving === controller) {
        solving = null;
        stop.disabled = true;
        progress.hidden = true;
      }
    }
  }

  stop.addEventListener('click', () => { if (solving) solving.abort(); });
  sideInput.addEventListener('change', () => {
    const n = Math.min(25, Math.max(2, Math.round(Number(sideInput.value) || 2)));
    sideInput.value = String(n);
    side = n;
    kings = new Set([...kings].filter((k) => Math.floor(k / 256) < n && k % 256 < n));
    forget();
    build();
    draw();
    io.setInput(inputText());
    save();
  });
  stepsInput.addEventListener('change', () => { stepsInput.value = steps(); save(); });
  tryButton.addEventListener('click', () => setTrying(!trying));
  document.getElementById('view-showdown').addEventListener('keydown', (e) => {
    if (trace && !trying) player.key(e);
  });
  document.getElementById('showdown-sample').addEventListener('click', () => {
    load(SAMPLE);
    io.setInput(inputText());
    save();
  });
  document.getElementById('showdown-solve').addEventListener('click', () => {
    const text = inputText();
    io.setInput(text);
    io.run(() => solveInput(text));
  });

  return {
    /** Opens the position of a link: `n` the side, `k` the rows (`_` and `#` joined by `/`),
     * `p` the eight prices, `s` the search steps, `step` a step of the optimiser's trace. */
    async open(params) {
      let next = SAMPLE;
      const n = numberParam(params, 'n', 2, 25, null);
      const k = params.get('k');
      const p = params.get('p');
      if (n !== null || k !== null || p !== null) {
        const side2 = n === null ? SAMPLE.side : n;
        const rows = (k === null ? '' : k).split('/');
        if (rows.length !== side2 || rows.some((row) => !new RegExp(`^[_#]{${side2}}$`).test(row))) {
          throw new StateError(`k: expected ${side2} rows of ${side2} of _ and # joined by '/', found '${(k || '').slice(0, 80)}'`);
        }
        const prices2 = (p === null ? SAMPLE.prices.join(',') : p).split(',');
        if (prices2.length !== 8 || prices2.some((v) => !/^\d{1,7}$/.test(v) || Number(v) < 1 || Number(v) > 1000000)) {
          throw new StateError(`p: expected 8 prices 1..1000000 separated by commas, found '${(p || '').slice(0, 80)}'`);
        }
        next = { side: side2, rows, prices: prices2.map(Number) };
      }
      stepsInput.value = String(numberParam(params, 's', 0, 300000, 20000));
      const step = numberParam(params, 'step', 0, 1000000, null);
      load(next);
      const text = inputText();
      io.setInput(text);
      await solveInput(text, step);
    },
    refresh() { save(); },
  };
}
