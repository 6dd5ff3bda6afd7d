// Traveling Queen (POJ 2919): place the pieces, find the tour (the stops numbered, the moves
// drawn as arrows, animated), and watch the breadth-first search from the trace the command
// line writes (`tour --trace`). Its states are a square and the knights visited on the way, so
// a square can come back in a later layer with other knights: each layer shows the squares
// reached for the first time apart from those reached again, every square numbered once (the
// layer that first reached it), the goal layer marked; then the path, the queen moving along.
// When the search cannot start (a piece out of the queen's reach), the trace shows where she
// can go at all, move by move.
import * as api from './api.js';
import { Board, svg } from './board.js';
import { makeIo } from './io.js';
import { Player } from './player.js';
import { StateError, makeShare, numberParam, writeState } from './share.js';
import { TourTry } from './tourtry.js';

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
  let trace = null;
  let searching = false;
  const result = document.getElementById('tour-result');
  const detail = document.getElementById('tour-detail');
  const play = document.getElementById('tour-play');
  const io = makeIo('tour', (text) => solveInput(text));
  const board = new Board(document.getElementById('tour-board'), {
    rows: 8, cols: 8, label: 'Traveling Queen board',
    rowLabel: (r) => 8 - r, colLabel: (c) => files[c],
    // Its statement already names squares as chess does.
    chess: true,
    name: squareName,
    onActivate: (r, c) => (trying ? io.run(() => tourTry.move(squareName(r, c))) : place(r, c)),
  });
  // Try it yourself: the learner moves the queen, each move checked by the library.
  let trying = false;
  const tryButton = document.getElementById('tour-try-mode');
  const tryControls = document.getElementById('tour-try-controls');
  const palette = document.getElementById('tour-palette');
  const tourTry = new TourTry({
    status: document.getElementById('tour-try'),
    board,
    input: () => inputText(),
    drawPieces: (at) => drawPieces(at),
    drawPath: (squares) => drawPath(squares),
    fromName,
  });
  const player = new Player(document.getElementById('tour-player'), {
    id: 'tour',
    sentenceIn: document.getElementById('tour-sentence'),
    show: (k) => showStep(k),
    // A breadth-first search has no solutions to step between: its stages are the last
    // layer (the goal, or where the search ran out) and the end of the path.
    landmarks: ['Previous stage', 'Next stage'],
    isSolution: (k) => trace !== null && (k === trace.layers.length || k === trace.steps.length),
    onChange: () => save(),
  });
  makeShare('tour', () => api.text('tour', inputText(), { format: 'svg' }), (m) => io.setError(m));

  /** A phone leaves out the palette while a search or a try is shown (style.css). */
  function stepping() {
    document.getElementById('view-tour').classList.toggle('stepping', searching || trying);
  }

  function save() {
    stepping();
    const s = { b: grid.map((row) => row.join('')).join('/') };
    if (searching) s.step = player.index;
    writeState('tour', s);
  }

  function selected() {
    return document.querySelector('input[name="tour-piece"]:checked').value;
  }

  function forget() {
    path = null;
    trace = null;
    searching = false;
    stop();
    player.load(0, '');
    play.disabled = true;
    result.textContent = '\u2014';
    detail.textContent = '';
  }

  function place(r, c) {
    const piece = selected();
    if (piece === 'Q' || piece === 'B') {
      grid = grid.map((row) => row.map((x) => (x === piece ? '.' : x)));
    }
    grid[r][c] = grid[r][c] === piece && piece !== 'Q' && piece !== 'B' ? '.' : piece;
    forget();
    draw();
    io.setInput(inputText());
    save();
  }

  function inputText() {
    return `1\n${grid.map((row) => row.join('')).join('\n')}\n\n`;
  }

  /** Draws the pieces; the queen on `queenAt` (a square's name) when given. */
  function drawPieces(queenAt = null) {
    board.clear();
    grid.forEach((row, r) => row.forEach((x, c) => {
      if (GLYPHS[x] && !(x === 'Q' && queenAt)) board.glyph(r, c, GLYPHS[x], NAMES[x]);
    }));
    if (queenAt) {
      const [r, c] = fromName(queenAt);
      board.glyph(r, c, GLYPHS.Q, NAMES.Q);
    }
  }

  /** Numbers the stops of `squares` (names) and draws the moves between them. */
  function drawPath(squares) {
    const stops = new Map();
    // The directions (from a square's centre) that a move in or out of it takes.
    const used = new Map();
    const use = (name, dr, dc) => {
      const list = used.get(name) || [];
      list.push([Math.sign(dr), Math.sign(dc)]);
      used.set(name, list);
    };
    squares.forEach((name, i) => {
      const list = stops.get(name) || [];
      list.push(i);
      stops.set(name, list);
      if (i > 0) {
        const [r1, c1] = fromName(squares[i - 1]);
        const [r2, c2] = fromName(name);
        use(squares[i - 1], r2 - r1, c2 - c1);
        use(name, r1 - r2, c1 - c2);
      }
    });
    // The numbers first, the arrows over them: a number never hides an arrowhead. Each
    // number sits in a corner of its square that no move takes (the top right when it can),
    // on a tag as wide as its text, inside the square.
    for (const [name, list] of stops) {
      const [r, c] = fromName(name);
      const taken = used.get(name) || [];
      const corners = [[-1, 1], [-1, -1], [1, 1], [1, -1]];
      const [dr, dc] = corners.find(([cr, cc]) => !taken.some(([tr, tc]) => tr === cr && tc === cc)) || corners[0];
      const g = svg('g', { 'data-stop': list.join(','), class: 'stop-tag' }, board.under);
      const tag = svg('rect', { height: 0.3, rx: 0.15, class: 'stop-disc' }, g);
      const t = svg('text', { class: 'stop' }, g);
      t.textContent = list.join(',');
      let width = 0.3;
      try {
        width = Math.max(0.3, t.getComputedTextLength() + 0.1);
      } catch {
        width = Math.max(0.3, 0.17 * t.textContent.length + 0.1);
      }
      width = Math.min(width, 0.98);
      const cx = dc > 0 ? c + 1 - 0.02 - width / 2 : c + 0.02 + width / 2;
      const cy = dr < 0 ? r + 0.18 : r + 0.82;
      tag.setAttribute('x', cx - width / 2);
      tag.setAttribute('y', cy - 0.15);
      tag.setAttribute('width', width);
      t.setAttribute('x', cx);
      t.setAttribute('y', cy + 0.01);
      board.mark(r, c, 'mark', true, `stop ${list.join(' and ')}`);
    }
    for (let i = 1; i < squares.length; i++) {
      const [r1, c1] = fromName(squares[i - 1]);
      const [r2, c2] = fromName(squares[i]);
      board.arrow(r1, c1, r2, c2);
    }
  }

  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

  /** Numbers each square once, with the first layer (or move count) that reached it. */
  function numberSquares(first) {
    for (const [name, d] of first) {
      const [r, c] = fromName(name);
      const t = svg('text', { x: c + 0.2, y: r + 0.22, class: 'layer-number', 'data-square': name }, board.over);
      t.textContent = String(d);
    }
  }

  /** The squares of the first k layers (or reach lines), each with the first that had it. */
  function firstReached(lines, k) {
    const first = new Map();
    for (const line of lines.slice(0, k)) {
      for (const name of line.squares) if (!first.has(name)) first.set(name, line.moves);
    }
    return first;
  }

  /** Where the queen can go at all, after k reach lines (a search that could not start). */
  function showReach(k) {
    const { reach, end } = trace;
    const first = firstReached(reach, k);
    for (const [name, d] of first) {
      const [r, c] = fromName(name);
      board.mark(r, c, d === k - 1 ? 'layer-new' : 'layer', true, `reached after ${plural(d, 'move')}`);
    }
    numberSquares(first);
    const line = reach[k - 1];
    let sentence = `After ${plural(line.moves, 'move')}: ${plural(line.squares.length, 'square')} first reached; ${first.size} reached so far.`;
    if (k === reach.length && end && end.unreachable) {
      const [r, c] = fromName(end.unreachable.square);
      board.mark(r, c, 'bad', true, 'out of reach');
      sentence += ` No square is left to reach, and none of them stands next to the ${end.unreachable.piece} on ${end.unreachable.square}: there is no tour, so the search over the knights never starts.`;
    }
    return sentence;
  }

  function draw() {
    drawPieces();
    if (path) drawPath(path);
  }

  function showStep(k) {
    if (!trace) return '';
    drawPieces();
    const { layers, moves, start, end } = trace;
    if (k === 0) {
      return `Before the search: the queen stands on ${start.queen}; she must stand next to ${plural(start.knights.length, 'knight')} (${start.knights.join(', ') || 'none'}) and end next to the bishop on ${start.bishop}. A state of the search is a square and the knights visited on the way.`;
    }
    if (trace.reach.length) return showReach(k);
    if (k <= layers.length) {
      const layer = layers[k - 1];
      const first = firstReached(layers, k);
      const again = new Set(layer.again);
      for (const [name, d] of first) {
        const [r, c] = fromName(name);
        if (d < layer.moves) board.mark(r, c, 'layer', true, `first reached after ${plural(d, 'move')}`);
      }
      for (const name of layer.new) {
        const [r, c] = fromName(name);
        board.mark(r, c, layer.goal ? 'goal' : 'layer-new', true, layer.goal ? 'goal, reached for the first time' : 'reached for the first time');
      }
      for (const name of again) {
        const [r, c] = fromName(name);
        board.mark(r, c, layer.goal ? 'goal' : 'again', true, layer.goal ? 'goal, reached again with other knights' : 'reached again with other knights');
      }
      numberSquares(first);
      for (const name of layer.knights) {
        const [r, c] = fromName(name);
        board.mark(r, c, 'visited', true, 'visited on the way');
      }
      const split = `${plural(layer.new.length, 'square')} reached for the first time and ${layer.again.length} reached again with other knights (${plural(layer.states, 'state')}); ${plural(first.size, 'square')} reached so far`;
      if (layer.goal) {
        // The search stops in this layer: it keeps (and counts) only the goal's states.
        return `Layer ${layer.moves}, the goal: the queen stands next to the bishop with every knight visited on ${plural(layer.squares.length, 'square')}, and the search stops here, so this layer counts only those (${split}). The fewest moves are ${layer.moves}.`;
      }
      const knights = layer.knights.length ? `knights visited on the way by some state: ${layer.knights.join(', ')}; the most by one state: ${layer.most_knights}` : 'no knight visited yet';
      const over = k === layers.length && !end.possible ? ' No state is left to reach: there is no tour.' : '';
      return `Layer ${layer.moves}: ${split}; ${knights}.${over}`;
    }
    const j = k - layers.length;
    const done = moves.slice(0, j);
    const last = done[done.length - 1];
    // The queen stands where the path has taken her.
    drawPieces(last.square);
    drawPath(done.map((m) => m.square));
    for (const name of last.visited) {
      const [r, c] = fromName(name);
      board.mark(r, c, 'visited', true, 'visited');
    }
    const tail = j === moves.length ? ` The tour is complete: ${plural(end.moves, 'move')}, of all the shortest tours, the first in alphabetical order of its squares.` : '';
    return last.moves === 0
      ? `The path: the queen starts on ${last.square}.${tail}`
      : `Move ${last.moves}: the queen goes to ${last.square}; knights visited: ${last.visited.join(', ') || 'none'}.${tail}`;
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
    forget();
    path = first && first.possible ? first.path : null;
    draw();
    play.disabled = !path;
    save();
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
        board.mark(r, c, 'bad', true, 'out of reach');
        detail.textContent = `The queen can never stand next to the ${why.piece} on ${why.square}: every square around it is out of her reach.`;
      } else {
        detail.textContent = 'No tour exists.';
      }
    }
  }

  /** Loads the search's trace and shows it at step `step`. */
  async function watch(step) {
    const text = inputText();
    io.setInput(text);
    await solveInput(text);
    const lines = (await api.jsonLines('tour/trace', text)).objects.filter((l) => l.case === 1);
    const layers = lines.filter((l) => l.event === 'layer');
    const moves = lines.filter((l) => l.event === 'move');
    const reach = lines.filter((l) => l.event === 'reach');
    trace = {
      start: lines.find((l) => l.event === 'start'),
      end: lines.find((l) => l.event === 'end'),
      layers,
      moves,
      reach,
      steps: [...reach, ...layers, ...moves],
    };
    searching = true;
    const note = reach.length
      ? `where the queen can go: ${plural(reach.length - 1, 'move')} at most; no search over the knights`
      : `${plural(layers.length, 'layer')}, then ${moves.length ? plural(moves.length - 1, 'move') : 'no path'}`;
    player.load(trace.steps.length, note, step);
  }

  function stop() {
    if (animation) cancelAnimationFrame(animation);
    animation = null;
    board.over.querySelectorAll('.walker').forEach((n) => n.remove());
  }

  function animate() {
    stop();
    if (!path) return;
    if (searching) {
      searching = false;
      player.pause();
      draw();
      save();
    }
    const points = path.map(fromName);
    const walker = svg('text', { class: 'walker' }, board.over);
    walker.textContent = '\u265B';
    const perMove = 700;
    const [r0, c0] = points[0];
    walker.setAttribute('x', c0 + 0.5);
    walker.setAttribute('y', r0 + 0.55);
    let begin = null;
    const frame = (now) => {
      // The first frame's time is the start (a frame's time may precede the click's).
      if (begin === null) begin = now;
      const t = Math.max(0, (now - begin) / perMove);
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
  document.getElementById('tour-watch').addEventListener('click', () => io.run(() => watch(0)));
  document.getElementById('tour-sample').addEventListener('click', () => {
    grid = SAMPLE.map((row) => row.split(''));
    forget();
    draw();
    io.setInput(inputText());
    save();
  });
  document.getElementById('tour-clear').addEventListener('click', () => {
    grid = Array.from({ length: 8 }, () => Array(8).fill('.'));
    forget();
    draw();
    io.setInput(inputText());
    save();
  });
  play.addEventListener('click', animate);

  /** The try-it mode on or off. */
  async function setTrying(on) {
    trying = on;
    tryButton.setAttribute('aria-pressed', String(on));
    tryControls.hidden = !on;
    palette.disabled = on;
    if (on) {
      forget();
      draw();
      save();
      await tourTry.start();
    } else {
      tourTry.stop();
      draw();
      stepping();
    }
  }
  tryButton.addEventListener('click', () => io.run(() => setTrying(!trying)));
  document.getElementById('tour-try-undo').addEventListener('click', () => io.run(() => tourTry.undo()));
  document.getElementById('tour-try-restart').addEventListener('click', () => io.run(() => tourTry.start()));
  // Every other action leaves the try-it mode.
  for (const id of ['tour-solve', 'tour-watch', 'tour-play', 'tour-sample', 'tour-clear']) {
    document.getElementById(id).addEventListener('click', () => { if (trying) setTrying(false); }, { capture: true });
  }
  document.getElementById('view-tour').addEventListener('keydown', (e) => {
    if (searching) player.key(e);
  });

  return {
    /** Opens the position of a link: `b` the board (rows of `. Q B N P` joined by `/`), `step`. */
    async open(params) {
      let rows = SAMPLE;
      const b = params.get('b');
      if (b !== null) {
        rows = b.split('/');
        if (rows.length !== 8 || rows.some((row) => !/^[.QBNP]{8}$/.test(row))) {
          throw new StateError(`b: expected 8 rows of 8 of . Q B N P joined by '/', found '${b.slice(0, 80)}'`);
        }
      }
      const step = numberParam(params, 'step', 0, 100000, null);
      grid = rows.map((row) => row.split(''));
      if (trying) await setTrying(false);
      forget();
      io.setInput(inputText());
      if (step === null) await solveInput(inputText());
      else await watch(step);
    },
    refresh() { save(); },
  };
}
