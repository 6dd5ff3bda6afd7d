// Traveling Queen (POJ 2919): place the pieces, solve, the stops numbered and the queen's
// moves drawn as arrows, played as an animation.
import * as api from './api.js';
import { Board, svg } from './board.js';
import { makeIo } from './io.js';

const SAMPLE = [
  '.......Q',
  '...P.P..',
  '...PNP..',
  '..NP.P..',
  '........',
  '........',
  '..B.....',
  '........',
];
const GLYPHS = { Q: '\u265B', B: '\u265D', N: '\u265E', P: '\u265F' };
const NAMES = { Q: 'queen', B: 'bishop', N: 'knight', P: 'pawn' };
const files = 'abcdefgh';
const squareName = (r, c) => `${files[c]}${8 - r}`;
const fromName = (name) => [8 - Number(name[1]), files.indexOf(name[0])];

export function init() {
  let grid = SAMPLE.map((row) => row.split(''));
  let path = null;
  let animation = null;
  const result = document.getElementById('tour-result');
  const detail = document.getElementById('tour-detail');
  const play = document.getElementById('tour-play');
  const io = makeIo('tour', (text) => solveInput(text));
  const board = new Board(document.getElementById('tour-board'), {
    rows: 8, cols: 8, label: 'Traveling Queen board',
    rowLabel: (r) => 8 - r, colLabel: (c) => files[c],
    name: squareName,
    onActivate: (r, c) => place(r, c),
  });

  function selected() {
    return document.querySelector('input[name="tour-piece"]:checked').value;
  }

  function place(r, c) {
    const piece = selected();
    if (piece === 'Q' || piece === 'B') {
      grid = grid.map((row) => row.map((x) => (x === piece ? '.' : x)));
    }
    grid[r][c] = grid[r][c] === piece && piece !== 'Q' && piece !== 'B' ? '.' : piece;
    path = null;
    stop();
    play.disabled = true;
    result.textContent = '\u2014';
    detail.textContent = '';
    draw();
    io.setInput(inputText());
  }

  function inputText() {
    return `1\n${grid.map((row) => row.join('')).join('\n')}\n\n`;
  }

  function draw() {
    board.clear();
    grid.forEach((row, r) => row.forEach((x, c) => {
      if (GLYPHS[x]) board.glyph(r, c, GLYPHS[x], NAMES[x]);
    }));
    if (!path) return;
    const stops = new Map();
    path.forEach((name, i) => {
      const list = stops.get(name) || [];
      list.push(i);
      stops.set(name, list);
    });
    for (let i = 1; i < path.length; i++) {
      const [r1, c1] = fromName(path[i - 1]);
      const [r2, c2] = fromName(path[i]);
      board.arrow(r1, c1, r2, c2);
    }
    for (const [name, list] of stops) {
      const [r, c] = fromName(name);
      const g = svg('g', { 'data-stop': list.join(',') }, board.over);
      svg('circle', { cx: c + 0.82, cy: r + 0.18, r: 0.17, class: 'stop-disc' }, g);
      const t = svg('text', { x: c + 0.82, y: r + 0.19, class: 'stop' }, g);
      t.textContent = list.join(',');
      board.mark(r, c, 'mark');
    }
  }

  async function solveInput(text) {
    const [json, judge, explained] = await Promise.all([
      api.jsonLines('tour', text),
      api.text('tour', text, { format: 'judge' }),
      api.jsonLines('tour/explain', text),
    ]);
    io.setOutput(judge);
    // Show the first scenario of the input on the board.
    const rows = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => /^[.QBNP]{8}$/.test(l));
    if (rows.length >= 8) grid = rows.slice(0, 8).map((row) => row.split(''));
    const first = json.objects[0];
    stop();
    path = first && first.possible ? first.path : null;
    draw();
    play.disabled = !path;
    if (!first) return;
    if (first.possible) {
      result.textContent = first.path.join('');
      detail.textContent = `${first.moves} move${first.moves === 1 ? '' : 's'}: ${first.path.join(' \u2192 ')}` +
        (json.objects.length > 1 ? ` (case 1 of ${json.objects.length})` : '');
    } else {
      result.textContent = 'impossible';
      const why = explained.objects[0] && explained.objects[0].unreachable;
      if (why) {
        const [r, c] = fromName(why.square);
        board.mark(r, c, 'bad');
        detail.textContent = `The queen can never stand next to the ${why.piece} on ${why.square}: every square around it is out of her reach.`;
      } else {
        detail.textContent = 'No tour exists.';
      }
    }
  }

  function stop() {
    if (animation) cancelAnimationFrame(animation);
    animation = null;
    board.over.querySelectorAll('.walker').forEach((n) => n.remove());
  }

  function animate() {
    stop();
    if (!path) return;
    const points = path.map(fromName);
    const walker = svg('text', { class: 'walker' }, board.over);
    walker.textContent = '\u265B';
    const perMove = 700;
    const [r0, c0] = points[0];
    walker.setAttribute('x', c0 + 0.5);
    walker.setAttribute('y', r0 + 0.55);
    let start = null;
    const frame = (now) => {
      // The first frame's time is the start (a frame's time may precede the click's).
      if (start === null) start = now;
      const t = Math.max(0, (now - start) / perMove);
      const i = Math.min(Math.floor(t), points.length - 1);
      const f = i >= points.length - 1 ? 0 : t - i;
      const [r1, c1] = points[i];
      const [r2, c2] = points[Math.min(i + 1, points.length - 1)];
      walker.setAttribute('x', c1 + (c2 - c1) * f + 0.5);
      walker.setAttribute('y', r1 + (r2 - r1) * f + 0.55);
      if (t < points.length - 1) animation = requestAnimationFrame(frame);
      else animation = null;
    };
    animation = requestAnimationFrame(frame);
  }

  document.getElementById('tour-solve').addEventListener('click', () => {
    const text = inputText();
    io.setInput(text);
    io.run(() => solveInput(text));
  });
  document.getElementById('tour-sample').addEventListener('click', () => {
    grid = SAMPLE.map((row) => row.split(''));
    path = null;
    stop();
    draw();
    io.setInput(inputText());
  });
  document.getElementById('tour-clear').addEventListener('click', () => {
    grid = Array.from({ length: 8 }, () => Array(8).fill('.'));
    path = null;
    stop();
    draw();
    io.setInput(inputText());
  });
  play.addEventListener('click', animate);
  draw();
  io.setInput(inputText());
}
