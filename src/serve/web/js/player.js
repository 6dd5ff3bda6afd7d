// A player for a search's trace: play, pause, one step forward or back, back to the start,
// the previous and next solution, a step box and a step slider, and the speed. It knows nothing of the puzzle: `show(k)` draws the state
// after step k (0: before the first step) and says what happened.

const SPEEDS = [1, 2, 4, 8, 16, 32, 64, 128, 512, 2048];

/** A button's content: its words, with a symbol before or after that screen readers skip. */
function label(b, words, before = '', after = '') {
  b.replaceChildren();
  const glyph = (text) => {
    const span = document.createElement('span');
    span.setAttribute('aria-hidden', 'true');
    span.textContent = text;
    return span;
  };
  if (before) b.append(glyph(`${before} `));
  b.append(words);
  if (after) b.append(glyph(` ${after}`));
}

function button(parent, act, words, before, after, keys) {
  const b = document.createElement('button');
  b.type = 'button';
  b.dataset.act = act;
  label(b, words, before, after);
  if (keys) b.setAttribute('aria-keyshortcuts', keys);
  parent.appendChild(b);
  return b;
}

export class Player {
  /**
   * Fills `root` with the controls. options: id (a prefix for ids), show(k) (draws the state
   * after step k and returns a sentence for people), isSolution(k) (true when step k found a
   * solution), onChange(k) (after each move, to keep the address up to date), sentenceIn (an
   * element to hold the step's sentence instead of the player).
   */
  constructor(root, options) {
    this.options = options;
    this.steps = 0;
    this.index = 0;
    this.timer = null;
    this.lastShown = 0;
    const id = options.id;
    this.root = root;
    root.replaceChildren();
    root.classList.add('player');
    root.setAttribute('role', 'group');
    root.setAttribute('aria-label', 'Step through the search');
    const row = document.createElement('div');
    row.className = 'buttons';
    root.appendChild(row);
    this.start = button(row, 'start', 'Start', '\u25c0\u25c0', '', '');
    this.back = button(row, 'back', 'Back', '\u25c0', '', 'B');
    this.play = button(row, 'play', 'Play', '\u25b6', '', 'P');
    this.forward = button(row, 'forward', 'Step', '', '\u25b6', 'N');
    // What a "solution" is depends on the search (a placement; a layer of a breadth-first
    // search): the view names it.
    const [prevWords, nextWords] = options.landmarks || ['Previous solution', 'Next solution'];
    this.prev = button(row, 'prev-solution', prevWords, '\u25c0\u25c0', '', 'A');
    this.next = button(row, 'solution', nextWords, '', '\u25b6\u25b6', 'S');
    for (const b of [this.start, this.back, this.play, this.forward, this.prev, this.next]) b.id = `${id}-${b.dataset.act}`;
    // Jump to step k: a number box (Enter or leaving the box goes there).
    const gotoLabel = document.createElement('label');
    gotoLabel.className = 'goto';
    gotoLabel.textContent = 'Go to step ';
    this.goto = document.createElement('input');
    this.goto.type = 'number';
    this.goto.min = '0';
    this.goto.step = '1';
    this.goto.id = `${id}-goto`;
    gotoLabel.append(this.goto);
    row.appendChild(gotoLabel);
    this.goto.addEventListener('change', () => {
      const k = Math.round(Number(this.goto.value));
      if (Number.isFinite(k)) { this.pause(); this.go(k); }
    });
    // The step slider: a second row, the whole search from step 0 to the end; the arrow
    // keys move it one step, Page Up and Page Down a tenth, Home and End to the ends.
    const scrub = document.createElement('div');
    scrub.className = 'scrub';
    const sliderLabel = document.createElement('label');
    sliderLabel.htmlFor = `${id}-slider`;
    sliderLabel.textContent = 'Step';
    this.slider = document.createElement('input');
    this.slider.type = 'range';
    this.slider.min = '0';
    this.slider.step = '1';
    this.slider.id = `${id}-slider`;
    this.sliderEnd = document.createElement('span');
    this.sliderEnd.className = 'scrub-end';
    this.sliderEnd.setAttribute('aria-hidden', 'true');
    scrub.append(sliderLabel, this.slider, this.sliderEnd);
    this.slider.addEventListener('input', () => {
      const k = Number(this.slider.value);
      if (Number.isFinite(k)) { this.pause(); this.go(k); }
    });
    const speedLabel = document.createElement('label');
    speedLabel.className = 'speed';
    speedLabel.textContent = 'Speed ';
    this.speed = document.createElement('input');
    this.speed.type = 'range';
    this.speed.min = '1';
    this.speed.max = String(SPEEDS.length);
    this.speed.value = '4';
    this.speed.id = `${id}-speed`;
    this.speedText = document.createElement('span');
    this.speedText.className = 'speed-text';
    speedLabel.append(this.speed, this.speedText);
    row.appendChild(speedLabel);
    this.counter = document.createElement('p');
    this.counter.className = 'counter';
    this.counter.id = `${id}-counter`;
    this.status = document.createElement('p');
    this.status.className = 'status';
    this.status.id = `${id}-status`;
    this.status.setAttribute('aria-live', 'polite');
    root.append(scrub, this.counter, this.status);
    // The sentence may stand elsewhere (under the board, where a phone shows it with the board).
    if (options.sentenceIn) options.sentenceIn.appendChild(this.status);
    this.start.addEventListener('click', () => { this.pause(); this.go(0); });
    this.back.addEventListener('click', () => { this.pause(); this.go(this.index - 1); });
    this.forward.addEventListener('click', () => { this.pause(); this.go(this.index + 1); });
    this.next.addEventListener('click', () => { this.pause(); this.toSolution(); });
    this.prev.addEventListener('click', () => { this.pause(); this.toPreviousSolution(); });
    this.play.addEventListener('click', () => (this.timer ? this.pause() : this.resume()));
    this.speed.addEventListener('input', () => this.showSpeed());
    this.showSpeed();
    this.load(0, '');
    // The step's sentence names squares as the board labels them: written again when the
    // chess coordinates are turned on or off (in the view on screen).
    document.addEventListener('chess-coordinates', () => {
      const view = root.closest('.view');
      if (this.steps && !(view && view.hidden)) this.go(this.index);
    });
  }

  showSpeed() {
    const rate = SPEEDS[Number(this.speed.value) - 1];
    this.speedText.textContent = ` ${rate} step${rate === 1 ? '' : 's'}/s`;
    this.speed.setAttribute('aria-valuetext', `${rate} steps a second`);
  }

  /** A new trace of `steps` steps, shown from step `at`; `note` says how the trace ended. */
  load(steps, note, at = 0) {
    this.pause();
    this.steps = steps;
    this.note = note;
    this.go(Math.min(Math.max(0, at), steps));
  }

  /** Shows the state after step k (clamped). */
  go(k) {
    const target = Math.min(Math.max(0, k), this.steps);
    this.index = target;
    const sentence = this.options.show(target);
    const tally = this.steps && this.options.tally ? `; ${this.options.tally(target)}` : '';
    this.counter.textContent = this.steps
      ? `Step ${target} of ${this.steps}${tally}${this.note ? ` (${this.note})` : ''}`
      : 'No search to step through yet.';
    this.status.textContent = sentence || '';
    // Nothing to print while there is no search.
    this.root.classList.toggle('empty', !this.steps);
    const atEnd = target >= this.steps;
    this.goto.max = String(this.steps);
    this.goto.value = String(target);
    this.goto.disabled = !this.steps;
    this.slider.max = String(this.steps);
    this.slider.value = String(target);
    this.slider.disabled = !this.steps;
    this.slider.setAttribute('aria-valuetext', `step ${target} of ${this.steps}`);
    this.sliderEnd.textContent = String(this.steps);
    const focused = document.activeElement;
    this.prev.disabled = target === 0;
    this.forward.disabled = atEnd;
    this.next.disabled = atEnd;
    this.play.disabled = atEnd && !this.timer;
    this.back.disabled = target === 0;
    this.start.disabled = target === 0;
    // A button that has just disabled itself (Start at step 0, Step at the last step) hands
    // the focus to one that goes the other way, so that the keys keep working.
    if (focused && focused.disabled && this.root.contains(focused)) {
      const other = [this.forward, this.back].find((b) => !b.disabled);
      if (other) other.focus();
    }
    if (this.options.onChange) this.options.onChange(target);
  }

  /** Plays to the next step that finds a solution (or to the end). */
  toSolution() {
    let k = this.index + 1;
    while (k < this.steps && !this.options.isSolution(k)) k++;
    this.go(k);
  }

  /** Goes back to the last step before this one that found a solution (or to the start). */
  toPreviousSolution() {
    let k = this.index - 1;
    while (k > 0 && !this.options.isSolution(k)) k--;
    this.go(k);
  }

  resume() {
    if (this.index >= this.steps) return;
    label(this.play, 'Pause', '\u25ae\u25ae');
    // Quiet while playing: a screen reader hears where the search stopped.
    this.status.setAttribute('aria-live', 'off');
    let last = performance.now();
    let owed = 0;
    const tick = () => {
      const now = performance.now();
      owed += ((now - last) / 1000) * SPEEDS[Number(this.speed.value) - 1];
      last = now;
      const whole = Math.floor(owed);
      if (whole > 0) {
        owed -= whole;
        this.go(this.index + whole);
      }
      if (this.index >= this.steps) this.pause();
      else this.timer = setTimeout(tick, 30);
    };
    this.timer = setTimeout(tick, 30);
  }

  pause() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    label(this.play, 'Play', '\u25b6');
    this.status.setAttribute('aria-live', 'polite');
    this.play.disabled = this.index >= this.steps;
  }

  /** The keyboard shortcuts (N, B, P, S, Home) of a view whose focus is not in a field. */
  key(e) {
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return false;
    if (e.ctrlKey || e.metaKey || e.altKey) return false;
    const acts = { n: this.forward, b: this.back, p: this.play, s: this.next, a: this.prev };
    const b = acts[e.key.toLowerCase()];
    if (b && !b.disabled) {
      b.click();
      e.preventDefault();
      return true;
    }
    return false;
  }
}
