// The trace of the N-queens backtracking search (the JSON Lines of `nqueens list --trace`,
// `queens --trace` and `sultan --trace`), replayed on a board: after step k, the queens on the
// board, the squares they attack, and what step k did (the square tried, a conflict and the
// queens that cause it, a backtrack, a solution).
import { chessNow, colName, squareName } from './board.js';

const WORDS = { place: 'placed', attacked: 'attacked', remove: 'removed', solution: 'solution' };

/** Reads the lines of one search: its start, steps and end. */
export function parseTrace(lines) {
  const start = lines.find((l) => l.event === 'start');
  const end = lines.find((l) => l.event === 'end');
  const steps = lines.filter((l) => l.step !== undefined);
  return { start, end, steps };
}

/** What the trace's end line says about where it stopped. */
export function endNote(end) {
  if (!end) return 'the trace was cut short';
  if (end.complete) return `the whole search: ${end.solutions} solution${end.solutions === 1 ? '' : 's'}`;
  if (end.stopped_by === 'steps') return `the trace stops at the limit of ${end.steps} steps`;
  if (end.stopped_by === 'solutions') return `the trace stops at solution ${end.solutions}`;
  if (end.stopped_by === 'time') return 'the trace stops at the time limit';
  return '';
}

const key = (r, c) => `${r},${c}`;

/** A placement (the queen's row in each column, from the left) in words: "rows 1 5 8 6 3 7 2
 * 4 (the queen's row in columns 1 to 8)", or its squares with chess coordinates on. */
export function placementWords(rows, n = rows.length) {
  if (chessNow(n)) return `queens on ${rows.map((r, i) => squareName(r, i + 1, n)).join(' ')}`;
  return `rows ${rows.join(' ')} (the queen's row in columns 1 to ${rows.length}, from the left)`;
}

export class QueensTrace {
  /** `trace`: from parseTrace; `n` the side; `weights` (optional) the squares' weights. */
  constructor(trace, weights = null) {
    this.n = trace.start ? trace.start.n : 8;
    this.given = (trace.start ? trace.start.given : []).map(([r, c]) => [r, c]);
    this.steps = trace.steps;
    this.end = trace.end;
    this.weights = weights;
    // Placements found up to each step.
    this.found = [0];
    for (const s of this.steps) this.found.push(this.found[this.found.length - 1] + (s.event === 'solution' ? 1 : 0));
    this.at = 0;
    this.queens = new Map();
    for (const [r, c] of this.given) this.queens.set(key(r, c), { r, c, given: true });
  }

  /** The solutions found up to step k, for the player's counter. */
  tally(k) {
    const found = this.found[Math.min(k, this.found.length - 1)];
    return `${found} solution${found === 1 ? '' : 's'} found`;
  }

  isSolution(k) {
    return k >= 1 && k <= this.steps.length && this.steps[k - 1].event === 'solution';
  }

  /** Moves the board to the state after step k. */
  seek(k) {
    while (this.at < k) {
      const s = this.steps[this.at];
      if (s.event === 'place') this.queens.set(key(...s.square), { r: s.square[0], c: s.square[1], given: false });
      if (s.event === 'remove') this.queens.delete(key(...s.square));
      this.at++;
    }
    while (this.at > k) {
      const s = this.steps[this.at - 1];
      if (s.event === 'place') this.queens.delete(key(...s.square));
      if (s.event === 'remove') this.queens.set(key(...s.square), { r: s.square[0], c: s.square[1], given: false });
      this.at--;
    }
  }

  /** The queens on the board after the current step, as [row, column] pairs (1-based), sorted. */
  placed() {
    return [...this.queens.values()].map((q) => [q.r, q.c]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  }

  /** The best sum of a placement found so far, on a weighted board. */
  best() {
    for (let i = this.at; i >= 1; i--) {
      const s = this.steps[i - 1];
      if (s.event === 'solution' && s.best !== undefined) return s.best;
    }
    return null;
  }

  /** The current sum of the weights under the queens, on a weighted board. */
  sum() {
    for (let i = this.at; i >= 1; i--) {
      const s = this.steps[i - 1];
      if (s.sum !== undefined) return s.sum;
    }
    return 0;
  }

  /** Draws the state on `board` (0-based squares) and returns a sentence that tells it. */
  draw(board) {
    board.clear();
    const n = this.n;
    const name = (r, c) => squareName(r, c, n);
    const rows = new Set();
    const sums = new Set();
    const diffs = new Set();
    const cols = new Set();
    for (const q of this.queens.values()) {
      rows.add(q.r);
      cols.add(q.c);
      sums.add(q.r + q.c);
      diffs.add(q.r - q.c);
    }
    if (this.weights && n <= 16) board.weights(this.weights);
    const step = this.at > 0 ? this.steps[this.at - 1] : null;
    for (let r = 1; r <= n; r++) {
      for (let c = 1; c <= n; c++) {
        if (this.queens.has(key(r, c))) continue;
        if (rows.has(r) || cols.has(c) || sums.has(r + c) || diffs.has(r - c)) {
          board.mark(r - 1, c - 1, 'attacked', true, 'attacked');
        }
      }
    }
    const solution = step && step.event === 'solution';
    for (const q of this.queens.values()) {
      const label = q.given ? 'given queen' : 'queen';
      board.glyph(q.r - 1, q.c - 1, q.given ? '\u2655' : '\u265B', label, q.given ? 'given' : '');
      if (q.given) board.mark(q.r - 1, q.c - 1, 'mark', true, 'given');
      if (solution) board.mark(q.r - 1, q.c - 1, 'solution', true, 'part of the solution');
    }
    const found = this.found[this.at];
    const counts = `${found} solution${found === 1 ? '' : 's'} found`;
    if (!step) {
      const board0 = this.given.length
        ? `the ${n}x${n} board with only the given queen${this.given.length > 1 ? 's' : ''} on it, on ${this.given.map(([r, c]) => name(r, c)).join(' and ')}`
        : `an empty ${n}x${n} board`;
      return `Before the search: ${board0}. The search fills the columns from the left, trying each row from the top.`;
    }
    // The search's last step, when the trace holds the whole search: nothing comes after it.
    const over = this.end && this.end.complete && this.at === this.steps.length
      ? ` The search is over: every placement has been tried, ${this.end.solutions} solution${this.end.solutions === 1 ? '' : 's'} found.`
      : '';
    const [r, c] = step.square || [0, 0];
    const weight = this.weights && step.square ? ` (weight ${this.weights[r - 1][c - 1]})` : '';
    const sum = step.sum !== undefined ? ` Sum under the queens: ${step.sum}.` : '';
    switch (step.event) {
      case 'place':
        board.mark(r - 1, c - 1, 'tried', true, 'just placed');
        return `Step ${this.at}: ${name(r, c)}${weight} is free: a queen goes there.${sum} ${counts}.`;
      case 'attacked': {
        board.mark(r - 1, c - 1, 'conflict', true, 'tried: conflict');
        for (const [qr, qc] of step.by) board.line(qr - 1, qc - 1, r - 1, c - 1, 'conflict-line');
        // Why: a queen attacks along her row, her column and her two diagonals.
        const why = (qr, qc) => (qr === r ? 'the same row' : qc === c ? 'the same column' : 'the same diagonal');
        const by = step.by.map(([qr, qc]) => `the queen on ${name(qr, qc)} (${why(qr, qc)})`).join(' and ');
        const then = r < n ? 'try the next row' : `no row is left in ${colName(c, n)}`;
        return `Step ${this.at}: ${name(r, c)} is attacked by ${by}: conflict, ${then}. ${counts}.${over}`;
      }
      case 'remove':
        board.mark(r - 1, c - 1, 'backtrack', true, 'queen just removed');
        // Right after a solution the last queen goes to look for more; otherwise every row
        // of the next free column has been tried.
        const before = this.at >= 2 ? this.steps[this.at - 2] : null;
        const why = before && before.event === 'solution'
          ? `the placement is complete, so the queen on ${name(r, c)} is removed to look for more solutions`
          : `every row of the next column has been tried, so the queen on ${name(r, c)} is removed`;
        return `Step ${this.at}: ${why} (backtrack).${sum} ${counts}.${over}`;
      case 'solution': {
        const best = step.best !== undefined ? ` Best sum so far: ${step.best}.` : '';
        return `Step ${this.at}: solution ${step.index}: ${placementWords(step.rows, n)}.${sum}${best}${over}`;
      }
      default:
        return `Step ${this.at}: ${WORDS[step.event] || step.event}.`;
    }
  }
}
