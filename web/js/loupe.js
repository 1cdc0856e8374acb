// SPDX-License-Identifier: GPL-2.0-or-later
// The loupe: one photo filling the screen (its `screen` picture, the full-size
// `preview` once zoomed past it), zoom to 100 % and pan, next and previous with the
// neighbours fetched ahead, swipe on a touch screen, and a panel of what the file
// says (`photo.info`) and the group's members.
import { call, photoURL } from './api.js';
import { fileName, formatBytes, groupLabel } from './store.js';
import { Zoom } from './zoom.js';
import { makeMarks, marksText, paintMarks } from './marks.js';
import { fitted, sharpen, sizeOf } from './pictures.js';

/** Shutter, aperture, ISO and focal length as photographers write them, from `photo.info`. */
function exposureRows(info) {
  const rows = [];
  const time = info.exposure_time;
  if (time > 0) rows.push(['Shutter', time < 0.3 ? `1/${Math.round(1 / time)} s` : `${Number(time.toFixed(1))} s`]);
  if (info.f_number > 0) rows.push(['Aperture', `f/${Number(info.f_number.toFixed(1))}`]);
  if (info.iso > 0) rows.push(['ISO', String(info.iso)]);
  if (info.focal_length > 0) rows.push(['Focal length', `${Number(info.focal_length.toFixed(1))} mm`]);
  return rows;
}

export class Loupe {
  constructor(root, { store, onClose, onToggle }) {
    this.root = root;
    this.store = store;
    this.onClose = onClose;
    this.onToggle = onToggle;
    this.index = -1;
    this.frame = root.querySelector('.loupe-frame');
    this.image = root.querySelector('.loupe-image');
    this.title = root.querySelector('.loupe-title');
    this.badge = root.querySelector('.loupe-badge');
    this.info = root.querySelector('.loupe-info dl');
    this.zoomLabel = root.querySelector('.loupe-zoom');
    this.marks = makeMarks('loupe-marks');
    this.marks.setAttribute('role', 'img');
    this.title.after(this.marks);
    this.ahead = [];
    this.spare = root.querySelector('.loupe-spare');
    this.standin = root.querySelector('.loupe-standin');
    // The two swap places: a load is the zoom's when the image is the one shown,
    // and the stand-in goes in the frame that draws it.
    for (const element of [this.image, this.spare]) {
      element.addEventListener('load', () => {
        if (element === this.spare) {
          this.fit(this.spare);
        } else {
          this.zoom.apply();
          this.standin.hidden = true;
          this.shownIn();
        }
      });
      element.addEventListener('error', () => {
        if (element === this.image) this.shownIn();
      });
    }
    this.standin.addEventListener('load', () => this.fit(this.standin));
    // The panel opened or closed, a phone turned: the photo fits the frame again.
    new ResizeObserver(() => {
      if (!this.isOpen) return;
      this.zoom.apply();
      this.fit(this.spare);
      this.fit(this.standin);
    }).observe(this.frame);
    this.zoom = new Zoom((zoom) => {
      this.zoomLabel.textContent = zoom.zoomed ? Math.round(zoom.factor * zoom.fullScale(zoom.frames[0]) * (window.devicePixelRatio || 1) * 100) + ' %' : 'Fit';
      this.sharpen();
    });
    this.zoom.attach(this.frame, this.image);
    root.querySelector('.loupe-close').addEventListener('click', () => this.close());
    root.querySelector('.loupe-prev').addEventListener('click', () => this.step(-1));
    root.querySelector('.loupe-next').addEventListener('click', () => this.step(1));
    root.querySelector('.loupe-zoom').addEventListener('click', () => this.zoom.toggleActual());
    root.querySelector('.loupe-select').addEventListener('click', () => this.toggleSelected());
    root.querySelector('.loupe-info-toggle').addEventListener('click', () => root.classList.toggle('info-open'));
    this.bindSwipe();
    store.addEventListener('selection', () => this.paintBadge());
    store.addEventListener('marks', (event) => {
      if (this.isOpen && event.detail.index === this.index) {
        this.photo = event.detail.photo;
        this.paintMarks();
      }
    });
  }

  get isOpen() {
    return !this.root.hidden;
  }

  open(index) {
    this.opener = document.activeElement;
    this.root.hidden = false;
    this.show(index);
    this.root.querySelector('.loupe-close').focus();
  }

  close() {
    if (!this.isOpen) return;
    this.root.hidden = true;
    this.image.removeAttribute('src');
    this.spare.removeAttribute('src');
    this.standin.removeAttribute('src');
    this.standin.hidden = true;
    if (this.onClose) this.onClose(this.index);
  }

  show(index) {
    const photos = this.store.photos;
    if (photos.length === 0) return this.close();
    this.index = Math.max(0, Math.min(photos.length - 1, index));
    const photo = photos[this.index];
    this.photo = photo;
    this.zoom.frames[0].full = null;
    const url = photoURL(photo, fitted());
    if (this.spare.getAttribute('src') === url) {
      this.swap();
      this.standin.hidden = true;
    } else {
      // A large photo takes the browser a while to decode: until it is drawn, the
      // grid's thumbnail (in the browser's cache) stands in for it, scaled up.
      if (photo.thumbnail === true) this.standin.src = photoURL(photo, 'large');
      else this.standin.removeAttribute('src');
      this.standin.hidden = photo.thumbnail !== true;
      this.image.src = url;
    }
    this.zoom.reset();
    this.image.alt = fileName(photo.path);
    this.title.textContent = `${this.index + 1} / ${photos.length} · ${fileName(photo.path)}`;
    this.paintBadge();
    this.paintMarks();
    // The neighbours once this photo is in: the daemon makes pictures one at a time,
    // and this one is waited for.
    this.aheadOf = this.index;
    if (this.image.complete && this.image.naturalWidth > 0) this.shownIn();
    this.loadInfo(photo);
  }

  /** The photo shown loaded (or failed): its neighbours' turn. */
  shownIn() {
    if (this.aheadOf !== this.index || !this.isOpen) return;
    this.aheadOf = -1;
    this.fetchAhead();
  }

  /** The spare, holding the photo now shown, takes the place of the image. */
  swap() {
    [this.image, this.spare] = [this.spare, this.image];
    this.image.className = 'loupe-image zoom-image';
    this.image.removeAttribute('aria-hidden');
    this.spare.className = 'loupe-spare zoom-image';
    this.spare.setAttribute('aria-hidden', 'true');
    this.spare.alt = '';
    this.zoom.frames[0].image = this.image;
  }

  step(delta) {
    this.show(this.index + delta);
  }

  toggleSelected() {
    if (this.photo) this.onToggle(this.index);
  }

  paintBadge() {
    if (!this.photo) return;
    const number = this.store.numbers.get(this.photo.id);
    this.badge.textContent = number ? String(number) : '';
    this.badge.hidden = !number;
    const button = this.root.querySelector('.loupe-select');
    button.setAttribute('aria-pressed', number ? 'true' : 'false');
    button.textContent = number ? `Selected (${number})` : 'Select';
  }

  paintMarks() {
    paintMarks(this.marks, this.photo);
    this.marks.setAttribute('aria-label', marksText(this.photo) || 'no stars, flag or label');
  }

  /**
   * The neighbours' previews, so that next and previous show at once. The next one
   * goes to the spare: an image laid out under the one shown, at the size it will be
   * shown, all but transparent, so that the browser decodes it at that size (a
   * 24-megapixel JPEG takes longer to decode than to fetch) before it is asked for.
   * The others are only fetched.
   */
  fetchAhead() {
    const photos = this.store.photos;
    const next = photos[this.index + 1];
    // Once the photo shown is drawn: decoding the next one at once would take the
    // browser's cache of decoded images from the one about to be drawn.
    const shown = this.index;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      if (this.index !== shown || !this.isOpen) return;
      if (next) this.spare.src = photoURL(next, fitted());
      else this.spare.removeAttribute('src');
    }));
    this.ahead = [this.index - 1, this.index + 2]
      .filter((i) => i >= 0 && i < photos.length)
      .map((i) => {
        const image = new Image();
        image.src = photoURL(photos[i], fitted());
        return image;
      });
  }

  /**
   * The grid's focus or the mouse rested on `index`: its picture is fetched meanwhile
   * (the daemon makes it first if need be), so that Enter or a click shows it
   * without waiting for either.
   */
  prepare(index) {
    clearTimeout(this.resting);
    this.resting = setTimeout(() => {
      const photo = this.store.photos[index];
      // Only what the daemon makes pictures of (thumbnails on, not a video).
      if (!photo || this.isOpen || photo.thumbnail !== true) return;
      this.rested = new Image();
      this.rested.src = photoURL(photo, fitted());
    }, 300);
  }

  /** Zoomed past the `screen` picture's pixels: the photo itself takes its place. */
  sharpen() {
    const image = this.image;
    const photo = this.photo;
    if (this.zoom.zoomed) sharpen(image, photo, () => this.photo === photo && this.image === image);
  }

  /** The spare or the stand-in at the size the photo is shown unzoomed. */
  fit(image) {
    const { naturalWidth: width, naturalHeight: height } = image;
    if (!width) return;
    const scale = Math.min(this.frame.clientWidth / width, this.frame.clientHeight / height);
    image.style.transform = 'translate(-50%, -50%)';
    image.style.width = width * scale + 'px';
    image.style.height = height * scale + 'px';
  }

  async loadInfo(photo) {
    const rows = [['File', photo.path], ['Size', formatBytes(photo.total_size || photo.size)]];
    if (photo.capture_time) rows.push(['Taken', photo.capture_time.replace('T', ' ')]);
    this.fillInfo(rows, photo);
    try {
      const info = await call('photo.info', { photo: photo.id });
      if (!this.photo || this.photo.id !== photo.id) return;
      const camera = [info.camera_make, info.camera_model].filter(Boolean).join(' ');
      if (camera) rows.push(['Camera', camera]);
      if (info.lens) rows.push(['Lens', info.lens]);
      if (info.width && info.height) {
        rows.push(['Pixels', `${info.width} × ${info.height}`]);
        // 100 % is of the photo, not of the smaller picture shown.
        this.zoom.frames[0].full = sizeOf(info);
        this.zoom.apply();
      }
      for (const [label, text] of exposureRows(info)) rows.push([label, text]);
      if (info.unreadable) rows.push(['Note', info.unreadable]);
      this.fillInfo(rows, photo);
    } catch (error) {
      rows.push(['Note', error.message]);
      this.fillInfo(rows, photo);
    }
  }

  fillInfo(rows, photo) {
    this.info.replaceChildren();
    for (const [term, value] of rows) {
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.textContent = value;
      this.info.append(dt, dd);
    }
    if (photo.members && photo.members.length) {
      const dt = document.createElement('dt');
      dt.textContent = groupLabel(photo) || 'Group';
      const dd = document.createElement('dd');
      dd.textContent = photo.members.map((member) => `${member.name} (${member.kind})`).join(', ');
      this.info.append(dt, dd);
    }
  }

  /** Arrow keys pan a zoomed photo and step otherwise; true when the key was the loupe's. */
  handleKey(event) {
    switch (event.key) {
      case 'Escape':
        if (this.root.querySelector('dialog[open]')) return false;
        this.close();
        return true;
      case 'ArrowRight':
      case 'ArrowLeft':
        if (this.zoom.zoomed) return this.zoom.handleKey(event);
        this.step(event.key === 'ArrowRight' ? 1 : -1);
        return true;
      case ' ':
        this.toggleSelected();
        return true;
      case 'i':
      case 'I':
        this.root.classList.toggle('info-open');
        return true;
      default:
        return this.zoom.handleKey(event);
    }
  }

  bindSwipe() {
    let start = null;
    let touches = 0;
    this.frame.addEventListener('pointerdown', (event) => {
      touches += 1;
      if (event.pointerType === 'touch' && touches === 1) start = { x: event.clientX, y: event.clientY, at: performance.now() };
      else start = null;
    });
    const end = (event) => {
      touches = Math.max(0, touches - 1);
      if (!start || this.zoom.zoomed || event.type !== 'pointerup') {
        if (touches === 0) start = null;
        return;
      }
      const dx = event.clientX - start.x;
      const dy = event.clientY - start.y;
      start = null;
      if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) this.step(dx < 0 ? 1 : -1);
    };
    this.frame.addEventListener('pointerup', end);
    this.frame.addEventListener('pointercancel', end);
    this.frame.addEventListener('dblclick', () => this.zoom.toggleActual());
  }
}
