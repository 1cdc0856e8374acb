// SPDX-License-Identifier: GPL-2.0-or-later
// Browse: the roots and their folders with counts (protected ones marked), and the
// view's filter and sort. A change of root or folder resets the session's selection
// (the daemon's rule, seed 003), so the page asks first when something is selected;
// a filter or sort keeps it. The list itself is folders.js's (virtual).
import { call } from './api.js';
import { ask, showError } from './ui.js';
import { FolderList } from './folders.js';

export class Browser {
  constructor(nav, form, { store, onStatus }) {
    this.nav = nav;
    this.onStatus = onStatus;
    this.form = form;
    this.store = store;
    this.roots = [];
    this.list = new FolderList(nav.querySelector('.tree-holder'), { onOpen: (row) => this.go(row.target) });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.applyFilter();
    });
    form.querySelector('.filter-reset').addEventListener('click', () => {
      form.reset();
      this.applyFilter();
    });
    store.addEventListener('listing', () => this.markCurrent());
  }

  async refresh() {
    let status;
    try {
      status = await call('status', {});
    } catch (error) {
      showError(error);
      return;
    }
    this.roots = status.roots || [];
    if (this.onStatus) this.onStatus(status);
    const folders = await Promise.all(this.roots.map((root) =>
      call('list', { root: root.name, fields: ['protected'] }).then(
        (listing) => ({ root, listing }), () => ({ root, listing: null }))));
    this.render(folders);
  }

  /** The folder list as rows: every photo, then each root and its folders. */
  render(entries) {
    const rows = [{ label: 'All photos', count: entries.reduce((sum, entry) => sum + (entry.listing ? entry.listing.total : 0), 0),
      target: {}, isProtected: false, depth: 0 }];
    for (const { root, listing } of entries) {
      rows.push({ label: root.name + (root.online === false ? ' (offline)' : ''), count: listing ? listing.total : root.photos,
        target: { root: root.name }, isProtected: false, depth: 0, root: true });
      for (const section of (listing && listing.folders) || []) {
        if (section.path === '') continue;
        const first = listing.photos[section.first_position - 1];
        rows.push({ label: section.path, count: section.total, target: { root: root.name, folder: section.path },
          isProtected: Boolean(first && first.protected), depth: 1 });
      }
    }
    this.list.setRows(rows);
    this.markCurrent();
  }

  /** The row of the session's view, for the list to mark and to give the focus to. */
  currentRow() {
    const view = this.store.view || {};
    return this.list.rows.findIndex((row) => (row.target.root || '') === (view.root || '')
      && (row.target.folder || '') === (view.folder || ''));
  }

  markCurrent() {
    this.list.setCurrent(this.currentRow());
  }

  /** Another page: the daemon clears the selection, so ask when there is one. */
  async go(target) {
    const view = this.store.view || {};
    if ((view.root || '') === (target.root || '') && (view.folder || '') === (target.folder || '')) return;
    if (this.store.count > 0) {
      const sure = await ask({
        title: 'Leave this folder?',
        body: `Opening another folder clears the selection of ${this.store.count} photo${this.store.count === 1 ? '' : 's'}.`,
        confirm: 'Open it and clear',
      });
      if (!sure) return;
    }
    try {
      await this.store.change('view', { ...target, ...this.filterArguments() });
      await this.store.relist();
    } catch (error) {
      showError(error);
    }
    document.body.classList.remove('nav-open');
  }

  filterArguments() {
    const data = new FormData(this.form);
    const filter = {};
    const glob = String(data.get('glob') || '').trim();
    if (glob) filter.glob = glob;
    const type = String(data.get('type') || '');
    if (type) filter.types = type.split(',');
    if (data.get('from')) filter.from = String(data.get('from'));
    if (data.get('to')) filter.to = String(data.get('to'));
    const args = { sort: String(data.get('sort') || 'name'), order: String(data.get('order') || 'asc') };
    if (Object.keys(filter).length) args.filter = filter;
    return args;
  }

  async applyFilter() {
    const view = this.store.view || {};
    const page = {};
    if (view.root) page.root = view.root;
    if (view.folder) page.folder = view.folder;
    try {
      await this.store.change('view', { ...page, ...this.filterArguments() });
      await this.store.relist();
    } catch (error) {
      showError(error);
    }
  }
}
