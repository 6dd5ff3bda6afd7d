// The page: one view per puzzle, chosen by the address's #fragment.
import * as queens from './queens.js';
import * as sultan from './sultan.js';
import * as tour from './tour.js';
import * as showdown from './showdown.js';
import * as nqueens from './nqueens.js';

const VIEWS = { queens, sultan, tour, showdown, nqueens };
const started = new Set();

function show() {
  const name = location.hash.slice(1) in VIEWS ? location.hash.slice(1) : 'queens';
  for (const id of Object.keys(VIEWS)) {
    document.getElementById(`view-${id}`).hidden = id !== name;
  }
  for (const a of document.querySelectorAll('nav a')) {
    if (a.dataset.view === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (!started.has(name)) {
    started.add(name);
    VIEWS[name].init();
  }
  document.body.dataset.ready = name;
}

window.addEventListener('hashchange', show);
show();
