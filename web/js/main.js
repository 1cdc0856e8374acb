// SPDX-License-Identifier: GPL-2.0-or-later
// The page: puts the modules together and maps each action (key, tap, button) to a
// request to the daemon. State shown is the store's, which is the daemon's.
import { call, onSignedOut } from './api.js';
import { EventFeed } from './events.js';
import { Store, fileName, formatBytes } from './store.js';
import { Grid } from './grid.js';
import { Loupe } from './loupe.js';
import { Compare } from './compare.js';
import { Planner, undoBatch } from './plan.js';
import { TrashView } from './trash.js';
import { Browser } from './browse.js';
import { gridAction, isTyping, fillHelp } from './keys.js';
import { ask, toast, connection, showError } from './ui.js';

const store = new Store('default');
const $ = (id) => document.getElementById(id);

const grid = new Grid($('grid'), {
  onActivate: (index) => loupe.open(index),
  onToggle: (index) => toggle(index),
  onLongPress: (index) => toggle(index),
  onFocus: (index) => loupe.prepare(index),
  onPoint: (index) => loupe.prepare(index),
});
store.beforeRest = () => grid.imagesSettled(1000);
const loupe = new Loupe($('loupe'), {
  store,
  onToggle: (index) => toggle(index),
  onClose: (index) => grid.setFocused(index),
});
const compare = new Compare($('compare'), { store, onClose: () => grid.setFocused(grid.focused) });
const planner = new Planner($('plan'), { store });
const trash = new TrashView($('trash'));
const browser = new Browser($('nav'), $('filter'), {
  store,
  onStatus: (status) => grid.setThumbnails(Boolean(status.thumbnails)),
});

store.addEventListener('listing', () => {
  grid.setData(store.photos, store.sections);
  const view = store.view || {};
  $('view-title').textContent = view.folder ? view.folder : view.root ? view.root : 'All photos';
  $('view-count').textContent = `${store.total} photo${store.total === 1 ? '' : 's'}`;
  $('empty').hidden = store.total > 0;
  refreshBrowserSoon();
});
store.addEventListener('selection', () => {
  grid.setNumbers(store.numbers, store.mode === 'select');
  const selecting = store.mode === 'select';
  document.body.classList.toggle('selecting', selecting);
  $('mode').setAttribute('aria-pressed', selecting ? 'true' : 'false');
  $('mode').textContent = selecting ? 'Done' : 'Select';
  const cap = store.cap ? ` of ${store.cap}` : '';
  const hidden = store.hidden ? `, ${store.hidden} hidden by the filter` : '';
  $('selection-status').textContent = selecting
    ? `${store.count}${cap} selected · ${formatBytes(store.bytes)}${hidden}` : '';
});
store.addEventListener('thumbnail', (event) => {
  if (event.detail.state === 'ready') grid.thumbnailReady(event.detail.photo_id);
});
store.addEventListener('marks', (event) => grid.photoChanged(event.detail.index, event.detail.photo));
store.addEventListener('failure', (event) => showError(event.detail));

let browserTimer = 0;
function refreshBrowserSoon() {
  if (browserTimer) return;
  browserTimer = setTimeout(() => {
    browserTimer = 0;
    browser.refresh();
  }, 1500);
}

async function enterSelectMode() {
  if (store.mode !== 'select') await store.change('mode', { mode: 'select' });
}

async function toggle(index) {
  const photo = store.photos[index];
  if (!photo) return;
  if (photo.protected) {
    toast(`${fileName(photo.path)} is in a protected folder: it cannot be selected for deletion.`);
    return;
  }
  try {
    await store.change('toggle', { ids: [photo.id] }, { selecting: true });
  } catch (error) {
    showError(error);
  }
}

async function leaveSelectMode() {
  if (store.mode !== 'select') return;
  if (store.count > 0) {
    const sure = await ask({
      title: 'Leave select mode?',
      body: `Leaving select mode clears the selection of ${store.count} photo${store.count === 1 ? '' : 's'}.`,
      confirm: 'Clear and leave',
    });
    if (!sure) return;
  }
  try {
    await store.change('mode', { mode: 'view' });
  } catch (error) {
    showError(error);
  }
}

async function selectAll() {
  try {
    const result = await store.change('select', { all: true }, { selecting: true });
    if (result.skipped_protected) toast(`${result.skipped_protected} protected photos were left out.`);
  } catch (error) {
    showError(error);
  }
}

function openCompare() {
  const ids = [...store.numbers.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id).slice(0, 4);
  if (ids.length < 2) {
    toast('Select 2 to 4 photos to compare them.');
    return;
  }
  compare.open(ids);
}

async function undoLast() {
  let batches;
  try {
    batches = (await call('history', { limit: 10 })).batches.filter((batch) => batch.state === 'done' || batch.state === 'partly_undone');
  } catch (error) {
    showError(error);
    return;
  }
  if (batches.length === 0 || batches[0].by_uid !== undefined) {
    toast('There is no delete to undo.');
    return;
  }
  const last = batches[0];
  const sure = await ask({
    title: 'Undo the last delete?',
    body: `Puts back ${last.photos} photo${last.photos === 1 ? '' : 's'} (${last.files} files) of batch ${last.batch}.`,
    confirm: 'Put back',
  });
  if (sure) await undoBatch(last.batch);
}

/**
 * P, X, U and 0-5 mark the loupe's photo when it is open, else the focused cell's.
 * Marks go one after the other, in the order pressed (the last key is what stays),
 * and say so in one toast, updated.
 */
let marking = Promise.resolve();
function mark(args, what) {
  const photo = store.photos[loupe.isOpen ? loupe.index : grid.focused];
  if (!photo) return;
  const run = async () => {
    try {
      await call('rate', { ids: [photo.id], ...args });
      toast(`${fileName(photo.path)}: ${what}.`, null, 'marks');
    } catch (error) {
      showError(error);
    }
  };
  marking = marking.then(run);
}

function openHelp() {
  fillHelp($('help').querySelector('.help-body'));
  $('help').showModal();
}

function openFilter() {
  document.body.classList.add('nav-open');
  $('glob').focus();
}

const actions = {
  move(event) {
    const at = grid.focused;
    const columns = grid.columns;
    const targets = {
      ArrowLeft: at - 1, ArrowRight: at + 1, ArrowUp: grid.verticalFrom(at, -1), ArrowDown: grid.verticalFrom(at, 1),
      Home: 0, End: store.photos.length - 1,
      PageUp: grid.verticalFrom(at, -grid.rowsPerPage), PageDown: grid.verticalFrom(at, grid.rowsPerPage),
    };
    if (event.key in targets && columns > 0) grid.setFocused(targets[event.key]);
  },
  toggle: () => toggle(grid.focused),
  loupe: () => store.photos.length && loupe.open(grid.focused),
  mode: () => (store.mode === 'select' ? leaveSelectMode() : enterSelectMode().catch(showError)),
  all: selectAll,
  back: () => {
    if (document.body.classList.contains('nav-open')) document.body.classList.remove('nav-open');
    else leaveSelectMode();
  },
  compare: openCompare,
  delete: () => planner.open(),
  undo: undoLast,
  flag: (event) => {
    const flag = { p: 'pick', x: 'reject', u: 'none' }[event.key.toLowerCase()];
    mark({ flag }, flag === 'none' ? 'no flag' : flag);
  },
  rate: (event) => mark({ rating: Number(event.key) }, `${event.key} star${event.key === '1' ? '' : 's'}`),
  trash: () => trash.open(),
  filter: openFilter,
  help: openHelp,
};

document.addEventListener('keydown', (event) => {
  if (signedOut || document.querySelector('dialog[open]')) return;
  if (compare.isOpen) {
    if (compare.handleKey(event)) event.preventDefault();
    return;
  }
  if (loupe.isOpen) {
    const marking = gridAction(event);
    if (loupe.handleKey(event)) event.preventDefault();
    else if (marking === 'flag' || marking === 'rate') {
      event.preventDefault();
      actions[marking](event);
    }
    return;
  }
  if (isTyping(event)) {
    if (event.key === 'Escape') event.target.blur();
    return;
  }
  if (event.target instanceof HTMLButtonElement && (event.key === ' ' || event.key === 'Enter')) return;
  const action = gridAction(event);
  if (!action) return;
  event.preventDefault();
  actions[action](event);
});

$('mode').addEventListener('click', () => actions.mode());
$('compare-button').addEventListener('click', openCompare);
$('delete-button').addEventListener('click', () => planner.open());
$('trash-button').addEventListener('click', () => trash.open());
$('help-button').addEventListener('click', openHelp);
$('nav-button').addEventListener('click', () => document.body.classList.toggle('nav-open'));
$('nav-close').addEventListener('click', () => document.body.classList.remove('nav-open'));
$('help').querySelector('.help-close').addEventListener('click', () => $('help').close());

// The session ended (idle, logged out elsewhere, a new web password): everything
// stops at once, so that nothing half-done is shown, and the gateway's sign-in page
// takes over; the daemon keeps the selection for the next sign-in.
let signedOut = false;
onSignedOut(() => {
  if (signedOut) return;
  signedOut = true;
  feed.stop();
  document.body.dataset.ready = 'false';
  document.body.classList.add('signed-out');
  sessionStorage.setItem('curatord-session-ended', '1');  // login.js says why it is shown
  toast('Your session ended: sign in again.');
  setTimeout(() => window.location.assign('/'), 800);
});

/** A lost or refused event stream may be a session that ended: a request says (401). */
function checkSession() {
  if (!signedOut) call('hello').catch(() => {});
}

let firstOpen = true;
const feed = new EventFeed({
  onEvent: (event) => store.apply(event),
  onState: (state) => {
    if (signedOut) return;
    if (state === 'lost' || state === 'refused') checkSession();
    if (state === 'refused') return;
    connection(state);
    if (state === 'open' && !firstOpen) {
      // What happened while the stream was down is not replayed: list again.
      store.relist().catch(showError);
      store.refreshSelection().catch(showError);
    }
    if (state === 'open') firstOpen = false;
  },
});

async function start() {
  feed.start();
  try {
    await Promise.all([store.refreshSelection(), store.relist()]);
  } catch (error) {
    showError(error);
  }
  await browser.refresh();
  if (!signedOut) document.body.dataset.ready = 'true';
}

start();
