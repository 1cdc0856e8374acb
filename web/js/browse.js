// SPDX-License-Identifier: GPL-2.0-or-later
// Browse: the roots and their folders with counts (protected ones marked), and the
// view's filter and sort. A change of root or folder resets the session's selection
// (the daemon's rule, seed 003), so the page asks first when something is selected;
// a filter or sort keeps it.
import { call } from './api.js';
import { ask, showError } from './ui.js';

export class Browser {
  constructor(nav, form, { store }) {
    this.nav = nav;
    this.form = form;
    this.store = store;
    this.roots = [];
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
    const folders = await Promise.all(this.roots.map((root) =>
      call('list', { root: root.name, fields: ['protected'] }).then(
        (listing) => ({ root, listing }), () => ({ root, listing: null }))));
    this.render(folders);
  }

  render(entries) {
    const list = document.createElement('ul');
    list.className = 'tree';
    list.append(this.item('All photos', entries.reduce((sum, entry) => sum + (entry.listing ? entry.listing.total : 0), 0), {}, false));
    for (const { root, listing } of entries) {
      const rootItem = this.item(root.name + (root.online === false ? ' (offline)' : ''), listing ? listing.total : root.photos,
        { root: root.name }, false);
      rootItem.classList.add('tree-root');
      if (listing && listing.folders) {
        const sub = document.createElement('ul');
        for (const section of listing.folders) {
          if (section.path === '') continue;
          const first = listing.photos[section.first_position - 1];
          sub.append(this.item(section.path, section.total, { root: root.name, folder: section.path },
            Boolean(first && first.protected)));
        }
        rootItem.append(sub);
      }
      list.append(rootItem);
    }
    this.nav.querySelector('.tree-holder').replaceChildren(list);
    this.markCurrent();
  }

  item(label, count, target, isProtected) {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'tree-item';
    button.dataset.root = target.root || '';
    button.dataset.folder = target.folder || '';
    const name = document.createElement('span');
    name.className = 'tree-name';
    name.textContent = label;
    const counter = document.createElement('span');
    counter.className = 'tree-count';
    counter.textContent = String(count);
    button.append(name);
    if (isProtected) {
      const mark = document.createElement('span');
      mark.className = 'tree-protected';
      mark.textContent = 'protected';
      button.append(mark);
    }
    button.append(counter);
    button.setAttribute('aria-label', `${label}, ${count} photos${isProtected ? ', protected' : ''}`);
    button.addEventListener('click', () => this.go(target));
    li.append(button);
    return li;
  }

  markCurrent() {
    const view = this.store.view || {};
    for (const button of this.nav.querySelectorAll('.tree-item')) {
      const current = button.dataset.root === (view.root || '') && button.dataset.folder === (view.folder || '');
      if (current) button.setAttribute('aria-current', 'page');
      else button.removeAttribute('aria-current');
    }
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
