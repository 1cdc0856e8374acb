// SPDX-License-Identifier: GPL-2.0-or-later
// Small pieces every module shows: the toast (with one action, such as Undo), the
// question before anything is cleared or moved, and the connection's state.

// Toasts on screen at once: past it the oldest goes (one without an action first).
const MAX_TOASTS = 3;

/**
 * Shows `message`, with one `action` ({label, run}) when given. A toast of the same
 * `key` (by default, an action-less one of the same text) is updated in place and
 * its time starts again, so that keys pressed fast do not pile toasts up.
 */
export function toast(message, action, key = action ? '' : message) {
  const region = document.getElementById('toast');
  const same = key ? [...region.children].find((item) => item.dataset.key === key) : null;
  const item = same || document.createElement('div');
  item.className = 'toast-item';
  item.dataset.key = key;
  clearTimeout(Number(item.dataset.timer));
  const text = document.createElement('span');
  text.textContent = message;
  item.replaceChildren(text);
  if (action) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = action.label;
    button.addEventListener('click', () => {
      item.remove();
      action.run();
    });
    item.append(button);
  }
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'toast-close';
  close.setAttribute('aria-label', 'Dismiss');
  close.textContent = '×';
  close.addEventListener('click', () => item.remove());
  item.append(close);
  if (!same) region.append(item);
  item.dataset.timer = String(setTimeout(() => item.remove(), action ? 20000 : 6000));
  while (region.children.length > MAX_TOASTS) {
    const items = [...region.children];
    (items.find((other) => other !== item && other.querySelectorAll('button').length === 1) || items[0]).remove();
  }
  return item;
}

/** Asks a question in a modal dialog; resolves true for the confirming answer. */
export function ask({ title, body, confirm, danger = false }) {
  const dialog = document.getElementById('ask');
  dialog.querySelector('h2').textContent = title;
  const content = dialog.querySelector('.ask-body');
  content.replaceChildren();
  for (const line of [].concat(body)) {
    const paragraph = document.createElement('p');
    paragraph.textContent = line;
    content.append(paragraph);
  }
  const yes = dialog.querySelector('.ask-yes');
  yes.textContent = confirm;
  yes.classList.toggle('danger', danger);
  return new Promise((resolve) => {
    dialog.onclose = () => resolve(dialog.returnValue === 'yes');
    dialog.returnValue = '';
    dialog.showModal();
    dialog.querySelector('.ask-no').focus();
  });
}

export function connection(state) {
  const banner = document.getElementById('connection');
  banner.hidden = state === 'open';
  banner.textContent = state === 'lost' ? 'Connection to curatord lost: reconnecting…' : '';
}

export function showError(error) {
  toast(error && error.message ? error.message : String(error));
}
