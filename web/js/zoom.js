// SPDX-License-Identifier: GPL-2.0-or-later
// Zoom and pan of pictures in frames: fit, or any scale up to 100 % (one pixel of the
// image on one pixel of the screen) and beyond, moved by wheel, drag, keys and pinch.
// Several frames may share one Zoom (compare), so they move together. The loupe and
// compare take their pointer and key handling from here.

export class Zoom {
  constructor(onChange) {
    this.factor = 1;
    this.x = 0;
    this.y = 0;
    this.onChange = onChange;
    this.frames = [];
  }

  /** `frame` holds `image`; the image is fitted to the frame, then zoomed. */
  attach(frame, image) {
    const entry = { frame, image };
    this.frames.push(entry);
    image.addEventListener('load', () => this.apply());
    this.bind(frame);
    return entry;
  }

  detachAll() {
    this.frames = [];
    this.reset();
  }

  reset() {
    this.factor = 1;
    this.x = 0;
    this.y = 0;
    this.apply();
  }

  fitScale(entry) {
    const { frame, image } = entry;
    if (!image.naturalWidth) return 1;
    return Math.min(frame.clientWidth / image.naturalWidth, frame.clientHeight / image.naturalHeight);
  }

  /**
   * The scale that fits the photo itself to the frame: `entry.full` (its size, when
   * the image shown is a smaller picture of it), else the image's own size.
   */
  fullScale(entry) {
    const size = entry.full || { width: entry.image.naturalWidth, height: entry.image.naturalHeight };
    if (!size.width) return 1;
    return Math.min(entry.frame.clientWidth / size.width, entry.frame.clientHeight / size.height);
  }

  /** The factor that shows the first frame's photo at one of its pixels per device pixel. */
  actualFactor() {
    const entry = this.frames[0];
    if (!entry || !entry.image.naturalWidth) return 1;
    return 1 / (window.devicePixelRatio || 1) / this.fullScale(entry);
  }

  get zoomed() {
    return this.factor > 1.001;
  }

  toggleActual() {
    if (this.zoomed) this.reset();
    else this.zoomTo(Math.max(this.actualFactor(), 1.5));
  }

  zoomTo(factor, originX = 0, originY = 0) {
    const clamped = Math.max(1, Math.min(factor, 32));
    const ratio = clamped / this.factor;
    this.x = originX - (originX - this.x) * ratio;
    this.y = originY - (originY - this.y) * ratio;
    this.factor = clamped;
    if (clamped === 1) {
      this.x = 0;
      this.y = 0;
    }
    this.apply();
  }

  pan(dx, dy) {
    if (!this.zoomed) return;
    this.x += dx;
    this.y += dy;
    this.apply();
  }

  /**
   * The keys every zoomed view shares: Z (100 % / fit), + and - (zoom), the arrows
   * (pan; Shift for bigger steps). True when the key was one of them.
   */
  handleKey(event) {
    const step = event.shiftKey ? 200 : 60;
    switch (event.key) {
      case 'z':
      case 'Z':
        this.toggleActual();
        return true;
      case '+':
      case '=':
        this.zoomTo(this.factor * 1.25);
        return true;
      case '-':
        this.zoomTo(this.factor / 1.25);
        return true;
      case 'ArrowLeft':
        this.pan(step, 0);
        return true;
      case 'ArrowRight':
        this.pan(-step, 0);
        return true;
      case 'ArrowUp':
        this.pan(0, step);
        return true;
      case 'ArrowDown':
        this.pan(0, -step);
        return true;
      default:
        return false;
    }
  }

  apply() {
    for (const entry of this.frames) {
      // Laid out at the size drawn, not scaled by a transform: the browser then
      // decodes a large JPEG at that size (a fraction of its pixels) until zoomed.
      const scale = this.fitScale(entry) * this.factor;
      const { naturalWidth: width, naturalHeight: height } = entry.image;
      entry.image.style.transform = `translate(-50%, -50%) translate(${this.x}px, ${this.y}px)`;
      entry.image.style.width = width ? width * scale + 'px' : '';
      entry.image.style.height = height ? height * scale + 'px' : '';
    }
    if (this.onChange) this.onChange(this);
  }

  bind(frame) {
    frame.addEventListener('wheel', (event) => {
      event.preventDefault();
      const rect = frame.getBoundingClientRect();
      const originX = event.clientX - rect.left - rect.width / 2;
      const originY = event.clientY - rect.top - rect.height / 2;
      if (event.ctrlKey || !this.zoomed || Math.abs(event.deltaY) > Math.abs(event.deltaX) * 2 && !event.shiftKey) {
        this.zoomTo(this.factor * Math.exp(-event.deltaY / 300), originX, originY);
      } else {
        this.pan(-event.deltaX, -event.deltaY);
      }
    }, { passive: false });
    const pointers = new Map();
    let pinch = null;
    frame.addEventListener('pointerdown', (event) => {
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      frame.setPointerCapture(event.pointerId);
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y), factor: this.factor };
      }
    });
    frame.addEventListener('pointermove', (event) => {
      const last = pointers.get(event.pointerId);
      if (!last) return;
      const now = { x: event.clientX, y: event.clientY };
      pointers.set(event.pointerId, now);
      if (pinch && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        this.zoomTo(pinch.factor * Math.hypot(a.x - b.x, a.y - b.y) / Math.max(1, pinch.distance));
      } else if (pointers.size === 1 && this.zoomed) {
        this.pan(now.x - last.x, now.y - last.y);
      }
    });
    const end = (event) => {
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinch = null;
    };
    frame.addEventListener('pointerup', end);
    frame.addEventListener('pointercancel', end);
  }
}
