// N-Queens on any board: fix queens by clicking; count (with progress and cancel), the first
// placements, or the best weighted placement.
import * as api from './api.js';
import { Board, svg } from './board.js';
import { makeIo } from './io.js';

export function init() {
  let side = 8;
  let fixed = new Set();
  let placements = [];
  let index = 0;
  let weights = null;
  let counting = null;
  let board = null;
  const sideInput = document.getElementById('nqueens-side');
  const result = document.getElementById('nqueens-result');
  const detail = document.getElementById('nqueens-detail');
  const progress = document.getElementById('nqueens-progress');
  const step = document.getElementById('nqueens-step');
  const cancel = document.getElementById('nqueens-cancel');
  const io = makeIo('nqueens', (text) => bestInput(text),
    'An input of nqueens best: the number of boards, then for each its side n and n rows of n weights');
  const key = (r, c) => r * 64 + c;

  function build() {
    board = new Board(document.getElementById('nqueens-board'), {
      rows: side, cols: side, label: `${side} by ${side} board`,
      rowLabel: (r) => r + 1, colLabel: (c) => c + 1,
      name: (r, c) => `row ${r + 1}, column ${c + 1}`,
      onActivate: (r, c) => {
        if (fixed.has(key(r, c))) fixed.delete(key(r, c)); else fixed.add(key(r, c));
        placements = [];
        weights = null;
        draw();
      },
    });
  }

  function fixes() {
    return [...fixed].sort((a, b) => a - b).map((k) => `${Math.floor(k / 64) + 1},${(k % 64) + 1}`);
  }

  function draw() {
    board.clear();
    if (weights && side <= 16) {
      weights.forEach((row, r) => row.forEach((w, c) => {
        const t = svg('text', { x: c + 0.5, y: r + 0.82, class: 'weight' }, board.under);
        t.textContent = String(w);
      }));
    }
    const placement = placements[index];
    if (placement) {
      placement.forEach((row, c) => {
        const isFixed = fixed.has(key(row - 1, c));
        board.glyph(row - 1, c, isFixed ? '\u2655' : '\u265B', isFixed ? 'given queen' : 'queen', isFixed ? 'given' : '');
      });
      step.textContent = `placement ${index + 1} of ${placements.length}: ${placement.join(' ')}`;
    } else {
      step.textContent = '';
    }
    for (const k of fixed) {
      const r = Math.floor(k / 64);
      const c = k % 64;
      board.mark(r, c, 'mark');
      if (!placement) board.glyph(r, c, '\u2655', 'given queen', 'given');
    }
  }

  function describeProblem() {
    const f = fixes();
    return `${side}x${side} board, ${f.length ? `queens given at ${f.map((x) => `(${x})`).join(' ')}` : 'no queen given'}`;
  }

  async function count() {
    if (counting) return;
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
          if (p.total > 0) {
            progress.max = p.total;
            progress.value = p.done;
          }
          detail.textContent = `${describeProblem()}: ${p.done} of ${p.total} parts after ${p.seconds.toFixed(1)} s`;
        } else if (name === 'result') {
          // The count may exceed what a JavaScript number holds exactly: keep its digits.
          const digits = /"count":(\d+)/.exec(data)[1];
          result.textContent = digits;
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
        result.textContent = 'cancelled';
      } else {
        result.textContent = '\u2014';
        io.setError(e.message);
      }
    } finally {
      counting = null;
      cancel.disabled = true;
      progress.hidden = true;
    }
  }

  async function list() {
    const params = { n: side, fix: fixes(), limit: 20 };
    const [json, judge] = await Promise.all([
      api.jsonLines('nqueens/list', '', params),
      api.text('nqueens/list', '', { ...params, format: 'judge' }),
    ]);
    io.setOutput(judge);
    placements = json.objects.map((p) => p.rows);
    index = 0;
    weights = null;
    result.textContent = placements.length === 20 ? 'first 20' : `all ${placements.length}`;
    detail.textContent = `${describeProblem()}: the first placements in lexicographic order (at most 20)`;
    draw();
  }

  async function bestInput(text) {
    const tokens = text.trim().split(/\s+/);
    const n = Number(tokens[1]);
    if (n >= 1 && n <= 64 && tokens.length >= 2 + n * n) {
      side = n;
      sideInput.value = String(n);
      fixed = new Set();
      weights = [];
      for (let r = 0; r < n; r++) weights.push(tokens.slice(2 + r * n, 2 + (r + 1) * n).map(Number));
      build();
    }
    const [json, judge] = await Promise.all([
      api.jsonLines('nqueens/best', text),
      api.text('nqueens/best', text, { format: 'judge' }),
    ]);
    io.setOutput(judge);
    const first = json.objects[0];
    placements = first ? [first.rows] : [];
    index = 0;
    result.textContent = first ? String(first.score) : '\u2014';
    detail.textContent = first ? `the best sum of weights under ${first.n} queens (weights drawn on boards up to 16x16)` : '';
    draw();
  }

  function best() {
    if (side === 2 || side === 3) {
      io.setError('2x2 and 3x3 boards have no placement');
      return Promise.resolve();
    }
    fixed = new Set();
    const rows = [];
    for (let r = 0; r < side; r++) {
      rows.push(Array.from({ length: side }, () => 1 + Math.floor(Math.random() * 99)).join(' '));
    }
    const text = `1\n${side}\n${rows.join('\n')}\n`;
    io.setInput(text);
    return bestInput(text);
  }

  sideInput.addEventListener('change', () => {
    const n = Math.min(64, Math.max(1, Math.round(Number(sideInput.value) || 1)));
    sideInput.value = String(n);
    side = n;
    fixed = new Set([...fixed].filter((k) => Math.floor(k / 64) < n && k % 64 < n));
    placements = [];
    weights = null;
    build();
    draw();
  });
  document.getElementById('nqueens-clear').addEventListener('click', () => {
    fixed = new Set();
    placements = [];
    weights = null;
    draw();
  });
  document.getElementById('nqueens-count').addEventListener('click', () => io.run(count));
  cancel.addEventListener('click', () => counting && counting.abort());
  document.getElementById('nqueens-list').addEventListener('click', () => io.run(list));
  document.getElementById('nqueens-best').addEventListener('click', () => io.run(best));
  document.getElementById('nqueens-prev').addEventListener('click', () => {
    if (placements.length) { index = (index - 1 + placements.length) % placements.length; draw(); }
  });
  document.getElementById('nqueens-next').addEventListener('click', () => {
    if (placements.length) { index = (index + 1) % placements.length; draw(); }
  });
  build();
  draw();
}
