// 8 Queens with one queen given (UVa 750): choose the given queen, step through every placement
// that holds it (the judge's list beside the board), or watch the backtracking search find
// them, step by step, from the trace the command line writes (`queens --trace`).
import * as api from './api.js';
import { Board, squareName } from './board.js';
import { makeIo } from './io.js';
import { Player } from './player.js';
import { QueensTrace, endNote, parseTrace, placementWords } from './queenstrace.js';
import { SearchPanels } from './searchpanel.js';
import { StateError, makeShare, numberParam, writeState } from './share.js';
import { TryIt } from './tryit.js';

export function init() {
  const state = { given: [1, 1], solutions: [], index: 0, mode: 'answer', trace: null };
  const list = document.getElementById('queens-list');
  const mode = document.getElementById('queens-count');
  const io = makeIo('queens', (text) => solveInput(text));
  const input = () => `1\n${state.given[0]} ${state.given[1]}\n`;
  // Try it yourself: the learner's own eight queens, answered by the library.
  let trying = false;
  const tryit = new TryIt(document.getElementById('queens-try'));
  const tryButton = document.getElementById('queens-try-mode');
  const board = new Board(document.getElementById('queens-board'), {
    rows: 8, cols: 8, label: '8 by 8 board: choose the given queen',
    rowLabel: (r) => r + 1, colLabel: (c) => c + 1,
    name: (r, c) => `row ${r + 1}, column ${c + 1}`,
    onActivate: (r, c) => {
      if (trying) {
        tryit.toggle(r + 1, c + 1);
        tryit.draw(board);
        tryit.answer();
        save();
      } else {
        io.run(() => choose([r + 1, c + 1]));
      }
    },
  });
  const panels = new SearchPanels(document.getElementById('queens-panels'), 'queens');
  const player = new Player(document.getElementById('queens-player'), {
    id: 'queens',
    sentenceIn: document.getElementById('queens-sentence'),
    show: (k) => showStep(k),
    isSolution: (k) => state.trace !== null && state.trace.isSolution(k),
    tally: (k) => (state.trace ? state.trace.tally(k) : ''),
    onChange: () => save(),
  });
  makeShare('queens', () => api.text('queens', input(), { format: 'svg' }), (m) => io.setError(m));

  function setTrying(on) {
    trying = on;
    tryButton.setAttribute('aria-pressed', String(on));
    tryit.reset(8);
    if (on) {
      player.load(0, '');
      state.trace = null;
      panels.clear();
      state.mode = 'answer';
      mode.textContent = 'Your own placement: click a square (or press Enter on it) to put a queen there or take her back.';
      tryit.draw(board);
      tryit.answer();
    } else {
      draw();
    }
    save();
  }

  function save() {
    const s = { q: `${state.given[0]},${state.given[1]}` };
    if (trying) s.try = tryit.fixes().join(';');
    else if (state.mode === 'search') s.step = player.index;
    else s.p = state.index + 1;
    writeState('queens', s);
  }

  /** Solves for the given queen: the judge's list, and the first placement drawn. */
  async function choose(given, at = 0, step = null) {
    const searching = step !== null || state.mode === 'search';
    state.given = given;
    io.setInput(input());
    await solve(input());
    state.index = Math.min(Math.max(0, at), Math.max(0, state.solutions.length - 1));
    if (searching) {
      await watch(step || 0);
    } else {
      draw();
    }
  }

  async function solveInput(text) {
    await solve(text);
    state.mode = 'answer';
    draw();
  }

  async function solve(text) {
    const [json, judge] = await Promise.all([
      api.jsonLines('queens', text),
      api.text('queens', text, { format: 'judge' }),
    ]);
    io.setOutput(judge);
    list.replaceChildren();
    for (const line of judge.split(/(?<=\n)/)) {
      const span = document.createElement('span');
      span.textContent = line;
      list.appendChild(span);
    }
    const first = json.objects[0];
    if (first) state.given = first.queen;
    state.solutions = first ? first.solutions : [];
    state.index = 0;
    state.trace = null;
    panels.clear();
    player.load(0, '');
  }

  /** Loads the search's trace for the given queen and shows it at step `step`. */
  async function watch(step) {
    const lines = await api.jsonLines('queens/trace', input());
    const trace = parseTrace(lines.objects.filter((l) => l.case === 1));
    state.trace = new QueensTrace(trace);
    panels.load(state.trace);
    state.mode = 'search';
    player.load(trace.steps.length, endNote(trace.end), step);
  }

  function showStep(k) {
    if (!state.trace) return '';
    state.mode = 'search';
    state.trace.seek(k);
    const sentence = state.trace.draw(board);
    panels.show(k);
    const [gr, gc] = state.given;
    mode.textContent = `Showing the search for the placements with the queen on ${squareName(gr, gc)}.`;
    return sentence;
  }

  function draw() {
    state.mode = 'answer';
    board.clear();
    const [gr, gc] = state.given;
    const n = state.solutions.length;
    const placement = state.solutions[state.index];
    if (!placement) return;
    placement.forEach((row, c) => {
      const isGiven = row === gr && c + 1 === gc;
      board.glyph(row - 1, c, isGiven ? '\u2655' : '\u265B', isGiven ? 'given queen' : 'queen', isGiven ? 'given' : '');
    });
    board.mark(gr - 1, gc - 1, 'mark', true, 'given');
    mode.textContent = `Showing placement ${state.index + 1} of ${n} with the queen on ${squareName(gr, gc)}: ${placementWords(placement)}.`;
    const spans = list.children;
    for (const s of spans) s.classList.remove('current');
    // Two heading lines, then one line per placement of the first case.
    const line = spans[state.index + 2];
    if (line) {
      line.classList.add('current');
      // Scrolls the list alone, never the page (a phone opens at its title).
      const top = line.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
      if (top < list.scrollTop) list.scrollTop = top;
      else if (top + line.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + line.offsetHeight - list.clientHeight;
    }
    save();
  }

  /** The next (by 1) or previous (by -1) placement; from a search, the one after (or the last
   * of) those the search has found so far; the search, its sentence and panels put away. */
  function step(by) {
    const n = state.solutions.length;
    if (!n) return;
    player.pause();
    if (state.mode === 'search' && state.trace) {
      const found = state.trace.found[state.trace.at];
      state.index = by > 0 ? found % n : (found - 1 + n) % n;
      state.trace = null;
      panels.clear();
      state.mode = 'answer';
      player.load(0, '');
    } else {
      state.index = (state.index + by + n) % n;
    }
    draw();
  }
  // The sentences name squares as the board labels them.
  document.addEventListener('chess-coordinates', () => {
    if (state.mode === 'answer' && !trying && !document.getElementById('view-queens').hidden) draw();
  });
  tryButton.addEventListener('click', () => setTrying(!trying));
  // Every other action leaves the try-it mode.
  for (const id of ['queens-prev', 'queens-next', 'queens-watch']) {
    document.getElementById(id).addEventListener('click', () => { if (trying) setTrying(false); });
  }
  document.getElementById('queens-prev').addEventListener('click', () => step(-1));
  document.getElementById('queens-next').addEventListener('click', () => step(1));
  document.getElementById('queens-watch').addEventListener('click', () => io.run(() => watch(0)));
  document.getElementById('view-queens').addEventListener('keydown', (e) => player.key(e));

  return {
    /** Opens the position of a link: `q` the given queen, `p` a placement or `step` a step. */
    async open(params) {
      let given = [1, 1];
      const q = params.get('q');
      if (q !== null) {
        const m = /^([1-8]),([1-8])$/.exec(q);
        if (!m) throw new StateError(`q: expected ROW,COLUMN with each 1..8, found '${q.slice(0, 40)}'`);
        given = [Number(m[1]), Number(m[2])];
      }
      const p = numberParam(params, 'p', 1, 18, 1);
      const stepAt = numberParam(params, 'step', 0, 1000000, null);
      // The learner's own queens (try it yourself): `try=ROW,COL;...`, possibly none.
      const mine = params.get('try');
      const tried = [];
      if (mine !== null && mine !== '') {
        for (const part of mine.split(';').slice(0, 64)) {
          const m2 = /^([1-8]),([1-8])$/.exec(part);
          if (!m2) throw new StateError(`try: expected ROW,COLUMN pairs with each 1..8 separated by ';', found '${part.slice(0, 40)}'`);
          tried.push([Number(m2[1]), Number(m2[2])]);
        }
      }
      state.mode = stepAt === null ? 'answer' : 'search';
      trying = false;
      tryButton.setAttribute('aria-pressed', 'false');
      tryit.reset(8);
      await choose(given, p - 1, stepAt);
      if (mine !== null) {
        setTrying(true);
        for (const [r, c] of tried) tryit.toggle(r, c);
        tryit.draw(board);
        await tryit.answer();
        save();
      }
    },
    refresh() { save(); },
  };
}
