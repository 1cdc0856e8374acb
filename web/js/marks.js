// SPDX-License-Identifier: GPL-2.0-or-later
// A photo's stars, flag and colour label as its listing (or its last `metadata`
// event) says them: drawn the same way on a grid cell and in the loupe, and said in
// words for a screen reader ("3 stars, picked, red label").

const FLAG_WORDS = { pick: 'picked', reject: 'rejected' };
const FLAG_SIGNS = { pick: '✓', reject: '✕' };

/** "3 stars, picked, red label", or '' for a photo nothing marks. */
export function marksText(photo) {
  const parts = [];
  if (photo.rating > 0) parts.push(`${photo.rating} star${photo.rating === 1 ? '' : 's'}`);
  if (FLAG_WORDS[photo.flag]) parts.push(FLAG_WORDS[photo.flag]);
  if (photo.label) parts.push(`${photo.label} label`);
  return parts.join(', ');
}

/** An element to hold the marks; its content is drawn by `paintMarks`. */
export function makeMarks(className) {
  const marks = document.createElement('span');
  marks.className = 'marks ' + className;
  const stars = document.createElement('span');
  stars.className = 'marks-stars';
  const flag = document.createElement('span');
  flag.className = 'marks-flag';
  const label = document.createElement('span');
  label.className = 'marks-label';
  marks.append(stars, flag, label);
  return marks;
}

/** Draws `photo`'s marks into an element made by `makeMarks`; hidden when there are none. */
export function paintMarks(marks, photo) {
  const [stars, flag, label] = marks.children;
  const rating = photo.rating > 0 ? Math.min(5, photo.rating) : 0;
  stars.textContent = '★'.repeat(rating);
  stars.hidden = rating === 0;
  const sign = FLAG_SIGNS[photo.flag];
  flag.textContent = sign || '';
  flag.dataset.flag = sign ? photo.flag : '';
  flag.hidden = !sign;
  label.dataset.label = photo.label || '';
  label.hidden = !photo.label;
  marks.hidden = rating === 0 && !sign && !photo.label;
}
