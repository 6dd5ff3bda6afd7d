// The trace of `showdown --trace` for one test, replayed: the board after any step (its
// pieces, the kings left unchecked, the cost, the bound known so far) and a sentence for
// people that says what the step did and why.

const NAMES = ['bishop', 'rook', 'knight', 'gold general', 'silver general', 'horse', 'phoenix', 'cannon'];
// A copy of the state every this many steps, so that any step is reached quickly.
const EVERY = 256;

/** The name of the piece of type `t` (1..8). */
export function pieceName(t) {
  return NAMES[t - 1] || `piece ${t}`;
}

/** Kings ([row, col] from 1) as words, the first eight named. */
export function kingList(squares) {
  const named = squares.slice(0, 8).map(([r, c]) => `row ${r}, column ${c}`);
  const more = squares.length - named.length;
  return named.join('; ') + (more > 0 ? ` and ${more} more` : '');
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

export class ShowdownTrace {
  /** `lines`: the trace's lines of one test; `kings`: the kings' keys; `key(r, c)` 0-based. */
  constructor(lines, kings, key) {
    this.key = key;
    this.steps = lines.filter((l) => l.step !== undefined);
    this.end = lines.find((l) => l.event === 'end') || null;
    this.kings = kings;
    this.state = this.initial();
    this.at = 0;
    this.saved = [this.copy()];
  }

  initial() {
    return { pieces: new Map(), open: new Set(this.kings), cost: 0, bound: null };
  }

  copy() {
    return { pieces: new Map(this.state.pieces), open: new Set(this.state.open), cost: this.state.cost, bound: this.state.bound };
  }

  /** Applies step `i` (from 1). */
  apply(i) {
    const l = this.steps[i - 1];
    const s = this.state;
    const k = ([r, c]) => this.key(r - 1, c - 1);
    if (l.event === 'bound') s.bound = l.bound;
    if (l.event === 'exact' && l.bound !== undefined) s.bound = l.bound;
    if (l.event === 'add' || l.event === 'swap') s.pieces.set(k(l.square), l.type);
    if (l.event === 'remove') s.pieces.delete(k(l.square));
    if (l.checked) for (const q of l.checked) s.open.delete(k(q));
    if (l.lost) for (const q of l.lost) s.open.add(k(q));
    if (l.pieces) {
      s.pieces = new Map(l.pieces.map((p) => [this.key(p.row - 1, p.col - 1), p.type]));
      s.open = new Set(l.open.map(k));
    }
    if (l.cost !== undefined) s.cost = l.cost;
  }

  /** Moves the state to after step `k` (0: the empty board). */
  seek(k) {
    if (k < this.at) {
      const from = Math.floor(k / EVERY);
      const c = this.saved[from];
      this.state = { pieces: new Map(c.pieces), open: new Set(c.open), cost: c.cost, bound: c.bound };
      this.at = from * EVERY;
    }
    while (this.at < k) {
      this.at += 1;
      this.apply(this.at);
      if (this.at % EVERY === 0 && this.saved.length === this.at / EVERY) this.saved.push(this.copy());
    }
  }

  pieces() { return this.state.pieces; }
  unchecked() { return [...this.state.open]; }
  cost() { return this.state.cost; }
  bound() { return this.state.bound; }
  current() { return this.at > 0 ? this.steps[this.at - 1] : null; }

  /** Step k begins a phase: the bound, the first piece, the exact search, a search, a jump, or the last step. */
  isLandmark(k) {
    const l = this.steps[k - 1];
    if (!l) return false;
    const before = this.steps[k - 2];
    return k === this.steps.length || ['bound', 'exact', 'search', 'jump'].includes(l.event)
      || (before !== undefined && before.phase !== l.phase);
  }

  /** What step k did, for people. */
  sentence(k) {
    if (k === 0) {
      return `The empty board: ${plural(this.kings.size, 'king')}, none in check. Step through the optimiser: the lower bound, the first answer built piece by piece, then the search.`;
    }
    const l = this.steps[k - 1];
    let said = this.said(l);
    if (k === this.steps.length && this.end) {
      said += ` This is the final board, the optimiser's answer: cost ${this.end.cost}, lower bound ${this.end.lower_bound}${this.end.optimal ? ', so it is proven the cheapest' : ''}.`;
    }
    return said;
  }

  said(l) {
    const where = l.square ? `row ${l.square[0]}, column ${l.square[1]}` : '';
    const left = `Cost ${l.cost}; ${l.unchecked === 0 ? 'every king is in check' : `${plural(l.unchecked, 'king')} unchecked`}.`;
    const newly = l.checked && l.checked.length ? ` It newly checks ${plural(l.checked.length, 'king')}: ${kingList(l.checked)}.` : '';
    const lost = l.lost && l.lost.length ? ` It leaves ${plural(l.lost.length, 'king')} unchecked that ${l.lost.length === 1 ? 'was' : 'were'} in check: ${kingList(l.lost)}.` : '';
    switch (l.event) {
      case 'bound': {
        const king = l.king ? ` (the king on row ${l.king[0]}, column ${l.king[1]} can be checked by nothing cheaper than a ${l.piece}, price ${l.simple})` : '';
        const relaxed = l.relaxation === null || l.relaxation === undefined ? ''
          : ` Sharing out each piece's price among the kings it checks (as if a piece could be bought in parts) gives another bound: ${l.relaxation}.`;
        return `The lower bound is ${l.bound}: no answer can cost less. Every king needs a piece that checks it, so an answer costs at least the dearest king's cheapest checker, ${l.simple}${king}.${relaxed}`;
      }
      case 'add':
      case 'remove':
      case 'swap': {
        const what = l.event === 'swap'
          ? `replaces the ${l.from_piece} on ${where} by a ${l.piece}`
          : l.event === 'add' ? `places a ${l.piece} on ${where}` : `takes away the ${l.piece} on ${where}`;
        const who = {
          greedy: 'The greedy construction (the lowest price per newly checked king)',
          leaps: 'The greedy, cut short by its time, is completed: it',
          fallback: 'The simple answer (a horse beside each king)',
          prune: 'No king needs this piece any more: the pruning',
          search: 'The local search',
        }[l.phase] || 'The optimiser';
        return `${who} ${what}.${newly}${lost} ${left}`;
      }
      case 'exact':
        return l.outcome === 'optimal'
          ? `The board is small: the exact search (branch and bound) finds the cheapest answer, cost ${l.cost}, and proves it, so the lower bound rises to ${l.bound}.`
          : 'The board is small enough to try the exact search (branch and bound), but it runs out of nodes before it can conclude: the local search takes over.';
      case 'search':
        return `The local search starts from the first answer: it checks an unchecked king with the best move for its price, and takes away a piece when every king is in check, so as to find a cheaper answer (search ${l.search} of ${l.searches}, the one whose answer is kept; only its moves up to that answer are shown).`;
      case 'jump': {
        const why = {
          start: 'This search starts from its own randomised greedy answer.',
          kick: 'Kick: long without improvement, the search goes back to its best answer with a region of it cleared, to rebuild it differently.',
          restart: 'Restart: long without improvement, the search starts again from a new randomised greedy answer.',
          polish: 'A region of the best answer is cleared and checked again by the exact branch and bound, for less.',
          limit: 'The trace stops at its limit on steps: the board jumps to the answer.',
          answer: 'The board jumps to the answer.',
        }[l.why] || '';
        return `${why} ${left}`;
      }
      default:
        return '';
    }
  }
}
