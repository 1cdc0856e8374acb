// SPDX-License-Identifier: GPL-2.0-or-later
// The trash view: what this user's batches moved to the trash (`trash.list`), put
// back a batch at a time (the daemon's undo), and emptied for good past an age, with
// the list that will go shown and confirmed by its token.
import { call } from './api.js';
import { formatBytes } from './store.js';
import { ask, toast, showError } from './ui.js';
import { undoBatch } from './plan.js';

export class TrashView {
  constructor(dialog) {
    this.dialog = dialog;
    this.body = dialog.querySelector('.trash-body');
    this.summary = dialog.querySelector('.trash-summary');
    dialog.querySelector('.trash-close').addEventListener('click', () => dialog.close());
    dialog.querySelector('.trash-empty-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.empty(Number(dialog.querySelector('#trash-days').value));
    });
  }

  async open() {
    if (!this.dialog.open) this.dialog.showModal();
    await this.refresh();
  }

  async refresh() {
    let list;
    try {
      list = await call('trash.list', {});
    } catch (error) {
      showError(error);
      return;
    }
    this.summary.textContent = list.count === 0 ? 'Nothing you trashed is in the trash.'
      : `${list.count} file${list.count === 1 ? '' : 's'}, ${formatBytes(list.bytes)}, in the trash.`;
    const batches = new Map();
    for (const photo of list.photos) {
      if (!batches.has(photo.batch)) batches.set(photo.batch, []);
      batches.get(photo.batch).push(photo);
    }
    this.body.replaceChildren();
    for (const [batch, photos] of [...batches].reverse()) {
      const section = document.createElement('section');
      section.className = 'trash-batch';
      const heading = document.createElement('h3');
      const when = photos[0].trashed_at ? photos[0].trashed_at.replace('T', ' ').slice(0, 16) : '';
      heading.textContent = `Batch ${batch} · ${when} · ${photos.length} file${photos.length === 1 ? '' : 's'}`;
      const restore = document.createElement('button');
      restore.type = 'button';
      restore.textContent = 'Put back';
      restore.setAttribute('aria-label', `Put back batch ${batch}`);
      restore.addEventListener('click', async () => {
        await undoBatch(batch);
        await this.refresh();
      });
      const list = document.createElement('ul');
      for (const photo of photos) {
        const li = document.createElement('li');
        li.textContent = `${photo.root}/${photo.path} · ${formatBytes(photo.size)}`;
        list.append(li);
      }
      section.append(heading, restore, list);
      this.body.append(section);
    }
  }

  async empty(days) {
    let list;
    try {
      list = await call('trash.list', { older_than_days: days });
    } catch (error) {
      showError(error);
      return;
    }
    if (list.count === 0) {
      toast(`Nothing was trashed ${days} days ago or more.`);
      return;
    }
    const sure = await ask({
      title: 'Empty the trash for good?',
      body: [`${list.count} file${list.count === 1 ? '' : 's'} (${formatBytes(list.bytes)}) trashed ${days} days ago or more will be deleted for good.`,
        'This cannot be undone.'],
      confirm: 'Delete for good',
      danger: true,
    });
    if (!sure) return;
    try {
      const result = await call('trash.empty', { older_than_days: days, token: list.token });
      toast(`Deleted ${result.emptied} file${result.emptied === 1 ? '' : 's'} for good.`);
    } catch (error) {
      showError(error);
    }
    await this.refresh();
  }
}
