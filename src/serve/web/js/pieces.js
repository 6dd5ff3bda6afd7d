// The showdown's eight pieces explained: each on a small board, with the squares it checks
// from the middle marked. The marks come from the judge itself (`/api/showdown/checks`): one
// test per square, a king there, asked whether the piece checks it. Some boards hold another
// king, so that the rules that need one are seen: the bishop's and the horse's slides stop at
// it, the phoenix leaps over it, the cannon needs it as its screen.
import * as api from './api.js';

const SIDE = 7;
const MIDDLE = 4; // 1-based row and column of the piece
// Per type, a king standing on the board besides the target, and what it shows.
const OTHERS = {
  1: [[2, 2], 'a king two squares up and left stops its slide'],
  6: [[2, 2], 'a king two squares up and left stops its slide; its one-square steps are the bishop\'s first step and a rook\'s'],
  7: [[3, 3], 'it leaps over the king up and left'],
  8: [[4, 6], 'a king two squares to its right is its screen'],
};
const NS = 'http://www.w3.org/2000/svg';

/** The rules in words, from the statement. */
const RULES = [
  'slides any distance diagonally.',
  'slides any distance along a row or a column.',
  'leaps two squares one way and one the other, over anything.',
  'steps one square in any direction but diagonally backwards (backwards: down the board).',
  'steps one square diagonally, or straight forwards (up the board).',
  'slides diagonally like the bishop, or steps one square in any direction.',
  'steps one square along a row or a column, or leaps two squares diagonally, over anything.',
  'slides along a row or a column, but checks only by jumping exactly one piece on the way (its screen).',
];

function node(name, attrs, parent) {
  const n = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (parent) parent.appendChild(n);
  return n;
}

/** The judge input: one 7x7 test per target square, a king on it (and the cannon's screen). */
function tests(type) {
  const targets = [];
  for (let r = 1; r <= SIDE; r++) {
    for (let c = 1; c <= SIDE; c++) {
      if (r === MIDDLE && c === MIDDLE) continue;
      if (OTHERS[type] && r === OTHERS[type][0][0] && c === OTHERS[type][0][1]) continue;
      targets.push([r, c]);
    }
  }
  const lines = [String(targets.length)];
  for (const [tr, tc] of targets) {
    lines.push(String(SIDE));
    for (let r = 1; r <= SIDE; r++) {
      let row = '';
      for (let c = 1; c <= SIDE; c++) {
        const other = OTHERS[type] && r === OTHERS[type][0][0] && c === OTHERS[type][0][1];
        const king = (r === tr && c === tc) || other;
        row += king ? '#' : '_';
      }
      lines.push(row);
    }
    lines.push('1 1 1 1 1 1 1 1');
  }
  // Last, the other king alone: whether the piece checks it (the king that stops a slide is
  // itself in check).
  if (OTHERS[type]) {
    lines[0] = String(targets.length + 1);
    lines.push(String(SIDE));
    for (let r = 1; r <= SIDE; r++) {
      let row = '';
      for (let c = 1; c <= SIDE; c++) row += r === OTHERS[type][0][0] && c === OTHERS[type][0][1] ? '#' : '_';
      lines.push(row);
    }
    lines.push('1 1 1 1 1 1 1 1');
  }
  return { targets, input: `${lines.join('\n')}\n` };
}

/** The squares the piece of `type` (1..8) checks from the middle, asked of the judge. */
async function reach(type) {
  const { targets, input } = tests(type);
  const answers = [...targets, ...(OTHERS[type] ? [OTHERS[type][0]] : [])].map(() => [[type, MIDDLE, MIDDLE]]);
  const judged = await api.postJson('showdown/checks', { input, answers });
  const checked = (i, [r, c]) => ((judged[i] && judged[i].kings) || []).some((k) => k.row === r && k.col === c && k.checked_by.length > 0);
  const squares = targets.filter((t, i) => checked(i, t));
  squares.otherChecked = OTHERS[type] ? checked(targets.length, OTHERS[type][0]) : false;
  return squares;
}

/**
 * Fills `root` (a <details> element's body) with one small board per piece, once, when the
 * panel is first opened. `pieces`: [letter, name] of the eight.
 */
export function piecesPanel(details, root, pieces) {
  let filled = false;
  details.addEventListener('toggle', async () => {
    if (!details.open || filled) return;
    filled = true;
    root.textContent = 'Asking the judge\u2026';
    try {
      const all = await Promise.all(pieces.map((_, i) => reach(i + 1)));
      root.replaceChildren();
      all.forEach((squares, i) => root.appendChild(card(i + 1, pieces[i], squares)));
      root.dataset.ready = 'true';
    } catch (e) {
      filled = false;
      root.textContent = `The pieces could not be drawn: ${e.message}`;
    }
  });
}

function card(type, [letter, name], squares) {
  const figure = document.createElement('figure');
  figure.className = 'piece-card';
  figure.dataset.piece = name;
  const svg = node('svg', {
    viewBox: `0 0 ${SIDE} ${SIDE}`, role: 'img',
    'aria-label': `The ${name} in the middle of a 7 by 7 board checks ${squares.length} squares` +
      (OTHERS[type] ? `; ${OTHERS[type][1]}${squares.otherChecked ? ', and checks that king' : ''}` : ''),
  });
  for (let r = 0; r < SIDE; r++) {
    for (let c = 0; c < SIDE; c++) {
      node('rect', { x: c, y: r, width: 1, height: 1, class: (r + c) % 2 ? 'dark' : 'light' }, svg);
    }
  }
  for (const [r, c] of squares) {
    node('circle', { cx: c - 0.5, cy: r - 0.5, r: 0.2, class: 'reach', 'data-square': `${r},${c}` }, svg);
  }
  if (OTHERS[type]) {
    const [[r, c]] = OTHERS[type];
    // The other king, ringed when the piece checks it.
    if (squares.otherChecked) node('circle', { cx: c - 0.5, cy: r - 0.5, r: 0.44, class: 'reach-king', 'data-square': `${r},${c}` }, svg);
    const t = node('text', { x: c - 0.5, y: r - 0.45, class: 'screen', 'data-other': `${r},${c}` }, svg);
    t.textContent = '\u265A';
  }
  node('circle', { cx: MIDDLE - 0.5, cy: MIDDLE - 0.5, r: 0.4, class: `p${type}` }, svg);
  const t = node('text', { x: MIDDLE - 0.5, y: MIDDLE - 0.48, class: 'letter' }, svg);
  t.textContent = letter;
  const caption = document.createElement('figcaption');
  const strong = document.createElement('strong');
  strong.textContent = `${letter} ${name}`;
  const ringed = squares.otherChecked ? ', and that king is in check (ringed)' : '';
  caption.append(strong, `: ${RULES[type - 1]}${OTHERS[type] ? ` Here ${OTHERS[type][1]}${ringed}.` : ''}`);
  figure.append(svg, caption);
  return figure;
}
