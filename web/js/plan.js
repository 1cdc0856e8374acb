// SPDX-License-Identifier: GPL-2.0-or-later
// Delete with the plan: the daemon's plan of the selection shown (photos and files
// counted apart, bytes, the order they go, what is protected left out), the batch
// run on confirm with its progress from the `batch` events, and a toast whose Undo
// is the daemon's undo of that batch.
import { call } from './api.js';
import { fileName, formatBytes } from './store.js';
import { toast, showError } from './ui.js';

const SHOWN_ITEMS = 200;

export class Planner {
  constructor(dialog, { store }) {
    this.dialog = dialog;
    this.store = store;
    this.plan = null;
    this.progress = dialog.querySelector('progress');
    this.progressText = dialog.querySelector('.plan-progress-text');
    dialog.querySelector('.plan-cancel').addEventListener('click', () => this.cancel());
    dialog.querySelector('.plan-confirm').addEventListener('click', () => this.confirm());
    dialog.addEventListener('cancel', (event) => {
      if (this.running) event.preventDefault();
      else this.cancel();
    });
    store.addEventListener('batch', (event) => this.onBatch(event.detail));
  }

  async open() {
    if (this.store.count === 0) {
      toast('Nothing is selected: select photos first (Space, or long-press on a touch screen).');
      return;
    }
    let plan;
    try {
      plan = await call('delete.prepare', { session: this.store.session });
    } catch (error) {
      showError(error);
      return;
    }
    this.plan = plan;
    this.fill(plan);
    this.dialog.showModal();
    this.dialog.querySelector('.plan-cancel').focus();
  }

  fill(plan) {
    const summary = this.dialog.querySelector('.plan-summary');
    const photos = `${plan.photos} photo${plan.photos === 1 ? '' : 's'}`;
    const files = `${plan.files} file${plan.files === 1 ? '' : 's'}`;
    summary.textContent = `Move ${photos} (${files}, ${formatBytes(plan.bytes)}) to the trash?`;
    const protectedCount = this.store.photos.filter((photo) => photo.protected).length;
    const note = this.dialog.querySelector('.plan-note');
    note.textContent = protectedCount
      ? `${protectedCount} protected photo${protectedCount === 1 ? ' is' : 's are'} in this view and never deleted.`
      : 'They go in this order (last position first); Undo puts them back.';
    const list = this.dialog.querySelector('.plan-items');
    list.replaceChildren();
    for (const item of plan.items.slice(0, SHOWN_ITEMS)) {
      const li = document.createElement('li');
      const where = item.position ? `#${item.position}` : 'not in view';
      const extra = item.files && item.files.length > 1 ? ` + ${item.files.length - 1} file${item.files.length === 2 ? '' : 's'}` : '';
      li.textContent = `${where} ${fileName(item.path)}${extra} · ${formatBytes(item.size)}`;
      list.append(li);
    }
    if (plan.items.length > SHOWN_ITEMS) {
      const li = document.createElement('li');
      li.textContent = `… and ${plan.items.length - SHOWN_ITEMS} more`;
      list.append(li);
    }
    this.progress.value = 0;
    this.progress.max = Math.max(1, plan.files);
    this.progress.hidden = true;
    this.progressText.textContent = '';
    this.dialog.querySelector('.plan-confirm').disabled = false;
  }

  async cancel() {
    const plan = this.plan;
    this.plan = null;
    if (this.dialog.open) this.dialog.close();
    if (plan) call('delete.cancel', { token: plan.token }).catch(() => {});
  }

  onBatch(event) {
    if (!this.running || event.total === undefined) return;
    this.progress.max = event.total;
    this.progress.value = event.done;
    this.progressText.textContent = `${event.done} of ${event.total} files`;
  }

  async confirm() {
    if (!this.plan || this.running) return;
    const plan = this.plan;
    this.running = true;
    this.dialog.querySelector('.plan-confirm').disabled = true;
    this.progress.hidden = false;
    this.progressText.textContent = 'Moving to the trash…';
    try {
      const batch = await call('delete.confirm', { token: plan.token });
      this.plan = null;
      this.dialog.close();
      const skipped = batch.skipped ? `, ${batch.skipped} skipped` : '';
      toast(`Moved ${batch.trashed} file${batch.trashed === 1 ? '' : 's'} (${formatBytes(batch.bytes)}) to the trash${skipped}.`,
        { label: 'Undo', run: () => undoBatch(batch.batch) });
      this.lastBatch = batch.batch;
      await this.store.refreshSelection();
    } catch (error) {
      this.plan = null;
      this.dialog.close();
      showError(error);
    } finally {
      this.running = false;
    }
  }
}

export async function undoBatch(batch) {
  try {
    const result = await call('undo', batch === undefined ? {} : { batch });
    const conflicts = result.conflicts ? `; ${result.conflicts} left in the trash (a file holds the name)` : '';
    toast(`Put back ${result.restored} file${result.restored === 1 ? '' : 's'}${conflicts}.`);
    return result;
  } catch (error) {
    showError(error);
    return null;
  }
}
