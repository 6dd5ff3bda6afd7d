// Where the learner is in a backtracking search (the trace of `nqueens list --trace`,
// `queens --trace`, `sultan --trace`, replayed by QueensTrace): beside the board, the search's
// stack (one frame per column the search has filled, with the queen's row and the rows still
// to try there, and on top the column being tried), and a chart of the nodes the whole trace
// visits at each depth (the queens it places, and the squares it tries and finds attacked),
// filled as far as the current step. Everything is counted from the trace's lines: the page
// runs no search of its own.
import { colName, rowName, rowRange, squareName, svg } from './board.js';

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The depth (queens the search has placed) and event of each step of a trace. */
function depths(trace) {
  const out = [];
  let depth = 0;
  for (const s of trace.steps) {
    if (s.event === 'place') depth++;
    // A square found attacked is a try one level below the queens on the board.
    out.push({ event: s.event, depth: s.event === 'attacked' ? depth + 1 : depth });
    if (s.event === 'remove') depth--;
  }
  return out;
}

export class SearchPanels {
  /** Fills `root` (a container beside the board); `id` prefixes the elements' ids. */
  constructor(root, id) {
    this.id = id;
    this.root = root;
    root.replaceChildren();
    root.classList.add('search-panels');
    const stackTitle = document.createElement('h3');
    stackTitle.id = `${id}-stack-title`;
    stackTitle.textContent = 'The stack';
    this.stackNote = document.createElement('p');
    this.stackNote.className = 'stack-note';
    this.stackNote.id = `${id}-stack-note`;
    // The list scrolls in a region of its own (a long stack on a large board).
    const frame = document.createElement('div');
    frame.className = 'stack';
    frame.tabIndex = 0;
    frame.setAttribute('role', 'region');
    frame.setAttribute('aria-labelledby', stackTitle.id);
    this.stack = document.createElement('ol');
    this.stack.id = `${id}-stack`;
    this.stack.setAttribute('aria-labelledby', stackTitle.id);
    frame.appendChild(this.stack);
    const chartTitle = document.createElement('h3');
    chartTitle.id = `${id}-depths-title`;
    chartTitle.textContent = 'Nodes at each depth';
    this.chart = document.createElement('figure');
    this.chart.className = 'depth-chart';
    this.chart.id = `${id}-depths`;
    this.caption = document.createElement('figcaption');
    this.caption.id = `${id}-depths-caption`;
    this.table = document.createElement('details');
    this.table.className = 'depth-table';
    root.append(stackTitle, this.stackNote, frame, chartTitle, this.chart, this.table);
    this.clear();
  }

  /** No search shown: the panels hide. */
  clear() {
    this.trace = null;
    this.root.hidden = true;
  }

  /** A new trace (a QueensTrace): the chart of the whole trace, counted once. */
  load(trace) {
    this.trace = trace;
    this.root.hidden = false;
    this.steps = depths(trace);
    const free = trace.n - trace.given.length;
    this.maxDepth = Math.max(1, free);
    const zero = () => Array(this.maxDepth + 1).fill(0);
    this.placed = zero();
    this.attacked = zero();
    for (const s of this.steps) {
      if (s.depth < 1 || s.depth > this.maxDepth) continue;
      if (s.event === 'place') this.placed[s.depth]++;
      if (s.event === 'attacked') this.attacked[s.depth]++;
    }
    // Counted as far as the step shown, moved a step at a time.
    this.at = 0;
    this.placedNow = zero();
    this.attackedNow = zero();
    this.drawChart();
  }

  /** Moves the counts to step k (0: before the first step). */
  seek(k) {
    const add = (s, by) => {
      if (s.depth < 1 || s.depth > this.maxDepth) return;
      if (s.event === 'place') this.placedNow[s.depth] += by;
      if (s.event === 'attacked') this.attackedNow[s.depth] += by;
    };
    while (this.at < k) add(this.steps[this.at++], 1);
    while (this.at > k) add(this.steps[--this.at], -1);
  }

  /** The whole trace's bars, and what the trace covers. */
  drawChart() {
    const trace = this.trace;
    const D = this.maxDepth;
    const W = 360;
    const H = 170;
    const left = 44;
    const bottom = 26;
    const top = 10;
    const most = Math.max(1, ...this.placed, ...this.attacked);
    const slot = (W - left - 6) / D;
    const bar = Math.max(1, slot * 0.4);
    const y = (v) => H - bottom - ((H - bottom - top) * v) / most;
    this.chart.replaceChildren();
    const root = svg('svg', {
      viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': this.caption.id,
    }, this.chart);
    this.svg = root;
    svg('line', { x1: left, y1: H - bottom, x2: W - 4, y2: H - bottom, class: 'axis' }, root);
    svg('line', { x1: left, y1: top, x2: left, y2: H - bottom, class: 'axis' }, root);
    const yTop = svg('text', { x: left - 4, y: top + 4, class: 'tick', 'text-anchor': 'end' }, root);
    yTop.textContent = String(most);
    const yZero = svg('text', { x: left - 4, y: H - bottom, class: 'tick', 'text-anchor': 'end' }, root);
    yZero.textContent = '0';
    this.bars = [];
    const every = D > 16 ? Math.ceil(D / 16) : 1;
    for (let d = 1; d <= D; d++) {
      const x = left + (d - 1) * slot + slot * 0.1;
      const g = svg('g', {
        class: 'depth', 'data-depth': d, 'data-placed': this.placed[d], 'data-attacked': this.attacked[d],
      }, root);
      svg('rect', { x, y: y(this.placed[d]), width: bar, height: H - bottom - y(this.placed[d]), class: 'placed-all' }, g);
      svg('rect', { x: x + bar, y: y(this.attacked[d]), width: bar, height: H - bottom - y(this.attacked[d]), class: 'attacked-all' }, g);
      const placedNow = svg('rect', { x, width: bar, class: 'placed-now' }, g);
      const attackedNow = svg('rect', { x: x + bar, width: bar, class: 'attacked-now' }, g);
      const here = svg('rect', { x: x - slot * 0.08, y: top - 6, width: slot * 0.96, height: H - bottom - top + 6, class: 'here' }, g);
      if (d % every === 0 || d === 1) {
        const t = svg('text', { x: x + bar, y: H - bottom + 12, class: 'tick', 'text-anchor': 'middle' }, root);
        t.textContent = String(d);
      }
      this.bars.push({ placedNow, attackedNow, here });
    }
    const axis = svg('text', { x: left + (W - left) / 2, y: H - 3, class: 'tick', 'text-anchor': 'middle' }, root);
    axis.textContent = 'depth: queens placed by the search';
    this.y = y;
    this.H = H;
    this.bottom = bottom;
    const placedAll = this.placed.reduce((a, b) => a + b, 0);
    const attackedAll = this.attacked.reduce((a, b) => a + b, 0);
    const end = trace.end;
    const whole = end && end.complete;
    const covers = whole
      ? 'the whole search'
      : `only the first ${plural(trace.steps.length, 'step')} of the search: the trace is capped${end && end.stopped_by === 'steps' ? ` at ${end.steps} steps` : end && end.stopped_by === 'time' ? ' by the time limit' : end && end.stopped_by === 'solutions' ? ` at solution ${end.solutions}` : ''}, so the counts stop there`;
    this.caption.textContent = `Nodes at each depth, ${covers}: ${plural(placedAll, 'queen')} placed (blue, the left bar of each depth) and ${plural(attackedAll, 'square')} tried and found attacked (red, the right bar); the dark part of a bar is what the search has visited up to the step shown, and the outlined depth is where it stands.`;
    this.caption.dataset.complete = whole ? 'true' : 'false';
    this.chart.append(this.caption);
    // The same counts as a table, for reading them exactly.
    this.table.replaceChildren();
    const summary = document.createElement('summary');
    summary.textContent = 'The counts, depth by depth';
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    for (const h of ['depth', 'queens placed', 'squares found attacked']) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = h;
      head.appendChild(th);
    }
    const body = table.createTBody();
    for (let d = 1; d <= D; d++) {
      const row = body.insertRow();
      for (const v of [d, this.placed[d], this.attacked[d]]) row.insertCell().textContent = String(v);
    }
    this.table.append(summary, table);
  }

  /** Shows step k: the stack after it, and the chart filled to it. */
  show(k) {
    if (!this.trace) return;
    this.seek(k);
    const trace = this.trace;
    for (let d = 1; d <= this.maxDepth; d++) {
      const { placedNow, attackedNow, here } = this.bars[d - 1];
      const p = this.placedNow[d];
      const a = this.attackedNow[d];
      placedNow.setAttribute('y', this.y(p));
      placedNow.setAttribute('height', this.H - this.bottom - this.y(p));
      attackedNow.setAttribute('y', this.y(a));
      attackedNow.setAttribute('height', this.H - this.bottom - this.y(a));
      here.classList.remove('on');
    }
    const frames = this.frames(k);
    const depth = frames.filter((f) => f.row !== null).length;
    const current = frames.find((f) => f.row === null);
    const shownDepth = current ? depth + 1 : depth;
    if (shownDepth >= 1 && shownDepth <= this.maxDepth) this.bars[shownDepth - 1].here.classList.add('on');
    // The whole search's last step: nothing is left to come back to.
    const over = trace.end && trace.end.complete && k === trace.steps.length;
    this.drawStack(frames, trace, over);
  }

  /**
   * The stack after step k, bottom first: one frame per column the search has filled (its
   * queen's row, and the rows still to try there after it), then the column it is trying
   * (the rows it has tried; `row` null), unless the board is full.
   */
  frames(k) {
    const trace = this.trace;
    const n = trace.n;
    const given = new Set(trace.given.map(([, c]) => c));
    const byColumn = new Map();
    for (const q of trace.queens.values()) if (!q.given) byColumn.set(q.c, q.r);
    const out = [];
    let next = null;
    for (let c = 1; c <= n; c++) {
      if (given.has(c)) continue;
      if (byColumn.has(c)) {
        const r = byColumn.get(c);
        out.push({ col: c, row: r, from: r + 1, tried: r });
      } else {
        next = c;
        break;
      }
    }
    if (next !== null) {
      // The rows of this column tried so far: up to the square the step tried, or the queen
      // it took away; none when the step placed a queen in an earlier column (or at the start).
      const s = k > 0 ? trace.steps[k - 1] : null;
      let tried = 0;
      if (s && (s.event === 'attacked' || s.event === 'remove') && s.square[1] === next) tried = s.square[0];
      out.push({ col: next, row: null, from: tried + 1, tried, last: s ? s.event : null });
    }
    return out;
  }

  drawStack(frames, trace, over = false) {
    const n = trace.n;
    const rows = (a, b) => rowRange(a, b, n);
    this.stack.replaceChildren();
    const given = trace.given.length
      ? `Given queen${trace.given.length > 1 ? 's' : ''} (not on the stack): ${trace.given.map(([r, c]) => squareName(r, c, n)).join('; ')}. `
      : '';
    this.stackNote.textContent = `${given}One frame per column the search has filled, the newest on top: the queen's row and the rows still to try there when the search comes back.`;
    // Newest on top.
    for (const f of [...frames].reverse()) {
      const li = document.createElement('li');
      li.dataset.col = f.col;
      li.dataset.row = f.row === null ? '' : f.row;
      li.dataset.from = f.from;
      const toTry = rows(f.from, n);
      if (f.row === null) {
        li.className = 'trying';
        const what = f.tried === 0
          ? 'nothing tried yet'
          : f.last === 'remove'
            ? `the queen on ${squareName(f.tried, f.col, n)} taken back`
            : `${squareName(f.tried, f.col, n)} found attacked`;
        const then = over ? 'the search is over' : 'so the search backtracks';
        li.textContent = f.from > n
          ? `${colName(f.col, n)}: ${what}; no row left, ${then}`
          : `${colName(f.col, n)}, being tried: ${what}; still to try: ${toTry}`;
      } else {
        li.textContent = `${colName(f.col, n)}: queen on ${rowName(f.row, n)}; still to try: ${toTry}`;
      }
      this.stack.appendChild(li);
    }
    if (!frames.length) {
      const li = document.createElement('li');
      li.textContent = 'empty';
      this.stack.appendChild(li);
    }
  }
}
