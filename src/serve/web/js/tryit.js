// Try it yourself: the learner places queens on a board, and the page answers from the
// library. It shows the squares the queens attack (hatched), the queens that attack each other
// (in red, with dashed lines between them), and how many placements of n queens still extend
// the learner's: the count with given queens (`nqueens count N --fix R,C ...`) through
// `/api/nqueens/count`, or that none does. On a weighted board (the Sultan's), the sum under
// the learner's queens against the best sum of the placements that extend them (the library's
// list with given queens, `nqueens list 8 --fix R,C ...`) and the best of all.
import * as api from './api.js';
import { squareName } from './board.js';

const key = (r, c) => `${r},${c}`;

/** Why two queens attack each other: a queen attacks along her row, column and diagonals. */
function why([r1, c1], [r2, c2]) {
  if (r1 === r2) return 'they stand in the same row';
  if (c1 === c2) return 'they stand in the same column';
  return 'they stand on the same diagonal';
}
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The seconds a count may take before the page says it is too long to wait for. */
const TIME_LIMIT = 3;

export class TryIt {
  /** `status`: the element that says the answer (a live region). */
  constructor(status) {
    this.status = status;
    this.n = 8;
    this.queens = new Map();
    this.asked = 0;
  }

  /** An empty board of side n. */
  reset(n) {
    this.n = n;
    this.queens = new Map();
    this.asked++;
    this.status.textContent = '';
    delete this.status.dataset.solved;
  }

  /** Puts a queen on (r, c) (1-based), or takes her back. */
  toggle(r, c) {
    if (this.queens.has(key(r, c))) this.queens.delete(key(r, c));
    else this.queens.set(key(r, c), [r, c]);
  }

  /** The queens, sorted by column then row, as `ROW,COL` texts. */
  fixes() {
    return [...this.queens.values()].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([r, c]) => `${r},${c}`);
  }

  /** The pairs of queens that attack each other. */
  conflicts() {
    const qs = [...this.queens.values()];
    const pairs = [];
    for (let i = 0; i < qs.length; i++) {
      for (let j = i + 1; j < qs.length; j++) {
        const [r1, c1] = qs[i];
        const [r2, c2] = qs[j];
        if (r1 === r2 || c1 === c2 || r1 - c1 === r2 - c2 || r1 + c1 === r2 + c2) pairs.push([qs[i], qs[j]]);
      }
    }
    return pairs;
  }

  /** Draws the learner's queens and what they attack on `board` (0-based squares). */
  draw(board) {
    this.board = board;
    board.clear();
    const qs = [...this.queens.values()];
    for (let r = 1; r <= this.n; r++) {
      for (let c = 1; c <= this.n; c++) {
        if (this.queens.has(key(r, c))) continue;
        if (qs.some(([qr, qc]) => qr === r || qc === c || qr - qc === r - c || qr + qc === r + c)) {
          board.mark(r - 1, c - 1, 'attacked', true, 'attacked');
        }
      }
    }
    const attacked = new Set();
    for (const [[r1, c1], [r2, c2]] of this.conflicts()) {
      attacked.add(key(r1, c1));
      attacked.add(key(r2, c2));
      board.line(r1 - 1, c1 - 1, r2 - 1, c2 - 1, 'conflict-line');
    }
    for (const [r, c] of qs) {
      board.glyph(r - 1, c - 1, '\u265B', 'queen');
      if (attacked.has(key(r, c))) board.mark(r - 1, c - 1, 'conflict', true, 'attacked by another queen');
    }
  }

  /**
   * On a weighted board (`weights[r][c]`, 0-based): the sum under the learner's queens, and
   * the best sum of a placement of n queens that keeps them, from the library's list of the
   * placements with these queens given; `best` is the best of all (the judge's answer).
   */
  async answerWeighted(weights, best) {
    const asked = ++this.asked;
    delete this.status.dataset.solved;
    const n = this.n;
    const qs = [...this.queens.values()];
    const k = qs.length;
    const sum = qs.reduce((acc, [r, c]) => acc + weights[r - 1][c - 1], 0);
    const placed = k ? `${plural(k, 'queen')} placed, sum ${sum}` : 'No queen placed yet';
    const pairs = this.conflicts();
    if (pairs.length) {
      const [[r1, c1], [r2, c2]] = pairs[0];
      this.status.textContent = `${placed}: the queens on ${squareName(r1, c1, n)} and ${squareName(r2, c2, n)} attack each other (${why([r1, c1], [r2, c2])}), so no placement of ${n} queens keeps them. Take a queen back.`;
      return;
    }
    this.status.textContent = `${placed}: asking for the placements that keep them\u2026`;
    let said;
    let sums = [];
    try {
      const lines = await api.getLines('nqueens/list', { n, fix: this.fixes(), limit: 100, time_limit: TIME_LIMIT });
      sums = lines.map((p) => p.rows.reduce((acc, r, c) => acc + weights[r - 1][c], 0));
      if (!sums.length) {
        said = `${placed}: no placement of ${n} queens keeps them (the library lists none). Take a queen back.`;
      } else {
        const top = Math.max(...sums);
        const of = `${plural(sums.length, 'placement')} of ${n} queens keep${sums.length === 1 ? 's' : ''} them`;
        const all = best === null ? '' : top === best ? '; that is the best of all' : `; the best of all is ${best}`;
        said = k === n
          ? `${placed}: solved, a placement of ${n} queens, none attacked; its sum is ${sum}${all}.`
          : `${placed}: ${of}; the best of them sums to ${top}${all}.`;
      }
    } catch (e) {
      said = `${placed}: the library's list failed: ${e.message}`;
    }
    if (asked === this.asked) {
      this.status.textContent = said;
      if (k === n && sums.length) this.showSolved();
    }
  }

  /** A full board that no queen attacks: its queens marked as a solution. */
  showSolved() {
    if (!this.board) return;
    for (const [r, c] of this.queens.values()) this.board.mark(r - 1, c - 1, 'solution', true, 'part of the solution');
    this.status.dataset.solved = 'true';
  }

  /** Asks the library how many placements extend the learner's, and says it. */
  async answer() {
    const asked = ++this.asked;
    delete this.status.dataset.solved;
    const n = this.n;
    const k = this.queens.size;
    const placed = k ? `${plural(k, 'queen')} placed` : 'No queen placed yet';
    const pairs = this.conflicts();
    if (pairs.length) {
      const [[r1, c1], [r2, c2]] = pairs[0];
      this.status.textContent = `${placed}: the queens on ${squareName(r1, c1, n)} and ${squareName(r2, c2, n)} attack each other (${why([r1, c1], [r2, c2])}), so no placement of ${n} queens extends this one. Take a queen back.`;
      return;
    }
    if (k > n) return;
    this.status.textContent = `${placed}: counting the placements that extend it\u2026`;
    let said;
    let solved = false;
    try {
      const text = await api.get('nqueens/count', { n, fix: this.fixes(), time_limit: TIME_LIMIT });
      // The count may exceed what a JavaScript number holds exactly: keep its digits.
      const digits = (/"count":(\d+)/.exec(text) || [null, null])[1];
      if (digits === null) said = `${placed}: no count in the answer.`;
      else if (digits === '0') said = `${placed}: no placement of ${n} queens extends it (the library counted 0). Take a queen back.`;
      else if (k === n) {
        said = `${placed}: solved! A placement of ${n} queens, no queen attacks another.`;
        solved = true;
      }
      else said = `${placed}, ${n - k} to go: ${digits} placement${digits === '1' ? '' : 's'} of ${n} queens extend${digits === '1' ? 's' : ''} it (the library's count with these queens given).`;
    } catch (e) {
      if (e.status === 504) said = `${placed}: too many placements to count in ${TIME_LIMIT} s; place more queens.`;
      else if (e.status) said = `${placed}: the count was refused: ${e.message.slice(0, 200)}`;
      else said = `${placed}: the count failed: ${e.message}`;
    }
    // A later placement has its own answer.
    if (asked === this.asked) {
      this.status.textContent = said;
      if (solved) this.showSolved();
    }
  }
}
