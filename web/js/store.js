// SPDX-License-Identifier: GPL-2.0-or-later
// What the daemon says, as last heard: the session's listing and its selection.
// Nothing here is decided by the page: a change is a request, and the state comes
// back from the daemon's answer or its events (the page keeps no second truth).
import { call } from './api.js';

const LIST_FIELDS = ['id', 'path', 'type', 'size', 'mtime_ns', 'capture_time', 'protected', 'offline', 'thumbnail', 'members', 'rating'];
const MARKS = ['rating', 'flag', 'label'];
const FIRST_PAGE = 300;
const PAGE = 5000;

export class Store extends EventTarget {
  constructor(session = 'default') {
    super();
    this.session = session;
    this.photos = [];
    this.sections = [];
    this.total = 0;
    this.view = {};
    this.mode = 'view';
    this.cap = null;
    this.count = 0;
    this.bytes = 0;
    this.hidden = 0;
    this.numbers = new Map();
    this.listing = 0;
    this.viewListed = false;
    this.relistTimer = 0;
    this.queue = Promise.resolve();
    /** Waited for between the first page and the rest (set by the page). */
    this.beforeRest = null;
  }

  emit(name, detail) {
    this.dispatchEvent(new CustomEvent(name, { detail }));
  }

  /**
   * Lists the session's view: a first page at once (the first screen), then the rest
   * in pages. One answer of 100 000 photos is 15 MB: parsed at once it holds the page
   * for a quarter of a second, and the thumbnails wait behind it at the gateway.
   */
  async relist() {
    const generation = ++this.listing;
    const first = await call('list', { session: this.session, limit: FIRST_PAGE, fields: LIST_FIELDS });
    if (generation !== this.listing) return;
    const photos = first.photos;
    const sections = (first.folders || []).map((section) => ({ ...section }));
    this.take(first, photos, sections);
    // The first screen's thumbnails before the rest: the pages would take their
    // connections and the page's time while the first grid is drawn.
    if (photos.length < first.total && this.beforeRest) await this.beforeRest();
    while (photos.length < first.total) {
      const page = await call('list', { session: this.session, offset: photos.length, limit: PAGE, fields: LIST_FIELDS });
      if (generation !== this.listing) return;
      if (page.total !== first.total || page.photos.length === 0) {
        // The view changed between pages (its event is on its way, or was missed):
        // the pages no longer fit together. Listed again from the start.
        this.scheduleRelist();
        return;
      }
      for (const photo of page.photos) photos.push(photo);
      joinSections(sections, page.folders || []);
      this.take(page, photos, sections);
    }
  }

  take(listing, photos, sections) {
    this.photos = photos;
    this.total = listing.total;
    this.sections = sections;
    if (listing.view) {
      this.view = listing.view;
      this.viewListed = true;
    }
    this.emit('listing');
  }

  scheduleRelist() {
    if (this.relistTimer) return;
    this.relistTimer = setTimeout(() => {
      this.relistTimer = 0;
      this.relist().catch((error) => this.emit('failure', error));
    }, 120);
  }

  async refreshSelection() {
    this.takeSelection(await call('selection', { session: this.session }));
  }

  /** A `selection` answer or event: the whole state of the session. */
  takeSelection(state) {
    // Only against a view a listing gave: the first selection may come before it.
    const viewChanged = this.viewListed && state.view && JSON.stringify(state.view) !== JSON.stringify(this.view);
    this.mode = state.mode;
    this.cap = state.cap;
    this.count = state.count;
    this.bytes = state.bytes;
    this.hidden = state.hidden || 0;
    if (state.items) {
      this.numbers = new Map(state.items.map((item) => [item.id, item.number]));
    }
    if (state.view) this.view = state.view;
    this.emit('selection');
    if (viewChanged) this.scheduleRelist();
  }

  /**
   * A session request (select, toggle, mode, ...), then the selection it left. Requests
   * go one after the other, in the order asked: keys typed fast select in tap order.
   * With `selecting`, select mode is entered first when the session is not in it.
   */
  change(cmd, args = {}, { selecting = false } = {}) {
    const run = async () => {
      if (selecting && this.mode !== 'select') {
        this.takeSelection(await call('mode', { session: this.session, mode: 'select' }));
      }
      const result = await call(cmd, { session: this.session, ...args });
      await this.refreshSelection();
      return result;
    };
    const done = this.queue.then(run, run);
    this.queue = done.catch(() => {});
    return done;
  }

  apply(event) {
    switch (event.event) {
      case 'selection':
        if (event.session === this.session) this.takeSelection(event);
        break;
      case 'added':
      case 'changed':
      case 'moved':
      case 'removed':
      case 'scanned':
      case 'online':
      case 'offline':
      case 'dropped':
        this.scheduleRelist();
        break;
      case 'scan':
        if (event.state === 'done') this.scheduleRelist();
        break;
      case 'metadata':
        this.takeMarks(event.photo);
        break;
      case 'batch':
        this.emit('batch', event);
        break;
      case 'thumbnail':
        this.emit('thumbnail', event);
        break;
      default:
        break;
    }
  }

  /**
   * A `metadata` event: the photo's marks as the daemon now has them (each absent
   * when none). A view narrowed or sorted by marks may gain, lose or move the photo.
   */
  takeMarks(summary) {
    if (!summary) return;
    const index = this.indexOfId(summary.id);
    if (index >= 0) {
      const photo = { ...this.photos[index] };
      for (const key of MARKS) {
        if (summary[key] === undefined) delete photo[key];
        else photo[key] = summary[key];
      }
      this.photos[index] = photo;
      this.emit('marks', { index, photo });
    }
    const view = this.view || {};
    const filter = view.filter || {};
    if (MARKS.includes(view.sort) || ['rating_min', 'rating_max', 'flags', 'labels'].some((key) => key in filter)) {
      this.scheduleRelist();
    }
  }

  indexOfId(id) {
    return this.photos.findIndex((photo) => photo.id === id);
  }
}

/**
 * Appends a page's sections (runs of one folder, `count` on that page) to those before
 * it: a run the page boundary cut in two is one section.
 */
export function joinSections(sections, more) {
  for (const section of more) {
    const last = sections[sections.length - 1];
    if (last && last.root === section.root && last.path === section.path
        && last.first_position + last.count === section.first_position) {
      last.count += section.count;
    } else {
      sections.push({ ...section });
    }
  }
}

export function fileName(path) {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

export function folderOf(path) {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function formatBytes(bytes) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return (unit === 0 ? String(value) : value.toFixed(value < 10 ? 1 : 0)) + ' ' + units[unit];
}

/** "RAW+JPEG", "Live", ... for a group, '' for a photo alone. */
export function groupLabel(photo) {
  if (!photo.members || photo.members.length === 0) return '';
  const kinds = new Set(photo.members.map((member) => member.kind));
  if (kinds.has('video')) return 'Live';
  if (kinds.has('raw') || photo.kind === 'raw') return 'RAW+JPEG';
  if (kinds.has('rendered')) return 'RAW+JPEG';
  return '+' + photo.members.length;
}

export const VIDEO_TYPES = new Set(['mp4', 'mov']);
