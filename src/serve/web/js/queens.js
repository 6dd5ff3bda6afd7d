// 8 Queens with one queen given (UVa 750): click a square, step through every placement
// containing that queen, the judge's list beside the board.
import * as api from './api.js';
import { Board } from './board.js';
import { makeIo } from './io.js';

export function init() {
  const state = { given: null, solutions: [], index: 0 };
  const list = document.getElementById('queens-list');
  const count = document.getElementById('queens-count');
  const io = makeIo('queens', (text) => solve(text));
  const board = new Board(document.getElementById('queens-board'), {
    rows: 8, cols: 8, label: '8 by 8 board',
    rowLabel: (r) => r + 1, colLabel: (c) => c + 1,
    name: (r, c) => `row ${r + 1}, column ${c + 1}`,
    onActivate: (r, c) => {
      const text = `1\n${r + 1} ${c + 1}\n`;
      io.setInput(text);
      io.run(() => solve(text));
    },
  });

  async function solve(text) {
    const [json, judge] = await Promise.all([
      api.jsonLines('queens', text),
      api.text('queens', text, { format: 'judge' }),
    ]);
    io.setOutput(judge);
    list.replaceChildren();
    for (const line of judge.split(/(?<=\n)/)) {
      const span = document.createElement('span');
      span.textContent = line;
      list.appendChild(span);
    }
    const first = json.objects[0];
    state.given = first ? first.queen : null;
    state.solutions = first ? first.solutions : [];
    state.index = 0;
    draw();
  }

  function draw() {
    board.clear();
    if (!state.given) return;
    const [gr, gc] = state.given;
    const n = state.solutions.length;
    const placement = state.solutions[state.index];
    placement.forEach((row, c) => {
      const isGiven = row === gr && c + 1 === gc;
      board.glyph(row - 1, c, isGiven ? '\u2655' : '\u265B', isGiven ? 'given queen' : 'queen', isGiven ? 'given' : '');
    });
    board.mark(gr - 1, gc - 1, 'mark');
    count.textContent = `placement ${state.index + 1} of ${n} with the queen on row ${gr}, column ${gc}: ${placement.join(' ')}`;
    const spans = list.children;
    for (const s of spans) s.classList.remove('current');
    // Two heading lines, then one line per placement of the first case.
    const line = spans[state.index + 2];
    if (line) {
      line.classList.add('current');
      line.scrollIntoView({ block: 'nearest' });
    }
  }

  function step(by) {
    const n = state.solutions.length;
    if (!n) return;
    state.index = (state.index + by + n) % n;
    draw();
  }
  document.getElementById('queens-prev').addEventListener('click', () => step(-1));
  document.getElementById('queens-next').addEventListener('click', () => step(1));
  document.getElementById('view-queens').addEventListener('keydown', (e) => {
    if (e.key === 'PageDown') { step(1); e.preventDefault(); }
    if (e.key === 'PageUp') { step(-1); e.preventDefault(); }
  });
  io.setInput('1\n1 1\n');
}
