// SPDX-License-Identifier: GPL-2.0-or-later
// Which picture of a photo a view draws: the daemon's `screen` picture (2560 px) on a
// screen no larger, the full-size `preview` once zoomed past the picture's pixels;
// and the photo's own size, which 100 % is of. Shared by the loupe and compare.
import { call, photoURL } from './api.js';

/** The longer side of the daemon's `screen` pictures (a photo larger than that has one). */
const SCREEN_SIDE = 2560;

/** What shows a photo whole on this screen: the `screen` picture, unless the screen is larger. */
export function fitted() {
  const side = Math.max(window.innerWidth, window.innerHeight) * (window.devicePixelRatio || 1);
  return side <= SCREEN_SIDE ? 'screen' : 'preview';
}

/**
 * Zoomed past a `screen` picture's own pixels (`image` drawn larger than it is): the
 * full-size one is fetched and decoded aside, then put in its place, the picture on
 * screen meanwhile. `current()` says whether the image still shows `photo`.
 */
export function sharpen(image, photo, current) {
  // A `screen` picture is exactly SCREEN_SIDE long; a photo no larger is its own.
  if (!photo || !image.src.includes('/screen') || Math.max(image.naturalWidth, image.naturalHeight) !== SCREEN_SIDE) return;
  const drawn = parseFloat(image.style.width) * (window.devicePixelRatio || 1);
  if (!(drawn > image.naturalWidth * 1.05) || image.dataset.sharpening === image.src) return;
  image.dataset.sharpening = image.src;
  const full = new Image();
  full.src = photoURL(photo, 'preview');
  full.decode().then(() => {
    if (current()) image.src = full.src;
  }).catch(() => {});
}

/**
 * The photo's own size, upright, from `photo.info` (null when the file does not say):
 * what 100 % is of when a smaller picture is drawn.
 */
export async function fullSize(photo) {
  const info = await call('photo.info', { photo: photo.id });
  return sizeOf(info);
}

/** The upright size `photo.info` gives, or null. */
export function sizeOf(info) {
  if (!info.width || !info.height) return null;
  const turned = info.orientation >= 5;
  return { width: turned ? info.height : info.width, height: turned ? info.width : info.height };
}
