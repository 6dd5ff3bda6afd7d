// The Sultan's Successors (UVa 167): editable weights, the best eight queens highlighted.
import * as api from './api.js';
import { makeIo } from './io.js';

export function init() {
  const cells = [];
  const container = document.getElementById('sultan-board');
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
      input.max = '4294967295';
      input.id = `sultan-w-${r + 1}-${c + 1}`;
      input.setAttribute('aria-label', `weight of row ${r + 1}, column ${c + 1}`);
      input.addEventListener('input', () => clearAnswer());
      td.appendChild(input);
      tr.appendChild(td);
      row.push({ td, input });
    }
    table.appendChild(tr);
    cells.push(row);
  }
  container.replaceChildren(table);
  const score = document.getElementById('sultan-score');
  const detail = document.getElementById('sultan-placement');
  const io = makeIo('sultan', (text) => solve(text, true));

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
    const rows = cells.map((row) => row.map(({ input }) => input.value.trim() || '0').join(' '));
    return `1\n${rows.join('\n')}\n`;
  }

  async function solve(text, fromInput) {
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
    if (!first) return;
    first.rows.forEach((row, c) => cells[row - 1][c].td.classList.add('queen'));
    score.textContent = String(first.score);
    detail.textContent = `queens on rows ${first.rows.join(' ')} of columns 1 to 8` +
      (json.objects.length > 1 ? ` (board 1 of ${json.objects.length})` : '');
  }

  document.getElementById('sultan-random').addEventListener('click', () => {
    fill(Array.from({ length: 64 }, () => 1 + Math.floor(Math.random() * 99)));
  });
  document.getElementById('sultan-sample').addEventListener('click', () => {
    fill(Array.from({ length: 64 }, (_, i) => i + 1));
  });
  document.getElementById('sultan-solve').addEventListener('click', () => {
    const text = inputText();
    io.setInput(text);
    io.run(() => solve(text, false));
  });
  fill(Array.from({ length: 64 }, (_, i) => i + 1));
}
