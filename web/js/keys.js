// SPDX-License-Identifier: GPL-2.0-or-later
// The keyboard map: one table of keys, what they do and where, from which both the
// handling and the `?` list are made, so the list is never out of date.

/** [keys shown, description, matcher, action name] for the grid. */
export const GRID_KEYS = [
  ['← → ↑ ↓', 'Move between photos', (e) => e.key.startsWith('Arrow'), 'move'],
  ['Home / End', 'First / last photo', (e) => e.key === 'Home' || e.key === 'End', 'move'],
  ['Page Up / Page Down', 'A screen up / down', (e) => e.key === 'PageUp' || e.key === 'PageDown', 'move'],
  ['Space', 'Select or deselect (enters select mode)', (e) => e.key === ' ', 'toggle'],
  ['Enter', 'Open in the loupe', (e) => e.key === 'Enter', 'loupe'],
  ['S', 'Select mode on / off (off clears the selection: asks first)', (e) => plain(e, 's'), 'mode'],
  ['Ctrl+A', 'Select every photo of the view', (e) => (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'a', 'all'],
  ['Esc', 'Back: close, or leave select mode (asks first)', (e) => e.key === 'Escape', 'back'],
  ['C', 'Compare 2 to 4 selected photos', (e) => plain(e, 'c'), 'compare'],
  ['Delete', 'Delete the selection: shows the plan first', (e) => e.key === 'Delete' || e.key === 'Backspace', 'delete'],
  ['Ctrl+Z', 'Undo the last delete (asks first)', (e) => (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z', 'undo'],
  ['P / X / U', 'Flag as pick / reject / none', (e) => plain(e, 'p') || plain(e, 'x') || plain(e, 'u'), 'flag'],
  ['0 – 5', 'Stars', (e) => !e.ctrlKey && !e.metaKey && !e.altKey && /^[0-5]$/.test(e.key), 'rate'],
  ['T', 'The trash', (e) => plain(e, 't'), 'trash'],
  ['/', 'Filter', (e) => e.key === '/', 'filter'],
  ['?', 'This list', (e) => e.key === '?', 'help'],
];

export const LOUPE_KEYS = [
  ['← →', 'Previous / next photo (pan when zoomed)'],
  ['↑ ↓', 'Pan when zoomed'],
  ['Z', 'Zoom to 100 % / fit (double-click too)'],
  ['+ / −', 'Zoom in / out (wheel, pinch too)'],
  ['Space', 'Select or deselect'],
  ['I', 'Information panel'],
  ['P / X / U, 0 – 5', 'Flag and stars, as in the grid'],
  ['Esc', 'Back to the grid'],
];

export const COMPARE_KEYS = [
  ['Z, + / −', 'Zoom every photo together'],
  ['← → ↑ ↓', 'Pan every photo together'],
  ['Esc or C', 'Back to the grid'],
];

function plain(event, letter) {
  return !event.ctrlKey && !event.metaKey && !event.altKey && event.key.toLowerCase() === letter;
}

/** The grid's action for a key event, or null. */
export function gridAction(event) {
  for (const [, , matches, action] of GRID_KEYS) if (matches(event)) return action;
  return null;
}

/** True when the key belongs to a text field (typing there is not a command). */
export function isTyping(event) {
  const target = event.target;
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement
    || target instanceof HTMLSelectElement || (target && target.isContentEditable);
}

export function fillHelp(container) {
  container.replaceChildren();
  for (const [title, keys] of [['Grid', GRID_KEYS], ['Loupe', LOUPE_KEYS], ['Compare', COMPARE_KEYS]]) {
    const heading = document.createElement('h3');
    heading.textContent = title;
    const table = document.createElement('dl');
    table.className = 'keys';
    for (const [key, description] of keys) {
      const dt = document.createElement('dt');
      const kbd = document.createElement('kbd');
      kbd.textContent = key;
      dt.append(kbd);
      const dd = document.createElement('dd');
      dd.textContent = description;
      table.append(dt, dd);
    }
    container.append(heading, table);
  }
}
