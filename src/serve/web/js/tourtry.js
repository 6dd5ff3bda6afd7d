// Try it yourself on the Traveling Queen: the learner moves the queen (a click, or Enter on
// the square under the cursor), and every move is checked by the library through the server
// (`/api/tour/walk`: a queen line over empty squares onto an empty square, as the statement
// says), which also names the knights each stop visits and gives the shortest tour that the
// search finds, to compare the learner's with when it is complete.
import * as api from './api.js';

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const list = (names) => names.join(', ');

export class TourTry {
  /**
   * options: status (the sentence, a live region), board (the Board), input() (the judge
   * input of the board), drawPieces(queenAt), drawPath(squares), fromName(name).
   */
  constructor(options) {
    this.o = options;
    this.moves = [];
    this.walk = null;
    this.refused = null;
    this.asked = 0;
    // The learner's clicks are answered in order, one request at a time.
    this.queue = Promise.resolve();
  }

  /** Runs `action` after the actions asked before it. */
  later(action) {
    this.queue = this.queue.then(action, action);
    return this.queue;
  }

  /** A fresh try from the queen's square. */
  start() {
    return this.later(async () => {
      this.moves = [];
      this.refused = null;
      this.walk = null;
      this.o.status.textContent = 'Asking the library for the board\u2026';
      await this.ask([]);
    });
  }

  /** Leaves the try: forgets its moves. */
  stop() {
    this.asked++;
    this.moves = [];
    this.walk = null;
    this.o.status.textContent = '';
  }

  /** The queen's square now (a name). */
  at() {
    const stops = this.walk ? this.walk.stops : [];
    return stops.length ? stops[stops.length - 1].square : null;
  }

  /** The learner moves the queen to the square `name`: the library checks the move. */
  move(name) {
    return this.later(async () => {
      if (!this.walk) return;
      if (name === this.at()) {
        this.o.status.textContent = `The queen already stands on ${name}: choose another square to move her to.`;
        return;
      }
      await this.ask([...this.moves, name]);
    });
  }

  /** Takes the last move back. */
  undo() {
    return this.later(async () => {
      if (!this.walk || !this.moves.length) return;
      await this.ask(this.moves.slice(0, -1));
    });
  }

  /** Sends `moves` to the library; keeps them when every one is legal. */
  async ask(moves) {
    const asked = ++this.asked;
    let lines;
    try {
      lines = await api.postJson('tour/walk', { input: this.o.input(), moves });
    } catch (e) {
      if (asked === this.asked) this.o.status.textContent = `The library could not check the move: ${e.message}`;
      return;
    }
    if (asked !== this.asked) return;
    const walk = lines[0];
    if (walk.illegal) {
      // The move is refused: the queen stays where she was.
      this.refused = walk.illegal;
    } else {
      this.refused = null;
      this.moves = moves;
      this.walk = walk;
    }
    if (!this.walk) this.walk = walk;
    this.draw();
  }

  /** Draws the learner's tour and says where it stands. */
  draw() {
    const { board, fromName } = this.o;
    const walk = this.walk;
    const stops = walk.stops.map((s) => s.square);
    this.o.drawPieces(this.at());
    this.o.drawPath(stops);
    const visited = walk.stops.flatMap((s) => s.knights);
    for (const name of visited) {
      const [r, c] = fromName(name);
      board.mark(r, c, 'visited', true, 'knight visited');
    }
    if (walk.complete) {
      const [r, c] = fromName(this.at());
      board.mark(r, c, 'goal', true, 'the tour ends here');
    }
    this.o.status.dataset.moves = String(this.moves.length);
    this.o.status.dataset.visited = list(visited);
    this.o.status.dataset.complete = String(walk.complete);
    const shortest = walk.shortest;
    let said;
    if (this.refused) {
      const [r, c] = fromName(this.refused.square);
      board.mark(r, c, 'bad', true, 'refused move');
      said = `Refused: ${this.refused.why}. The queen stays on ${this.at()}; choose another square.`;
    } else if (!this.moves.length) {
      said = `Your tour: the queen stands on ${this.at()}. Move her (click a square, or press Enter on it) to stand next to every knight, then next to the bishop.`;
    } else {
      const last = walk.stops[walk.stops.length - 1];
      const met = last.knights.length ? ` She visits the knight${last.knights.length > 1 ? 's' : ''} on ${list(last.knights)}.` : '';
      said = `Move ${this.moves.length}: the queen goes to ${last.square}.${met}`;
    }
    const tally = walk.unvisited.length
      ? ` Knights visited: ${visited.length ? list(visited) : 'none'}; still to visit: ${list(walk.unvisited)}.`
      : ` Every knight visited${walk.next_to_bishop ? '' : '; now end next to the bishop'}.`;
    let compare = '';
    if (!shortest) {
      compare = ' The library finds no tour on this board: some knight or the bishop cannot be reached.';
    } else if (walk.complete) {
      const n = this.moves.length;
      const mine = this.moves.length ? [walk.stops[0].square, ...this.moves] : [walk.stops[0].square];
      const same = mine.join('') === shortest.path.join('');
      const verdict = same
        ? 'the same path as the judge\u2019s answer'
        : n === shortest.moves
          ? 'as short as the shortest; the judge\u2019s answer is the first of them in the statement\u2019s order'
          : `${plural(n - shortest.moves, 'move')} longer than the shortest`;
      compare = ` Your tour is complete: ${plural(n, 'move')}. The library\u2019s shortest tour has ${plural(shortest.moves, 'move')} (${shortest.path.join(' ')}): yours is ${verdict}.`;
    } else {
      compare = ` The shortest tour has ${plural(shortest.moves, 'move')}.`;
    }
    this.o.status.textContent = `${said}${walk.complete ? '' : tally}${compare}`;
  }
}
