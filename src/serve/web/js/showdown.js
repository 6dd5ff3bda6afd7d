// Chess Variants Showdown (SPOJ CHE): toggle kings, set the prices and the search steps, place
// the pieces; the pieces drawn as lettered discs (the command line's letters), which pieces
// check a king and which kings a piece checks (point at it, or move the cursor to it), and the
// optimiser's cost over the run (the trace of `showdown --trace`).
import * as api from './api.js';
import { Board, svg } from './board.js';
import { makeIo } from './io.js';
import { StateError, makeShare, numberParam, writeState } from './share.js';
import { piecesPanel } from './pieces.js';

// The command line's letters (`showdown --format board`): F is the phoenix.
const PIECES = [
  ['B', 'bishop'], ['R', 'rook'], ['N', 'knight'], ['G', 'gold general'],
  ['S', 'silver general'], ['H', 'horse'], ['F', 'phoenix'], ['C', 'cannon'],
];
const SAMPLE = { side: 5, rows: ['___##', '__#__', '##_#_', '_##__', '##___'], prices: [1, 1, 1, 1, 1, 1, 2, 1] };
const SEED = 1;
const SVG_NS = 'http://www.w3.org/2000/svg';

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
  const chart = document.getElementById('showdown-chart');
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
    input.addEventListener('input', () => { forget(); io.setInput(inputText()); save(); });
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
    writeState('showdown', {
      n: side, k: rows.join('/'), p: priceInputs.map((i) => i.value.trim() || '1').join(','), s: steps(),
    });
  }

  function pieceAt(r, c) {
    return answer ? answer.pieces.findIndex((p) => p.row === r + 1 && p.col === c + 1) : -1;
  }

  function build() {
    board = new Board(document.getElementById('showdown-board'), {
      rows: side, cols: side, label: `${side} by ${side} board`,
      rowLabel: (r) => r + 1, colLabel: (c) => c + 1,
      name: (r, c) => `row ${r + 1}, column ${c + 1}`,
      onActivate: (r, c) => {
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

  function forget() {
    answer = null;
    selected = null;
    chart.replaceChildren();
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

  function draw() {
    board.clear();
    for (const k of kings) board.glyph(Math.floor(k / 256), k % 256, '\u265A', 'king');
    if (!answer) {
      for (const f of Object.values(facts)) f.textContent = '\u2014';
      checks.textContent = '';
      return;
    }
    answer.pieces.forEach((p, i) => {
      const r = p.row - 1;
      const c = p.col - 1;
      const g = svg('g', { 'data-piece-index': i }, board.pieces);
      svg('circle', { cx: c + 0.5, cy: r + 0.5, r: 0.36, class: `piece-disc p${p.type}` }, g);
      const t = svg('text', { x: c + 0.5, y: r + 0.52, class: 'piece-letter' }, g);
      t.textContent = PIECES[p.type - 1][0];
      const s = board.square(r, c);
      s.setAttribute('data-piece', PIECES[p.type - 1][1]);
      board.describe(r, c);
    });
  }

  function showChecks(r, c) {
    board.unmarkAll('checker');
    board.unmarkAll('king-focus');
    board.under.querySelectorAll('.check-line').forEach((n) => n.remove());
    if (!answer || !answer.kingsChecked) {
      checks.textContent = '';
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
      checks.textContent = '';
      return;
    }
    const king = answer.kingsChecked.find((k) => k.row === r + 1 && k.col === c + 1);
    if (!king) {
      checks.textContent = '';
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

  /** The cost (and bound) over the run: a step chart, and a sentence that says it. */
  function drawChart(costs, final) {
    chart.replaceChildren();
    if (!costs.length) return;
    const W = 360;
    const H = 160;
    const pad = { l: 44, r: 10, t: 10, b: 30 };
    const first = costs[0];
    const last = costs[costs.length - 1];
    // A run whose first answer stands to the end is a flat line, drawn as wide again as the
    // time it took to find, not as a dot at the right edge.
    const end = Math.max(final.seconds, ...costs.map((p) => p.seconds), 2 * first.seconds, 0.001);
    const top = Math.max(...costs.map((p) => p.cost));
    const bottom = Math.min(...costs.map((p) => p.bound));
    const span = Math.max(1, top - bottom);
    const x = (t) => pad.l + ((W - pad.l - pad.r) * t) / end;
    const y = (v) => pad.t + ((H - pad.t - pad.b) * (top - v)) / span;
    const root = document.createElementNS(SVG_NS, 'svg');
    root.setAttribute('viewBox', `0 0 ${W} ${H}`);
    root.setAttribute('role', 'img');
    const bound = `lower bound ${last.bound} (dashed)${last.cost === last.bound ? ', so it is optimal' : ''}`;
    const said = first.cost === last.cost
      ? `The first answer, cost ${first.cost} at ${first.seconds.toFixed(3)} s, was not bettered; ${bound}.`
      : `The best cost went from ${first.cost} at ${first.seconds.toFixed(3)} s to ${last.cost} at ${last.seconds.toFixed(3)} s, over ${costs.length} changes; ${bound}.`;
    root.setAttribute('aria-label', said);
    const title = document.createElementNS(SVG_NS, 'title');
    title.textContent = said;
    root.appendChild(title);
    chart.appendChild(root);
    svg('line', { x1: pad.l, y1: H - pad.b, x2: W - pad.r, y2: H - pad.b, class: 'axis' }, root);
    svg('line', { x1: pad.l, y1: pad.t, x2: pad.l, y2: H - pad.b, class: 'axis' }, root);
    const step = (key) => {
      let d = '';
      costs.forEach((p, i) => {
        d += i === 0 ? `M${x(p.seconds)} ${y(p[key])}` : `H${x(p.seconds)}V${y(p[key])}`;
      });
      return `${d}H${x(end)}`;
    };
    svg('path', { d: step('bound'), class: 'bound' }, root);
    svg('path', { d: step('cost'), class: 'cost' }, root);
    const label = (text, attrs) => { const t = svg('text', attrs, root); t.textContent = text; };
    label(String(top), { x: pad.l - 4, y: y(top) + 4, 'text-anchor': 'end' });
    label(String(bottom), { x: pad.l - 4, y: y(bottom) + 4, 'text-anchor': 'end' });
    label('0 s', { x: pad.l, y: H - 12, 'text-anchor': 'middle' });
    label(`${end.toFixed(3)} s`, { x: W - pad.r, y: H - 12, 'text-anchor': 'end' });
    const p = document.createElement('p');
    p.textContent = said;
    chart.appendChild(p);
  }

  async function solveInput(text) {
    // Show the first test of the input on the board.
    const tokens = text.trim().split(/\s+/);
    const n = Number(tokens[1]);
    if (tokens.length >= n + 10 && n >= 2 && n <= 25) {
      load({ side: n, rows: tokens.slice(2, 2 + n), prices: tokens.slice(2 + n, 10 + n).map(Number) });
      io.setInput(text);
    }
    const lines = await api.jsonLines('showdown/trace', text, { steps: steps(), seed: SEED });
    const answers = lines.objects.filter((l) => l.event === 'answer');
    const judge = answers.map((t) =>
      `${t.pieces.length} ${t.cost}\n${t.pieces.map((p) => `${p.type} ${p.row} ${p.col}\n`).join('')}`).join('');
    io.setOutput(judge);
    const first = answers[0];
    save();
    if (!first) return;
    const costs = lines.objects.filter((l) => l.event === 'cost' && l.case === 1);
    answer = { pieces: first.pieces, kingsChecked: null };
    draw();
    drawChart(costs, costs[costs.length - 1] || { seconds: 0 });
    facts.cost.textContent = String(first.cost);
    facts.score.textContent = first.score.toFixed(6);
    facts.bound.textContent = String(first.lower_bound);
    facts.optimal.textContent = first.optimal ? 'yes' : 'not proven';
    const judged = await api.postJson('showdown/checks', {
      input: text,
      answers: answers.map((t) => t.pieces.map((p) => [p.type, p.row, p.col])),
    });
    answer.kingsChecked = judged[0] ? judged[0].kings : null;
    checks.textContent = judged.every((j) => j.valid)
      ? 'Every king is in check (verified by the judge).'
      : `The judge rejects this answer: ${judged.find((j) => !j.valid).error}`;
  }

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
     * `p` the eight prices, `s` the search steps. */
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
      load(next);
      const text = inputText();
      io.setInput(text);
      await solveInput(text);
    },
    refresh() { save(); },
  };
}
