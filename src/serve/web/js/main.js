// The page: one view per puzzle, chosen by the address's #fragment, which also holds the
// view's state (`#queens?q=3,5&step=12`): a link opens the same position.
import * as queens from './queens.js';
import * as sultan from './sultan.js';
import * as tour from './tour.js';
import * as showdown from './showdown.js';
import * as nqueens from './nqueens.js';
import { MAX_STATE, holdState, parseHash } from './share.js';
import { setChessCoordinates } from './board.js';

const VIEWS = { queens, sultan, tour, showdown, nqueens };
const started = new Map();
const stateError = document.getElementById('state-error');

/** Shows a link's problem, or clears it. */
function problem(message) {
  stateError.textContent = message ? `This link's position could not be opened: ${message}. The view shows its sample instead.` : '';
}

async function show() {
  const { view, params } = parseHash();
  const name = view in VIEWS ? view : 'queens';
  for (const id of Object.keys(VIEWS)) {
    document.getElementById(`view-${id}`).hidden = id !== name;
  }
  for (const a of document.querySelectorAll('nav a')) {
    if (a.dataset.view === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  problem('');
  document.body.dataset.ready = '';
  let bad = location.hash.length > MAX_STATE ? `the address is longer than ${MAX_STATE} characters` : null;
  const state = bad ? new URLSearchParams() : params;
  holdState(true);
  try {
    if (!started.has(name)) {
      const controller = VIEWS[name].init();
      started.set(name, controller);
      await controller.open(state);
    } else if ([...state.keys()].length > 0) {
      await started.get(name).open(state);
    } else {
      started.get(name).refresh();
    }
  } catch (e) {
    // A long answer stopped by its Stop button is not the link's fault: the view stays as it is.
    if (e.name !== 'AbortError') {
      bad = bad || e.message;
      // The view opens on its sample.
      try {
        await started.get(name).open(new URLSearchParams());
      } catch (again) {
        // Not the link's fault: the sample fails too (the library could not be loaded, say).
        bad = null;
        stateError.textContent = `This view could not be opened: ${again.message}`;
      }
    }
  }
  // The address says what is shown, once it is shown (a reload opens it again).
  holdState(false);
  if (started.has(name)) started.get(name).refresh();
  if (bad) problem(bad);
  document.title = `${document.getElementById(`${name}-title`).textContent} \u2014 chess-puzzles`;
  document.body.dataset.ready = name;
}

// Chess coordinates on 8x8 boards: an option of the page, kept for the next visit.
const coordinates = document.getElementById('chess-coordinates');
try {
  coordinates.checked = localStorage.getItem('chess-coordinates') === 'on';
} catch {
  coordinates.checked = false;
}
setChessCoordinates(coordinates.checked);
coordinates.addEventListener('change', () => {
  setChessCoordinates(coordinates.checked);
  try {
    localStorage.setItem('chess-coordinates', coordinates.checked ? 'on' : 'off');
  } catch {
    // A page without storage keeps the option until it is closed.
  }
});

window.addEventListener('hashchange', show);
show();
