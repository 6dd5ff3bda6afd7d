// Chess Variants Showdown (SPOJ CHE): toggle kings, set the prices and a budget, solve; the
// pieces drawn with a legend, and which piece checks each king on hover or focus.
import * as api from './api.js';
import { Board, svg } from './board.js';
import { makeIo } from './io.js';

const PIECES = [
  ['B', 'bishop'], ['R', 'rook'], ['N', 'knight'], ['G', 'gold general'],
  ['S', 'silver general'], ['H', 'horse'], ['P', 'phoenix'], ['C', 'cannon'],
];
const SAMPLE = { side: 5, rows: ['___##', '__#__', '##_#_', '_##__', '##___'], prices: [1, 1, 1, 1, 1, 1, 2, 1] };

export function init() {
  let side = SAMPLE.side;
  let kings = new Set();
  let answer = null; // { pieces, kingsChecked }
  let board = null;
  const sideInput = document.getElementById('showdown-side');
  const timeInput = document.getElementById('showdown-time');
  const checks = document.getElementById('showdown-checks');
  const facts = {
    cost: document.getElementById('showdown-cost'),
    score: document.getElementById('showdown-score'),
    bound: document.getElementById('showdown-bound'),
    optimal: document.getElementById('showdown-optimal'),
  };
  const io = makeIo('showdown', (text) => solveInput(text));

  const prices = document.getElementById('showdown-prices');
  const priceInputs = PIECES.map(([letter, name], i) => {
    const label = document.createElement('label');
    label.htmlFor = `showdown-price-${i + 1}`;
    const key = document.createElement('span');
    key.className = `key p${i + 1}`;
    key.textContent = letter;
    label.append(key, `${i + 1} ${name}`);
    const input = document.createElement('input');
    input.type = 'number';
    input.min = '1';
    input.max = '1000000';
    input.id = `showdown-price-${i + 1}`;
    input.addEventListener('input', () => { answer = null; draw(); io.setInput(inputText()); });
    prices.append(label, input);
    return input;
  });

  const key = (r, c) => r * 256 + c;

  function build() {
    board = new Board(document.getElementById('showdown-board'), {
      rows: side, cols: side, label: `${side} by ${side} board`,
      rowLabel: (r) => r + 1, colLabel: (c) => c + 1,
      name: (r, c) => `row ${r + 1}, column ${c + 1}`,
      onActivate: (r, c) => {
        if (kings.has(key(r, c))) kings.delete(key(r, c)); else kings.add(key(r, c));
        answer = null;
        draw();
        io.setInput(inputText());
      },
      onFocus: (r, c) => showChecks(r, c),
      onBlur: () => showChecks(null, null),
    });
  }

  function load(next) {
    side = next.side;
    sideInput.value = String(side);
    kings = new Set();
    next.rows.forEach((row, r) => [...row].forEach((x, c) => { if (x === '#') kings.add(key(r, c)); }));
    next.prices.forEach((p, i) => { priceInputs[i].value = String(p); });
    answer = null;
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
      s.setAttribute('aria-label', `row ${r + 1}, column ${c + 1}: ${PIECES[p.type - 1][1]}`);
    });
  }

  function showChecks(r, c) {
    board.unmarkAll('checker');
    board.unmarkAll('king-focus');
    board.under.querySelectorAll('.check-line').forEach((n) => n.remove());
    if (!answer || !answer.kingsChecked || r === null) {
      checks.textContent = '';
      return;
    }
    const king = answer.kingsChecked.find((k) => k.row === r + 1 && k.col === c + 1);
    if (!king) {
      checks.textContent = '';
      return;
    }
    board.mark(r, c, 'king-focus');
    const by = king.checked_by.map((i) => answer.pieces[i]);
    for (const p of by) {
      board.mark(p.row - 1, p.col - 1, 'checker');
      svg('line', { x1: p.col - 0.5, y1: p.row - 0.5, x2: c + 0.5, y2: r + 0.5, class: 'check-line' }, board.under);
    }
    const names = by.map((p) => `the ${PIECES[p.type - 1][1]} on row ${p.row}, column ${p.col}`);
    checks.textContent = `The king on row ${r + 1}, column ${c + 1} is in check from ${names.join(' and ') || 'nothing'}.`;
  }

  async function solveInput(text) {
    // Show the first test of the input on the board.
    const tokens = text.trim().split(/\s+/);
    const n = Number(tokens[1]);
    if (tokens.length >= n + 10 && n >= 2 && n <= 64) {
      load({ side: n, rows: tokens.slice(2, 2 + n), prices: tokens.slice(2 + n, 10 + n).map(Number) });
      io.setInput(text);
    }
    const time = timeInput.value.trim() || '2';
    const json = await api.jsonLines('showdown', text, { time_limit: time });
    const first = json.objects[0];
    const judge = json.objects.map((t) =>
      `${t.pieces.length} ${t.cost}\n${t.pieces.map((p) => `${p.type} ${p.row} ${p.col}\n`).join('')}`).join('');
    io.setOutput(judge);
    if (!first) return;
    answer = { pieces: first.pieces, kingsChecked: null };
    draw();
    facts.cost.textContent = String(first.cost);
    facts.score.textContent = first.score.toFixed(6);
    facts.bound.textContent = String(first.lower_bound);
    facts.optimal.textContent = first.optimal ? 'yes' : 'not proven';
    const judged = await api.postJson('showdown/checks', {
      input: text,
      answers: json.objects.map((t) => t.pieces.map((p) => [p.type, p.row, p.col])),
    });
    answer.kingsChecked = judged[0] ? judged[0].kings : null;
    checks.textContent = judged.every((j) => j.valid)
      ? 'Every king is in check (verified by the judge). Hover or focus a king to see its checker.'
      : `The judge rejects this answer: ${judged.find((j) => !j.valid).error}`;
  }

  sideInput.addEventListener('change', () => {
    const n = Math.min(25, Math.max(2, Math.round(Number(sideInput.value) || 2)));
    sideInput.value = String(n);
    side = n;
    kings = new Set([...kings].filter((k) => Math.floor(k / 256) < n && k % 256 < n));
    answer = null;
    build();
    draw();
    io.setInput(inputText());
  });
  document.getElementById('showdown-sample').addEventListener('click', () => {
    load(SAMPLE);
    io.setInput(inputText());
  });
  document.getElementById('showdown-solve').addEventListener('click', () => {
    const text = inputText();
    io.setInput(text);
    io.run(() => solveInput(text));
  });
  load(SAMPLE);
  io.setInput(inputText());
}
