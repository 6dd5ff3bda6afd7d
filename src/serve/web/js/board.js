// Boards drawn as SVG: squares that can be clicked or reached with the keyboard (one tab stop,
// arrow keys move, Enter or Space activates), and layers for marks, pieces and arrows.

const NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element with attributes, appended to `parent` when given. */
export function svg(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export class Board {
  /**
   * options: rows, cols, rowLabel(r), colLabel(c), name(r, c) (the square's label for
   * people and its data-square), onActivate(r, c), onFocus(r, c), onBlur(r, c).
   */
  constructor(container, options) {
    this.options = options;
    this.container = container;
    this.build();
  }

  build() {
    const { rows, cols, rowLabel, colLabel, name } = this.options;
    this.container.replaceChildren();
    const root = svg('svg', {
      viewBox: `-0.6 -0.6 ${cols + 0.7} ${rows + 0.7}`,
      role: 'grid',
      'aria-label': this.options.label || 'board',
    }, this.container);
    this.root = root;
    const defs = svg('defs', {}, root);
    const marker = svg('marker', {
      id: `${this.container.id}-arrowhead`, viewBox: '0 0 10 10', refX: '8', refY: '5',
      markerWidth: '4', markerHeight: '4', orient: 'auto-start-reverse',
    }, defs);
    svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#2a6fb0' }, marker);
    this.arrowId = `${this.container.id}-arrowhead`;
    const small = rows > 16;
    for (let r = 0; r < rows; r++) {
      if (!small || r % 4 === 3) {
        const t = svg('text', { x: -0.3, y: r + 0.5, class: 'label' }, root);
        t.textContent = rowLabel(r);
      }
    }
    for (let c = 0; c < cols; c++) {
      if (!small || c % 4 === 3) {
        const t = svg('text', { x: c + 0.5, y: -0.3, class: 'label' }, root);
        t.textContent = colLabel(c);
      }
    }
    this.squares = [];
    const squares = svg('g', {}, root);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const g = svg('g', {
          class: 'sq', tabindex: r === 0 && c === 0 ? '0' : '-1', role: 'gridcell',
          'aria-label': name(r, c), 'data-square': name(r, c), 'data-r': r, 'data-c': c,
        }, squares);
        svg('rect', { x: c, y: r, width: 1, height: 1, class: (r + c) % 2 ? 'dark' : 'light' }, g);
        g.addEventListener('click', () => { this.focus(r, c); this.activate(r, c); });
        g.addEventListener('keydown', (e) => this.key(e, r, c));
        g.addEventListener('focus', () => this.options.onFocus && this.options.onFocus(r, c));
        g.addEventListener('blur', () => this.options.onBlur && this.options.onBlur(r, c));
        g.addEventListener('mouseenter', () => this.options.onFocus && this.options.onFocus(r, c));
        g.addEventListener('mouseleave', () => this.options.onBlur && this.options.onBlur(r, c));
        this.squares.push(g);
      }
    }
    this.under = svg('g', { 'pointer-events': 'none' }, root);
    this.pieces = svg('g', { 'pointer-events': 'none' }, root);
    this.over = svg('g', { 'pointer-events': 'none' }, root);
  }

  square(r, c) {
    return this.squares[r * this.options.cols + c];
  }

  activate(r, c) {
    if (this.options.onActivate) this.options.onActivate(r, c);
  }

  focus(r, c) {
    for (const s of this.squares) s.setAttribute('tabindex', '-1');
    const s = this.square(r, c);
    s.setAttribute('tabindex', '0');
    s.focus();
  }

  key(e, r, c) {
    const { rows, cols } = this.options;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[e.key]) {
      const [dr, dc] = moves[e.key];
      const nr = Math.min(rows - 1, Math.max(0, r + dr));
      const nc = Math.min(cols - 1, Math.max(0, c + dc));
      this.focus(nr, nc);
      e.preventDefault();
    } else if (e.key === 'Enter' || e.key === ' ') {
      this.activate(r, c);
      e.preventDefault();
    }
  }

  /** Removes every piece, mark and arrow. */
  clear() {
    this.under.replaceChildren();
    this.pieces.replaceChildren();
    this.over.replaceChildren();
    for (const s of this.squares) {
      s.classList.remove('mark', 'bad', 'checker', 'king-focus');
      s.removeAttribute('data-piece');
    }
  }

  /** Writes a glyph on a square; `piece` names it for people and tests (data-piece). */
  glyph(r, c, text, piece, cls = '') {
    const t = svg('text', { x: c + 0.5, y: r + 0.55, class: `glyph ${cls}` }, this.pieces);
    t.textContent = text;
    const s = this.square(r, c);
    s.setAttribute('data-piece', piece);
    s.setAttribute('aria-label', `${this.options.name(r, c)}: ${piece}`);
    return t;
  }

  /** Resets a square's label after its piece went. */
  unlabel(r, c) {
    const s = this.square(r, c);
    s.removeAttribute('data-piece');
    s.setAttribute('aria-label', this.options.name(r, c));
  }

  mark(r, c, cls, on = true) {
    this.square(r, c).classList.toggle(cls, on);
  }

  unmarkAll(cls) {
    for (const s of this.squares) s.classList.remove(cls);
  }

  /** An arrow from the centre of one square to another's. */
  arrow(r1, c1, r2, c2) {
    const dx = c2 - c1;
    const dy = r2 - r1;
    const len = Math.hypot(dx, dy) || 1;
    const shorten = 0.28;
    return svg('line', {
      x1: c1 + 0.5 + (dx / len) * shorten, y1: r1 + 0.5 + (dy / len) * shorten,
      x2: c2 + 0.5 - (dx / len) * shorten, y2: r2 + 0.5 - (dy / len) * shorten,
      class: 'arrow', 'marker-end': `url(#${this.arrowId})`,
    }, this.under);
  }
}
