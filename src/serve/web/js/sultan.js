// The Sultan's Successors (UVa 167): editable weights, the best eight queens highlighted, and
// the search over every placement watched step by step with its running sum (the trace of
// `sultan --trace`).
import * as api from './api.js';
import { Board } from './board.js';
import { makeIo } from './io.js';
import { Player } from './player.js';
import { QueensTrace, endNote, parseTrace } from './queenstrace.js';
import { SearchPanels } from './searchpanel.js';
import { StateError, makeShare, numberParam, writeState } from './share.js';
import { TryIt } from './tryit.js';

const SAMPLE = Array.from({ length: 64 }, (_, i) => i + 1);
const MAX_WEIGHT = 4294967295;

export function init() {
  const cells = [];
  const container = document.getElementById('sultan-board');
  const searchBoard = document.getElementById('sultan-search');
  const edit = document.getElementById('sultan-edit');
  const table = document.createElement('table');
  table.setAttribute('aria-label', 'Weights of the 8 by 8 board');
  for (let r = 0; r < 8; r++) {
    const tr = document.createElement('tr');
    const row = [];
    for (let c = 0; c < 8; c++) {
      const td = document.createElement('td');
      td.className = (r + c) % 2 ? 'dark' : 'light';
      const input = document.createElement('input');
      input.type = 'number';
      input.min = '0';
      input.max = String(MAX_WEIGHT);
      input.id = `sultan-w-${r + 1}-${c + 1}`;
      input.setAttribute('aria-label', `weight of row ${r + 1}, column ${c + 1}`);
      input.addEventListener('input', () => { clearAnswer(); save(); });
      td.appendChild(input);
      tr.appendChild(td);
      row.push({ td, input });
    }
    table.appendChild(tr);
    cells.push(row);
  }
  container.replaceChildren(table);
  const score = document.getElementById('sultan-score');
  const scoreTitle = document.getElementById('sultan-score-title');
  const detail = document.getElementById('sultan-placement');
  const io = makeIo('sultan', (text) => solve(text, true));
  let trace = null;
  let searching = false;
  const board = new Board(searchBoard, {
    rows: 8, cols: 8, label: 'The search on the weighted board',
    rowLabel: (r) => r + 1, colLabel: (c) => c + 1,
    name: (r, c) => `row ${r + 1}, column ${c + 1}, weight ${weightsNow()[r][c]}`,
    onActivate: (r, c) => {
      if (!trying) return;
      tryit.toggle(r + 1, c + 1);
      drawTry();
    },
  });
  // Try it yourself: the learner's own queens on the weights, the sum against the best.
  let trying = false;
  let bestAll = null;
  const tryit = new TryIt(document.getElementById('sultan-try'));
  const tryButton = document.getElementById('sultan-try-mode');

  function drawTry() {
    const weights = weightsNow().map((row) => row.map(Number));
    tryit.draw(board);
    board.weights(weights);
    tryit.answerWeighted(weights, bestAll);
  }

  async function setTrying(on) {
    if (!on) {
      showEditor();
      return;
    }
    searching = false;
    player.pause();
    trace = null;
    panels.clear();
    player.load(0, '');
    const text = inputText();
    io.setInput(text);
    const json = await api.jsonLines('sultan', text);
    bestAll = json.objects[0] ? json.objects[0].score : null;
    clearAnswer();
    trying = true;
    tryButton.setAttribute('aria-pressed', 'true');
    container.hidden = true;
    searchBoard.hidden = false;
    edit.hidden = false;
    detail.textContent = 'Your own placement: click a square (or press Enter on it) to put a queen there or take her back.';
    tryit.reset(8);
    drawTry();
  }
  const panels = new SearchPanels(document.getElementById('sultan-panels'), 'sultan');
  const player = new Player(document.getElementById('sultan-player'), {
    id: 'sultan',
    sentenceIn: document.getElementById('sultan-sentence'),
    show: (k) => {
      if (!trace) return '';
      trace.seek(k);
      const sentence = trace.draw(board);
      panels.show(k);
      const best = trace.best();
      // During the search the big number is the search's best so far, not the final answer.
      score.textContent = best === null ? '\u2014' : String(best);
      detail.textContent = `During the search: sum ${trace.sum()} under the queens on the board; best sum so far ${best === null ? 'none yet' : best}.`;
      return sentence;
    },
    isSolution: (k) => trace !== null && trace.isSolution(k),
    tally: (k) => (trace ? trace.tally(k) : ''),
    onChange: () => save(),
  });
  makeShare('sultan', () => api.text('sultan', inputText(), { format: 'svg' }), (m) => io.setError(m));

  function weightsNow() {
    return cells.map((row) => row.map(({ input }) => input.value.trim() || '0'));
  }

  function save() {
    const s = { w: weightsNow().flat().join(',') };
    if (searching) s.step = player.index;
    writeState('sultan', s);
  }

  function clearAnswer() {
    for (const row of cells) for (const { td } of row) td.classList.remove('queen');
    score.textContent = '\u2014';
    detail.textContent = '';
  }

  function fill(weights) {
    weights.forEach((w, i) => { cells[Math.floor(i / 8)][i % 8].input.value = String(w); });
    clearAnswer();
    io.setInput(inputText());
  }

  function inputText() {
    return `1\n${weightsNow().map((row) => row.join(' ')).join('\n')}\n`;
  }

  function showEditor() {
    searching = false;
    panels.clear();
    trying = false;
    tryButton.setAttribute('aria-pressed', 'false');
    tryit.reset(8);
    scoreTitle.textContent = 'Best sum';
    score.setAttribute('aria-live', 'polite');
    player.pause();
    container.hidden = false;
    searchBoard.hidden = true;
    edit.hidden = true;
  }

  async function solve(text, fromInput) {
    showEditor();
    const [json, judge] = await Promise.all([
      api.jsonLines('sultan', text),
      api.text('sultan', text, { format: 'judge' }),
    ]);
    io.setOutput(judge);
    if (fromInput) {
      // Show the first board of a pasted input.
      const numbers = text.trim().split(/\s+/).slice(1, 65);
      if (numbers.length === 64) numbers.forEach((w, i) => { cells[Math.floor(i / 8)][i % 8].input.value = w; });
    }
    clearAnswer();
    const first = json.objects[0];
    save();
    if (!first) return;
    first.rows.forEach((row, c) => {
      cells[row - 1][c].td.classList.add('queen');
      cells[row - 1][c].input.setAttribute('aria-label', `weight of row ${row}, column ${c + 1}: a queen of the best placement`);
    });
    score.textContent = String(first.score);
    detail.textContent = `Queens on rows ${first.rows.join(' ')} of columns 1 to 8` +
      (json.objects.length > 1 ? ` (board 1 of ${json.objects.length})` : '');
  }

  /** Loads the trace of the search on the weights and shows it at step `step`. */
  async function watch(step) {
    trying = false;
    tryButton.setAttribute('aria-pressed', 'false');
    tryit.reset(8);
    const text = inputText();
    io.setInput(text);
    const [lines, judge] = await Promise.all([
      api.jsonLines('sultan/trace', text),
      api.text('sultan', text, { format: 'judge' }),
    ]);
    io.setOutput(judge);
    const parsed = parseTrace(lines.objects.filter((l) => l.case === 1));
    const weights = weightsNow().map((row) => row.map(Number));
    trace = new QueensTrace(parsed, weights);
    panels.load(trace);
    clearAnswer();
    searching = true;
    scoreTitle.textContent = 'Best sum so far';
    score.setAttribute('aria-live', 'off');
    container.hidden = true;
    searchBoard.hidden = false;
    edit.hidden = false;
    player.load(parsed.steps.length, endNote(parsed.end), step);
  }

  document.getElementById('sultan-random').addEventListener('click', () => {
    showEditor();
    fill(Array.from({ length: 64 }, () => 1 + Math.floor(Math.random() * 99)));
    save();
  });
  document.getElementById('sultan-sample').addEventListener('click', () => {
    showEditor();
    fill(SAMPLE);
    save();
  });
  document.getElementById('sultan-solve').addEventListener('click', () => {
    const text = inputText();
    io.setInput(text);
    io.run(() => solve(text, false));
  });
  document.getElementById('sultan-watch').addEventListener('click', () => io.run(() => watch(0)));
  tryButton.addEventListener('click', () => io.run(() => setTrying(!trying)));
  edit.addEventListener('click', () => {
    showEditor();
    save();
    container.querySelector('input').focus();
  });
  document.getElementById('view-sultan').addEventListener('keydown', (e) => {
    if (searching) player.key(e);
  });

  return {
    /** Opens the position of a link: `w` the 64 weights, `step` a step of the search. */
    async open(params) {
      let weights = SAMPLE;
      const w = params.get('w');
      if (w !== null) {
        const parts = w.split(',');
        const bad = parts.find((t) => !/^\d{1,10}$/.test(t) || Number(t) > MAX_WEIGHT);
        if (parts.length !== 64 || bad !== undefined) {
          throw new StateError(`w: expected 64 weights 0..${MAX_WEIGHT} separated by commas, found ${parts.length} values${bad !== undefined ? ` ('${bad.slice(0, 20)}' among them)` : ''}`);
        }
        weights = parts.map(Number);
      }
      const step = numberParam(params, 'step', 0, 1000000, null);
      fill(weights);
      if (step === null) await solve(inputText(), false);
      else await watch(step);
    },
    refresh() { save(); },
  };
}
