// SPDX-License-Identifier: GPL-2.0-or-later
// The virtual grid: the view's photos in sections by folder, with only the rows on
// screen (and a few either side) in the DOM, so a view of 100 000 photos costs what
// a view of 100 does. Rows are laid out by arithmetic (a section header, then rows of
// cells), never measured. Thumbnails are the daemon's `normal` or `large` by the
// cell's size in device pixels, loaded where the scroll rests or goes slower than a
// screen per FLING_MS: a fling through thousands of rows shows their cells, and
// fetches and decodes none of the thumbnails that would be gone a frame later.
import { call, photoURL } from './api.js';
import { fileName, groupLabel, VIDEO_TYPES } from './store.js';
import { makeMarks, marksText, paintMarks } from './marks.js';

const GAP = 6;
const HEADER = 40;
/** Faster than a screen in this many ms is a fling. */
const FLING_MS = 100;
/** A fling is over once the scroll stood still this long. */
const SETTLE_MS = 100;
/** How long the first move after a rest waits for a second one, which tells its speed. */
const FIRST_MS = 40;
const OVERSCAN = 2;
const LONG_PRESS_MS = 500;

export class Grid {
  constructor(scroller, { onActivate, onToggle, onLongPress, onFocus, onPoint }) {
    this.scroller = scroller;
    this.onPoint = onPoint;
    this.onActivate = onActivate;
    this.onToggle = onToggle;
    this.onLongPress = onLongPress;
    this.onFocusIndex = onFocus;
    this.photos = [];
    this.sections = [];
    this.numbers = new Map();
    this.selectMode = false;
    this.focused = 0;
    this.columns = 1;
    this.cell = 160;
    this.rows = [];
    this.live = new Map();
    this.flinging = false;
    this.lastScroll = { top: 0, at: 0 };
    this.settleTimer = 0;
    this.failed = new Set();
    // Thumbnails the daemon said are ready since the listing; those still pending are
    // not asked of /photo (which would wait for them, holding a connection the API
    // needs) but of the daemon, to the front of its queue, and loaded on its event.
    this.ready = new Set();
    this.wanted = new Set();
    this.wantTimer = 0;
    // Until `status` says, thumbnails are taken to be made (the listing says which are).
    this.thumbnailsOff = false;
    this.thumbnailsKnown = false;
    this.spacer = document.createElement('div');
    this.spacer.className = 'grid-spacer';
    this.spacer.setAttribute('role', 'presentation');
    scroller.append(this.spacer);
    scroller.addEventListener('scroll', () => this.schedule(), { passive: true });
    // Laid out in the next frame, not in the observer's callback: a layout that brings
    // a scroll bar would resize the grid again within the same frame.
    new ResizeObserver(() => requestAnimationFrame(() => this.layout())).observe(scroller);
    this.bindPointer();
    scroller.addEventListener('focusin', (event) => {
      const cell = event.target.closest('[data-index]');
      if (cell) this.setFocused(Number(cell.dataset.index), false);
    });
    // A mouse over a cell is as good a hint as the focus of what opens next.
    scroller.addEventListener('pointerover', (event) => {
      const cell = event.pointerType === 'mouse' && event.target.closest('[data-index]');
      if (cell && this.onPoint) this.onPoint(Number(cell.dataset.index));
    });
  }

  setData(photos, sections) {
    const focusedId = this.photos[this.focused] && this.photos[this.focused].id;
    this.photos = photos;
    this.sections = sections.length > 0 || photos.length === 0 ? sections
      : [{ path: '', count: photos.length, total: photos.length, first_position: 1 }];
    if (focusedId !== undefined) {
      const again = photos.findIndex((photo) => photo.id === focusedId);
      this.focused = again >= 0 ? again : Math.min(this.focused, Math.max(0, photos.length - 1));
    }
    this.scroller.setAttribute('aria-rowcount', String(photos.length));
    this.layout(true);
  }

  setNumbers(numbers, selectMode) {
    this.numbers = numbers;
    this.selectMode = selectMode;
    for (const row of this.live.values()) this.paintRow(row, false);
  }

  /** The photo at `index` changed its marks: its cell is drawn again if on screen. */
  photoChanged(index, photo) {
    this.photos[index] = photo;
    for (const row of this.live.values()) {
      if (row.layout.kind === 'cells' && index >= row.layout.start && index < row.layout.end) this.paintRow(row, false);
    }
  }

  thumbnailReady(id) {
    const known = this.failed.delete(id);
    if (this.ready.has(id) && !known) return;
    this.ready.add(id);
    // Thumbnails come by the hundred while the daemon makes them: the rows on screen
    // are drawn once a frame, not once per thumbnail.
    if (this.imagesFrame) return;
    this.imagesFrame = requestAnimationFrame(() => {
      this.imagesFrame = 0;
      for (const row of this.live.values()) this.paintRow(row, true);
    });
  }

  /**
   * Whether the daemon makes thumbnails (`status` says): until it is known nothing is
   * asked, so that a daemon making none is not asked at all.
   */
  setThumbnails(on) {
    this.thumbnailsOff = !on;
    this.thumbnailsKnown = true;
    if (on && this.wanted.size) this.want(this.wanted.values().next().value);
    if (!on) {
      this.wanted.clear();
      for (const row of this.live.values()) this.paintRow(row, true);
    }
  }

  /** Asks the daemon to make these thumbnails first; they load on its `thumbnail` event. */
  want(id) {
    this.wanted.add(id);
    if (this.wantTimer || !this.thumbnailsKnown) return;
    this.wantTimer = setTimeout(() => {
      this.wantTimer = 0;
      const ids = [...this.wanted].slice(0, 1000);
      this.wanted.clear();
      call('thumbnail', { ids }).then((answer) => {
        for (const entry of answer.thumbnails || []) {
          if (entry.state === 'ready') this.thumbnailReady(entry.photo_id);
          else if (entry.state === 'failed' || entry.state === 'placeholder') this.failed.add(entry.photo_id);
        }
      }, (error) => {
        // A daemon that makes none says so once: the cells keep their names, asked no more.
        if (error.code !== 'thumbnails_off') return;
        this.thumbnailsOff = true;
        for (const row of this.live.values()) this.paintRow(row, true);
      });
    }, 100);
  }

  layout(force = false) {
    const width = this.scroller.clientWidth - 2 * GAP;
    if (width <= 0) return;
    const target = width < 560 ? Math.max(96, (width - 2 * GAP) / 3) : width < 1000 ? 150 : 176;
    const columns = Math.max(1, Math.floor((width + GAP) / (target + GAP)));
    const cell = Math.floor((width - GAP * (columns - 1)) / columns);
    if (!force && columns === this.columns && cell === this.cell) return;
    this.columns = columns;
    this.cell = cell;
    this.scroller.style.setProperty('--cell', cell + 'px');
    this.rows = [];
    let top = GAP;
    for (const section of this.sections) {
      const start = section.first_position - 1;
      this.rows.push({ kind: 'header', top, height: HEADER, section });
      top += HEADER;
      for (let index = start; index < start + section.count; index += columns) {
        this.rows.push({ kind: 'cells', top, height: cell + GAP, start: index, end: Math.min(index + columns, start + section.count) });
        top += cell + GAP;
      }
    }
    this.spacer.style.height = top + GAP + 'px';
    // A row laid out as before keeps its element (and its images, not fetched again).
    for (const [index, row] of this.live) {
      const now = this.rows[index];
      const same = now && now.kind === row.layout.kind && now.top === row.layout.top && now.start === row.layout.start
        && now.end === row.layout.end && (now.kind === 'cells' || now.section.path === row.layout.section.path
          && now.section.total === row.layout.section.total);
      if (same) {
        row.layout = now;
        this.paintRow(row, true);
      } else {
        this.drop(index, row);
      }
    }
    this.render();
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.measureFling();
      this.render();
    });
  }

  /** How fast the scroll goes: a fling holds the thumbnails back until it settles. */
  measureFling() {
    const now = performance.now();
    const top = this.scroller.scrollTop;
    const rested = now - this.lastScroll.at > SETTLE_MS;
    const speed = Math.abs(top - this.lastScroll.top) / Math.max(1, now - this.lastScroll.at);
    this.lastScroll = { top, at: now };
    // The first move after a rest cannot tell a fling from a step: held a little.
    if (!rested && speed * FLING_MS <= this.scroller.clientHeight) return;
    this.flinging = true;
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.flinging = false;
      for (const row of this.live.values()) if (row.held) this.paintRow(row, true);
    }, rested ? FIRST_MS : SETTLE_MS);
  }

  /** The first row whose bottom is below `y`. */
  rowAt(y) {
    let low = 0;
    let high = this.rows.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      const row = this.rows[middle];
      if (row.top + row.height <= y) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  render() {
    if (this.rows.length === 0) {
      for (const row of this.live.values()) row.element.remove();
      this.live.clear();
      return;
    }
    const top = this.scroller.scrollTop;
    const first = Math.max(0, this.rowAt(top) - OVERSCAN);
    const last = Math.min(this.rows.length - 1, this.rowAt(top + this.scroller.clientHeight) + OVERSCAN);
    for (const [index, row] of this.live) {
      if (index < first || index > last) {
        if (row.element.contains(document.activeElement)) continue;
        this.drop(index, row);
      }
    }
    for (let index = first; index <= last; index += 1) {
      if (this.live.has(index)) continue;
      const row = { index, layout: this.rows[index], element: this.makeRow(this.rows[index]) };
      this.live.set(index, row);
      this.paintRow(row, true);
      this.spacer.append(row.element);
    }
  }

  /** Resolves once the thumbnails on screen are loaded and drawn, or after `limit` ms. */
  imagesSettled(limit) {
    const waiting = [...this.spacer.querySelectorAll('img[src]')].filter((image) => !image.complete);
    const loaded = Promise.all(waiting.map((image) => new Promise((resolve) => {
      image.addEventListener('load', resolve, { once: true });
      image.addEventListener('error', resolve, { once: true });
    })));
    const drawn = loaded.then(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    return Promise.race([drawn, new Promise((resolve) => setTimeout(resolve, limit))]);
  }

  /**
   * A row leaves the screen. Its thumbnails still on their way are called off: a fast
   * scroll would otherwise leave the browser thousands of them to fetch before the
   * next request of the page (a toggle) gets a connection.
   */
  drop(index, row) {
    if (row.layout.kind === 'cells') {
      for (const cell of row.element.children) {
        const image = cell.firstElementChild;
        if (!image.complete) image.removeAttribute('src');
      }
    }
    row.element.remove();
    this.live.delete(index);
  }

  makeRow(layout) {
    const element = document.createElement('div');
    element.setAttribute('role', 'row');
    element.className = layout.kind === 'header' ? 'grid-row grid-header' : 'grid-row';
    element.style.transform = `translateY(${layout.top}px)`;
    if (layout.kind === 'header') {
      const header = document.createElement('div');
      header.setAttribute('role', 'rowheader');
      const section = layout.section;
      const name = section.path === '' ? (section.root || 'top folder') : section.path;
      const title = document.createElement('span');
      title.className = 'section-name';
      title.textContent = name;
      const count = document.createElement('span');
      count.className = 'section-count';
      count.textContent = `${section.total} photo${section.total === 1 ? '' : 's'}`;
      header.append(title, count);
      element.append(header);
      return element;
    }
    for (let index = layout.start; index < layout.end; index += 1) {
      const cell = document.createElement('div');
      cell.setAttribute('role', 'gridcell');
      cell.className = 'cell';
      cell.dataset.index = String(index);
      const image = document.createElement('img');
      image.draggable = false;
      image.addEventListener('error', () => {
        // Only a thumbnail that failed: not a load called off (a row that left the
        // screen, a src taken away), whose error comes after the cell is gone.
        if (!cell.isConnected || !image.getAttribute('src')) return;
        const photo = this.photos[Number(cell.dataset.index)];
        if (photo) this.failed.add(photo.id);
        cell.classList.add('no-thumbnail');
      });
      const name = document.createElement('span');
      name.className = 'cell-name';
      const position = document.createElement('span');
      position.className = 'cell-position';
      position.setAttribute('aria-hidden', 'true');
      const badge = document.createElement('span');
      badge.className = 'badge';
      badge.setAttribute('aria-hidden', 'true');
      const group = document.createElement('span');
      group.className = 'group-badge';
      group.setAttribute('aria-hidden', 'true');
      const lock = document.createElement('span');
      lock.className = 'lock';
      lock.setAttribute('aria-hidden', 'true');
      lock.textContent = 'protected';
      const marks = makeMarks('cell-marks');
      marks.setAttribute('aria-hidden', 'true');
      cell.append(image, name, position, group, lock, badge, marks);
      element.append(cell);
    }
    return element;
  }

  paintRow(row, withImages) {
    if (row.layout.kind !== 'cells') return;
    const size = this.cell * (window.devicePixelRatio || 1) <= 128 ? 'normal' : 'large';
    if (withImages) row.held = false;
    for (const cell of row.element.children) {
      const index = Number(cell.dataset.index);
      const photo = this.photos[index];
      if (!photo) continue;
      const [image, name, position, group, lock, badge, marks] = cell.children;
      const number = this.numbers.get(photo.id);
      const file = fileName(photo.path);
      if (withImages) {
        const video = VIDEO_TYPES.has(photo.type);
        image.alt = file;
        const made = photo.thumbnail === true || this.ready.has(photo.id);
        const none = video || this.failed.has(photo.id) || (this.thumbnailsOff === true && !made);
        if (!none && made) {
          const url = photoURL(photo, size);
          if (image.getAttribute('src') === url) {
            // Loaded or on its way already.
          } else if (this.flinging) {
            image.removeAttribute('src');
            row.held = true;
          } else {
            image.src = url;
          }
        } else {
          image.removeAttribute('src');
          if (!none) this.want(photo.id);
        }
        cell.classList.toggle('no-thumbnail', none);
        cell.classList.toggle('pending', !none && !made);
        name.textContent = file;
        position.textContent = String(index + 1);
        group.textContent = groupLabel(photo);
        group.hidden = group.textContent === '';
        lock.hidden = !photo.protected;
      }
      badge.textContent = number ? String(number) : '';
      badge.hidden = !number;
      paintMarks(marks, photo);
      cell.classList.toggle('rejected', photo.flag === 'reject');
      const marked = marksText(photo);
      cell.classList.toggle('selected', Boolean(number));
      cell.classList.toggle('protected', Boolean(photo.protected));
      cell.setAttribute('aria-selected', number ? 'true' : 'false');
      cell.setAttribute('aria-rowindex', String(index + 1));
      let label = `${index + 1}. ${file}`;
      if (number) label += `, selected, number ${number}`;
      if (marked) label += `, ${marked}`;
      if (photo.protected) label += ', protected';
      if (group.textContent) label += `, ${group.textContent}`;
      cell.setAttribute('aria-label', label);
      cell.tabIndex = index === this.focused ? 0 : -1;
    }
  }

  /** Moves the focus to `index`, scrolling it into view. */
  setFocused(index, move = true) {
    if (this.photos.length === 0) return;
    const clamped = Math.max(0, Math.min(this.photos.length - 1, index));
    const changed = clamped !== this.focused;
    this.focused = clamped;
    if (changed) for (const row of this.live.values()) {
      if (row.layout.kind !== 'cells') continue;
      for (const cell of row.element.children) cell.tabIndex = Number(cell.dataset.index) === clamped ? 0 : -1;
    }
    if (move) {
      this.scrollToIndex(clamped);
      this.render();
      const cell = this.cellElement(clamped);
      if (cell) cell.focus({ preventScroll: true });
    }
    if (this.onFocusIndex) this.onFocusIndex(clamped);
  }

  cellElement(index) {
    return this.scroller.querySelector(`[data-index="${index}"]`);
  }

  scrollToIndex(index) {
    const row = this.rows.find((candidate) => candidate.kind === 'cells' && index >= candidate.start && index < candidate.end);
    if (!row) return;
    const view = this.scroller;
    if (row.top < view.scrollTop + HEADER) view.scrollTop = Math.max(0, row.top - HEADER);
    else if (row.top + row.height > view.scrollTop + view.clientHeight) view.scrollTop = row.top + row.height - view.clientHeight;
  }

  /** The index `delta` rows up or down from `index`, in the same column where it can. */
  verticalFrom(index, delta) {
    const at = this.rows.findIndex((row) => row.kind === 'cells' && index >= row.start && index < row.end);
    if (at < 0) return index;
    const column = index - this.rows[at].start;
    let target = at;
    let steps = Math.abs(delta);
    while (steps > 0) {
      target += Math.sign(delta);
      if (target < 0 || target >= this.rows.length) return delta < 0 ? 0 : this.photos.length - 1;
      if (this.rows[target].kind === 'cells') steps -= 1;
    }
    const row = this.rows[target];
    return Math.min(row.start + column, row.end - 1);
  }

  get rowsPerPage() {
    return Math.max(1, Math.floor(this.scroller.clientHeight / (this.cell + GAP)));
  }

  bindPointer() {
    let press = null;
    this.scroller.addEventListener('pointerdown', (event) => {
      const cell = event.target.closest('[data-index]');
      if (!cell || event.button !== 0) return;
      const index = Number(cell.dataset.index);
      press = { index, x: event.clientX, y: event.clientY, long: false };
      press.timer = setTimeout(() => {
        if (!press) return;
        press.long = true;
        this.onLongPress(index);
      }, LONG_PRESS_MS);
    });
    const cancel = (event) => {
      if (!press) return;
      if (event.type === 'pointermove' && Math.hypot(event.clientX - press.x, event.clientY - press.y) < 10) return;
      clearTimeout(press.timer);
      if (event.type !== 'pointerup') press = null;
    };
    this.scroller.addEventListener('pointermove', cancel);
    this.scroller.addEventListener('pointercancel', cancel);
    this.scroller.addEventListener('pointerup', cancel);
    this.scroller.addEventListener('contextmenu', (event) => {
      if (press && event.target.closest('[data-index]')) event.preventDefault();
    });
    this.scroller.addEventListener('click', (event) => {
      const cell = event.target.closest('[data-index]');
      const wasLong = press && press.long;
      press = null;
      if (!cell || wasLong) return;
      const index = Number(cell.dataset.index);
      this.setFocused(index, false);
      if (event.ctrlKey || event.metaKey || this.selectMode) this.onToggle(index);
      else this.onActivate(index);
    });
  }
}
