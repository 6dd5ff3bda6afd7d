// Boards drawn as SVG: a grid of squares that can be clicked or reached with the keyboard (one
// tab stop, arrow keys move the cursor, Home/End and Page Up/Down jump, Enter or Space
// activates), and layers for marks, pieces and arrows. Every square and piece has a name for
// screen readers, and every mark a symbol as well as a colour.

const NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element with attributes, appended to `parent` when given. */
export function svg(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * The marks a square can carry: a class for its colour, and a symbol drawn on it where the
 * colour alone would be the only signal (attacked squares are hatched instead: a texture).
 */
const MARKS = {
  mark: '',
  bad: '\u2716',
  checker: '',
  'king-focus': '',
  attacked: '',
  tried: '?',
  conflict: '!',
  backtrack: '\u21b6',
  solution: '',
  layer: '',
  'layer-new': '',
  again: '\u21bb',
  goal: '\u2605',
  visited: '',
};

// Chess coordinates (files a-h from the left, ranks 8-1 from the top) on every 8x8 board
// that numbers rows and columns as its statement does, when the page's option is on.
const FILES = 'abcdefgh';
const boards = new Set();
let chess = false;

/** Turns the chess coordinates on or off on every board, and tells the views (the event
 * `chess-coordinates` on the document), which write their sentences again. */
export function setChessCoordinates(on) {
  chess = on;
  for (const b of [...boards]) {
    if (b.root.isConnected) b.drawLabels();
    else boards.delete(b);
  }
  document.dispatchEvent(new Event('chess-coordinates'));
}

// Sentences name squares as the board labels them: "row 8, column 6" (1-based, as the
// statements number them), or "f1" when the chess coordinates are on and the board is 8x8.
const chessFor = (n) => chess && n === 8;

/** Whether sentences about an n-by-n board use chess coordinates now. */
export const chessNow = (n = 8) => chessFor(n);

/** A square's name in sentences (1-based row and column, on an n-by-n board). */
export function squareName(r, c, n = 8) {
  return chessFor(n) ? `${FILES[c - 1]}${9 - r}` : `row ${r}, column ${c}`;
}

/** A row's name in sentences: "row 8", or "rank 1". */
export function rowName(r, n = 8) {
  return chessFor(n) ? `rank ${9 - r}` : `row ${r}`;
}

/** Rows a..b in sentences: "rows 6\u20138" ("ranks 3\u20131"), "row 8", or "none". */
export function rowRange(a, b, n = 8) {
  if (a > b) return 'none';
  if (a === b) return rowName(a, n);
  return chessFor(n) ? `ranks ${9 - a}\u2013${9 - b}` : `rows ${a}\u2013${b}`;
}

/** A column's name in sentences: "column 6", or "file f". */
export function colName(c, n = 8) {
  return chessFor(n) ? `file ${FILES[c - 1]}` : `column ${c}`;
}

export class Board {
  /**
   * options: rows, cols, label, rowLabel(r), colLabel(c), name(r, c) (the square's label for
   * people and its data-square), onActivate(r, c), onFocus(r, c), onBlur(r, c).
   */
  constructor(container, options) {
    this.options = options;
    this.container = container;
    this.cursor = [0, 0];
    this.build();
  }

  build() {
    const { rows, cols, name } = this.options;
    this.container.replaceChildren();
    const root = svg('svg', {
      viewBox: `-0.6 -0.6 ${cols + 0.7} ${rows + 0.7}`,
      role: 'grid',
      'aria-label': this.options.label || 'board',
      'aria-rowcount': rows,
      'aria-colcount': cols,
    }, this.container);
    this.root = root;
    const defs = svg('defs', {}, root);
    const marker = svg('marker', {
      id: `${this.container.id}-arrowhead`, viewBox: '0 0 10 10', refX: '8', refY: '5',
      markerWidth: '4', markerHeight: '4', orient: 'auto-start-reverse',
    }, defs);
    svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#2a6fb0' }, marker);
    this.arrowId = `${this.container.id}-arrowhead`;
    this.labels = svg('g', { 'aria-hidden': 'true', class: 'edge-labels' }, root);
    boards.add(this);
    this.squares = [];
    this.symbols = [];
    const grid = svg('g', {}, root);
    for (let r = 0; r < rows; r++) {
      const row = svg('g', { role: 'row', 'aria-rowindex': r + 1 }, grid);
      for (let c = 0; c < cols; c++) {
        const g = svg('g', {
          class: 'sq', tabindex: r === 0 && c === 0 ? '0' : '-1', role: 'gridcell',
          'aria-colindex': c + 1, 'aria-label': name(r, c), 'data-square': name(r, c),
          'data-r': r, 'data-c': c,
        }, row);
        svg('rect', { x: c, y: r, width: 1, height: 1, class: (r + c) % 2 ? 'dark' : 'light' }, g);
        g.addEventListener('click', () => { this.focus(r, c); this.activate(r, c); });
        g.addEventListener('keydown', (e) => this.key(e, r, c));
        g.addEventListener('focus', () => this.options.onFocus && this.options.onFocus(r, c));
        g.addEventListener('blur', () => this.options.onBlur && this.options.onBlur(r, c));
        g.addEventListener('mouseenter', () => this.options.onFocus && this.options.onFocus(r, c));
        g.addEventListener('mouseleave', () => this.options.onBlur && this.options.onBlur(r, c));
        this.squares.push(g);
        this.symbols.push(null);
      }
    }
    this.under = svg('g', { 'pointer-events': 'none', 'aria-hidden': 'true' }, root);
    this.pieces = svg('g', { 'pointer-events': 'none', 'aria-hidden': 'true' }, root);
    // Weights are written over the pieces (with a halo), so a queen never hides the weight
    // she stands on.
    this.weightsLayer = svg('g', { 'pointer-events': 'none', 'aria-hidden': 'true', class: 'weights-layer' }, root);
    this.marks = svg('g', { 'pointer-events': 'none', 'aria-hidden': 'true' }, root);
    this.over = svg('g', { 'pointer-events': 'none', 'aria-hidden': 'true' }, root);
    this.drawLabels();
  }

  /** Whether this board shows chess coordinates now (8x8, numbered like its statement, and
   * not a board that keeps its statement's rows and columns: `coordinates: false`). */
  chessNow() {
    return chess && this.options.rows === 8 && this.options.cols === 8 && !this.options.chess
      && this.options.coordinates !== false;
  }

  /** The row and column labels at the board's edges. */
  drawLabels() {
    const { rows, cols, rowLabel, colLabel } = this.options;
    const c8 = this.chessNow();
    this.labels.replaceChildren();
    const every = Math.max(rows, cols) > 16 ? 4 : 1;
    for (let r = 0; r < rows; r++) {
      if (every === 1 || r % every === every - 1) {
        const t = svg('text', { x: -0.3, y: r + 0.5, class: 'label' }, this.labels);
        t.textContent = c8 ? String(8 - r) : rowLabel(r);
      }
    }
    for (let c = 0; c < cols; c++) {
      if (every === 1 || c % every === every - 1) {
        const t = svg('text', { x: c + 0.5, y: -0.3, class: 'label' }, this.labels);
        t.textContent = c8 ? FILES[c] : colLabel(c);
      }
    }
    for (let i = 0; i < this.squares.length; i++) this.describe(Math.floor(i / cols), i % cols);
  }

  square(r, c) {
    return this.squares[r * this.options.cols + c];
  }

  activate(r, c) {
    if (this.options.onActivate) this.options.onActivate(r, c);
  }

  /** Moves the cursor (the one square in the tab order) to r, c and focuses it. */
  focus(r, c) {
    const [pr, pc] = this.cursor;
    const previous = this.square(pr, pc);
    if (previous) previous.setAttribute('tabindex', '-1');
    this.cursor = [r, c];
    const s = this.square(r, c);
    s.setAttribute('tabindex', '0');
    s.focus();
  }

  key(e, r, c) {
    const { rows, cols } = this.options;
    const moves = {
      ArrowUp: [r - 1, c], ArrowDown: [r + 1, c], ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1],
      Home: [r, 0], End: [r, cols - 1], PageUp: [0, c], PageDown: [rows - 1, c],
    };
    if (moves[e.key]) {
      const [nr, nc] = moves[e.key];
      this.focus(Math.min(rows - 1, Math.max(0, nr)), Math.min(cols - 1, Math.max(0, nc)));
      e.preventDefault();
      e.stopPropagation();
    } else if (e.key === 'Enter' || e.key === ' ') {
      this.activate(r, c);
      e.preventDefault();
      e.stopPropagation();
    }
  }

  /** Removes every piece, mark and arrow, and resets the squares' names. */
  clear() {
    this.under.replaceChildren();
    this.pieces.replaceChildren();
    this.weightsLayer.replaceChildren();
    this.marks.replaceChildren();
    this.over.replaceChildren();
    for (let i = 0; i < this.squares.length; i++) {
      const s = this.squares[i];
      for (const cls of Object.keys(MARKS)) s.classList.remove(cls);
      s.removeAttribute('data-piece');
      s.removeAttribute('data-marks');
      this.symbols[i] = null;
      this.describe(Math.floor(i / this.options.cols), i % this.options.cols);
    }
  }

  /** The square's name for people: its name, its piece and its marks. */
  describe(r, c) {
    const s = this.square(r, c);
    const parts = [this.chessNow() ? `${this.options.name(r, c)} (${FILES[c]}${8 - r})` : this.options.name(r, c)];
    if (s.dataset.piece) parts.push(s.dataset.piece);
    if (s.dataset.marks) parts.push(s.dataset.marks);
    s.setAttribute('aria-label', parts.join(': '));
  }

  /** Writes a glyph on a square; `piece` names it for people and tests (data-piece). */
  glyph(r, c, text, piece, cls = '') {
    const t = svg('text', { x: c + 0.5, y: r + 0.55, class: `glyph ${cls}` }, this.pieces);
    t.textContent = text;
    const s = this.square(r, c);
    s.setAttribute('data-piece', piece);
    this.describe(r, c);
    return t;
  }

  /** Resets a square's label after its piece went. */
  unlabel(r, c) {
    const s = this.square(r, c);
    s.removeAttribute('data-piece');
    this.describe(r, c);
  }

  /**
   * Marks a square (`cls`: its colour); `words`, when given, are added to its name for screen
   * readers; a mark with a symbol draws it too, so that colour is never the only signal.
   */
  mark(r, c, cls, on = true, words = '') {
    const s = this.square(r, c);
    s.classList.toggle(cls, on);
    if (!on) return;
    if (words) {
      s.dataset.marks = s.dataset.marks ? `${s.dataset.marks}, ${words}` : words;
      this.describe(r, c);
    }
    const symbol = MARKS[cls];
    if (symbol) {
      const t = svg('text', { x: c + 0.84, y: r + 0.2, class: `mark-symbol ${cls}` }, this.marks);
      t.textContent = symbol;
    }
  }

  unmarkAll(cls) {
    for (const s of this.squares) s.classList.remove(cls);
    this.marks.querySelectorAll(`.mark-symbol.${cls}`).forEach((n) => n.remove());
  }

  /** Writes each square's weight (`weights[r][c]`) small at its foot, over any piece. */
  weights(weights) {
    weights.forEach((row, r) => row.forEach((w, c) => {
      const t = svg('text', { x: c + 0.5, y: r + 0.86, class: 'weight', 'data-r': r, 'data-c': c }, this.weightsLayer);
      t.textContent = String(w);
    }));
  }

  /** An arrow from the centre of one square to another's. */
  arrow(r1, c1, r2, c2, cls = 'arrow') {
    const dx = c2 - c1;
    const dy = r2 - r1;
    const len = Math.hypot(dx, dy) || 1;
    const shorten = 0.28;
    return svg('line', {
      x1: c1 + 0.5 + (dx / len) * shorten, y1: r1 + 0.5 + (dy / len) * shorten,
      x2: c2 + 0.5 - (dx / len) * shorten, y2: r2 + 0.5 - (dy / len) * shorten,
      class: cls, 'marker-end': `url(#${this.arrowId})`,
    }, this.under);
  }

  /** A line between two square centres (a conflict, a check). */
  line(r1, c1, r2, c2, cls) {
    return svg('line', { x1: c1 + 0.5, y1: r1 + 0.5, x2: c2 + 0.5, y2: r2 + 0.5, class: cls }, this.under);
  }
}
