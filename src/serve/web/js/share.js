// The view's state in the page's address, so that a link opens the same position: a view
// writes its state with `writeState`, reads it back with `readState`; `makeShare` fills the
// view's "share and print" bar (copy the link, save the answer as SVG, print).

/** The view and its state in the address: `#view?key=value&...`. */
export function parseHash(hash = location.hash) {
  const text = hash.replace(/^#/, '');
  const at = text.indexOf('?');
  const view = at < 0 ? text : text.slice(0, at);
  const params = new URLSearchParams(at < 0 ? '' : text.slice(at + 1));
  return { view, params };
}

/** The address of `view` in the state `state` (an object of strings). */
export function stateHash(view, state) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(state)) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const q = params.toString().replace(/%2C/g, ',').replace(/%3B/g, ';').replace(/%2F/g, '/');
  return `#${view}${q ? `?${q}` : ''}`;
}

const listeners = new Set();
let held = false;

/** While a link opens, the address keeps it: the states a view passes through on the way
 * (its sample, step 0) are not written, so a reload at once opens the link again. */
export function holdState(on) {
  held = on;
}

/** Puts the view's state in the address (without a new history entry) and tells the bars. */
export function writeState(view, state) {
  const hash = stateHash(view, state);
  if (!held && location.hash !== hash) history.replaceState(null, '', hash);
  for (const f of listeners) f();
}

/** A problem with a link's state: names what is wrong. */
export class StateError extends Error {}

/** Reads a whole number within lo..hi from the state, or `fallback` when absent. */
export function numberParam(params, name, lo, hi, fallback) {
  const text = params.get(name);
  if (text === null || text === '') return fallback;
  if (!/^\d{1,12}$/.test(text) || Number(text) < lo || Number(text) > hi) {
    throw new StateError(`${name}: expected a whole number ${lo}..${hi}, found '${text.slice(0, 40)}'`);
  }
  return Number(text);
}

/** The largest state a link may carry, in characters. */
export const MAX_STATE = 8192;

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Fills the `.share[data-view=...]` bar of a view. `svg()` returns the SVG document of the
 * view's answer (the same as `chess-puzzles ... --format svg`), saved as `<view>.svg`.
 */
export function makeShare(view, svg, onError) {
  const root = document.querySelector(`.share[data-view="${view}"]`);
  root.replaceChildren();
  const label = document.createElement('label');
  label.htmlFor = `${view}-link`;
  label.textContent = 'Link to this position';
  const link = document.createElement('input');
  link.type = 'text';
  link.readOnly = true;
  link.id = `${view}-link`;
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.id = `${view}-copy-link`;
  copy.textContent = 'Copy link';
  const save = document.createElement('button');
  save.type = 'button';
  save.id = `${view}-save-svg`;
  save.textContent = 'Save the answer as SVG';
  const print = document.createElement('button');
  print.type = 'button';
  print.id = `${view}-print`;
  print.textContent = 'Print the board';
  const said = document.createElement('span');
  said.className = 'said';
  said.id = `${view}-share-status`;
  said.setAttribute('role', 'status');
  const row = document.createElement('div');
  row.className = 'buttons';
  row.append(copy, save, print, said);
  root.append(label, link, row);
  const update = () => { link.value = location.href; };
  listeners.add(update);
  update();
  copy.addEventListener('click', async () => {
    update();
    link.select();
    try {
      await navigator.clipboard.writeText(link.value);
      said.textContent = 'Link copied.';
    } catch {
      said.textContent = 'The link is selected above: copy it with Ctrl+C.';
    }
  });
  save.addEventListener('click', async () => {
    said.textContent = '';
    try {
      const text = await svg();
      download(`${view}.svg`, text, 'image/svg+xml');
      said.textContent = `Saved ${view}.svg.`;
    } catch (e) {
      onError(e.message);
    }
  });
  print.addEventListener('click', () => window.print());
  return { update };
}
