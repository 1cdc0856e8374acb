// SPDX-License-Identifier: GPL-2.0-or-later
// Compare: 2 to 4 photos side by side, zoomed and panned together (one Zoom for
// every frame), to pick the best of a burst: each its `screen` picture, the photo
// itself once zoomed past it.
import { photoURL } from './api.js';
import { fileName } from './store.js';
import { Zoom } from './zoom.js';
import { fitted, fullSize, sharpen } from './pictures.js';

export class Compare {
  constructor(root, { store, onClose }) {
    this.root = root;
    this.store = store;
    this.onClose = onClose;
    this.panes = root.querySelector('.compare-panes');
    this.zoom = new Zoom((zoom) => {
      if (!zoom.zoomed) return;
      for (const entry of zoom.frames) sharpen(entry.image, entry.photo, () => entry.image.isConnected);
    });
    root.querySelector('.compare-close').addEventListener('click', () => this.close());
    root.querySelector('.compare-zoom').addEventListener('click', () => this.zoom.toggleActual());
  }

  get isOpen() {
    return !this.root.hidden;
  }

  /** Opens with the photos of these ids (2 to 4, in this order). */
  open(ids) {
    this.zoom.detachAll();
    this.panes.replaceChildren();
    this.panes.dataset.count = String(ids.length);
    for (const id of ids) {
      const photo = this.store.photos.find((candidate) => candidate.id === id);
      const figure = document.createElement('figure');
      figure.className = 'compare-pane';
      const frame = document.createElement('div');
      frame.className = 'zoom-frame';
      const image = document.createElement('img');
      image.className = 'zoom-image';
      image.alt = photo ? fileName(photo.path) : `photo ${id}`;
      image.src = photoURL(photo || id, photo ? fitted() : 'preview');
      frame.append(image);
      const caption = document.createElement('figcaption');
      const number = this.store.numbers.get(id);
      caption.textContent = (number ? `${number}. ` : '') + image.alt;
      figure.append(frame, caption);
      this.panes.append(figure);
      const entry = this.zoom.attach(frame, image);
      entry.photo = photo;
      // 100 % is of each photo, not of the smaller picture shown.
      if (photo) fullSize(photo).then((size) => { entry.full = size; }).catch(() => {});
    }
    this.root.hidden = false;
    this.root.querySelector('.compare-close').focus();
  }

  close() {
    if (!this.isOpen) return;
    this.root.hidden = true;
    this.panes.replaceChildren();
    this.zoom.detachAll();
    if (this.onClose) this.onClose();
  }

  handleKey(event) {
    switch (event.key) {
      case 'Escape':
      case 'c':
      case 'C':
        this.close();
        return true;
      default:
        return this.zoom.handleKey(event);
    }
  }
}
