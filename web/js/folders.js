// SPDX-License-Identifier: GPL-2.0-or-later
// The folder list, virtual as the grid is: rows of one height, only those on screen
// (and a few either side) in the DOM, so a root of 10 000 folders costs what one of
// ten does. One button takes Tab (the current folder's, or the last focused); the
// arrows, Page Up / Down, Home and End move between them, Enter or Space opens.

const ROW = 34;
const OVERSCAN = 6;

export class FolderList {
  constructor(holder, { onOpen }) {
    this.holder = holder;
    this.onOpen = onOpen;
    this.rows = [];
    this.current = -1;
    this.active = 0;
    this.live = new Map();
    this.list = document.createElement('div');
    this.list.className = 'tree';
    this.list.setAttribute('role', 'list');
    this.list.setAttribute('aria-label', 'Folders');
    holder.replaceChildren(this.list);
    holder.addEventListener('scroll', () => this.schedule(), { passive: true });
    new ResizeObserver(() => this.schedule()).observe(holder);
    holder.addEventListener('click', (event) => {
      const button = event.target.closest('.tree-item');
      if (button) this.onOpen(this.rows[Number(button.dataset.row)]);
    });
    holder.addEventListener('focusin', (event) => {
      const button = event.target.closest('.tree-item');
      if (button) this.setActive(Number(button.dataset.row), false);
    });
    holder.addEventListener('keydown', (event) => this.handleKey(event));
  }

  setRows(rows) {
    const before = this.rows;
    this.rows = rows;
    this.list.style.height = rows.length * ROW + 'px';
    this.active = Math.min(this.active, Math.max(0, rows.length - 1));
    // A row that says what it said keeps its element (refreshed after every listing,
    // the list mostly is); another is drawn again. The focus, if it was in the list,
    // stays on the same row.
    const focused = this.holder.contains(document.activeElement);
    const same = (a, b) => a && b && a.label === b.label && a.count === b.count && a.isProtected === b.isProtected
      && (a.target.root || '') === (b.target.root || '') && (a.target.folder || '') === (b.target.folder || '');
    for (const [row, element] of this.live) {
      if (same(before[row], rows[row]) && before.length === rows.length) continue;
      element.remove();
      this.live.delete(row);
    }
    this.render();
    if (focused) {
      const element = this.live.get(this.active);
      if (element) element.firstChild.focus({ preventScroll: true });
    }
  }

  setCurrent(index) {
    const moved = index !== this.current;
    this.current = index;
    if (moved && index >= 0 && !this.holder.contains(document.activeElement)) this.active = index;
    for (const [row, element] of this.live) this.paint(element, row);
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  render() {
    const top = this.holder.scrollTop;
    const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
    const last = Math.min(this.rows.length - 1, Math.ceil((top + this.holder.clientHeight) / ROW) + OVERSCAN);
    for (const [row, element] of this.live) {
      // The focused button stays, wherever it is: its focus would be lost with it.
      if ((row < first || row > last) && row !== this.active) {
        element.remove();
        this.live.delete(row);
      }
    }
    const wanted = [];
    for (let row = first; row <= last; row += 1) wanted.push(row);
    if (this.rows.length > 0 && !wanted.includes(this.active)) wanted.push(this.active);
    for (const row of wanted) {
      if (this.live.has(row)) continue;
      const element = this.make(row);
      // In the order of the rows, as a screen reader reads them.
      let after = null;
      for (const [other, candidate] of this.live) if (other > row && (!after || other < after.row)) after = { row: other, candidate };
      this.list.insertBefore(element, after ? after.candidate : null);
      this.live.set(row, element);
    }
  }

  make(index) {
    const row = this.rows[index];
    const item = document.createElement('div');
    item.setAttribute('role', 'listitem');
    item.className = 'tree-row' + (row.root ? ' tree-root' : '') + (row.depth ? ' tree-depth-' + row.depth : '');
    item.style.transform = `translateY(${index * ROW}px)`;
    item.setAttribute('aria-setsize', String(this.rows.length));
    item.setAttribute('aria-posinset', String(index + 1));
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'tree-item';
    button.dataset.row = String(index);
    button.dataset.root = row.target.root || '';
    button.dataset.folder = row.target.folder || '';
    const name = document.createElement('span');
    name.className = 'tree-name';
    name.textContent = row.label;
    button.append(name);
    if (row.isProtected) {
      const mark = document.createElement('span');
      mark.className = 'tree-protected';
      mark.textContent = 'protected';
      button.append(mark);
    }
    const counter = document.createElement('span');
    counter.className = 'tree-count';
    counter.textContent = String(row.count);
    button.append(counter);
    button.setAttribute('aria-label', `${row.label}, ${row.count} photos${row.isProtected ? ', protected' : ''}`);
    item.append(button);
    this.paint(item, index);
    return item;
  }

  paint(item, index) {
    const button = item.firstChild;
    if (index === this.current) button.setAttribute('aria-current', 'page');
    else button.removeAttribute('aria-current');
    button.tabIndex = index === this.active ? 0 : -1;
  }

  setActive(index, move = true) {
    if (this.rows.length === 0) return;
    this.active = Math.max(0, Math.min(this.rows.length - 1, index));
    if (move) {
      const top = this.active * ROW;
      if (top < this.holder.scrollTop) this.holder.scrollTop = top;
      else if (top + ROW > this.holder.scrollTop + this.holder.clientHeight) this.holder.scrollTop = top + ROW - this.holder.clientHeight;
      this.render();
    }
    for (const [row, element] of this.live) this.paint(element, row);
    if (move) {
      const element = this.live.get(this.active);
      if (element) element.firstChild.focus({ preventScroll: true });
    }
  }

  handleKey(event) {
    const page = Math.max(1, Math.floor(this.holder.clientHeight / ROW) - 1);
    const targets = {
      ArrowDown: this.active + 1, ArrowUp: this.active - 1, Home: 0, End: this.rows.length - 1,
      PageDown: this.active + page, PageUp: this.active - page,
    };
    if (!(event.key in targets) || event.ctrlKey || event.metaKey || event.altKey) return;
    // The grid's keys are the document's: the list's own stay here.
    event.preventDefault();
    event.stopPropagation();
    this.setActive(targets[event.key]);
  }
}
