// SPDX-License-Identifier: GPL-2.0-or-later
// The daemon's events as Server-Sent Events (GET /api/v1/events). A browser's
// EventSource retries by itself only after a network error; a stream the gateway
// refused or ended for good is opened again here, with a growing pause. Every
// (re)connection is announced, so the page lists again what it may have missed; a
// refusal too, so that the page can tell an ended session from a lost network.

export class EventFeed {
  constructor({ onEvent, onState, thumbnails = true }) {
    this.onEvent = onEvent;
    this.onState = onState;
    this.url = '/api/v1/events' + (thumbnails ? '?thumbnails=true' : '');
    this.source = null;
    this.delay = 500;
    this.timer = 0;
    this.connected = false;
  }

  start() {
    this.stop();
    const source = new EventSource(this.url);
    this.source = source;
    source.onopen = () => {
      this.delay = 500;
      this.connected = true;
      this.onState('open');
    };
    source.onmessage = (message) => {
      let event;
      try {
        event = JSON.parse(message.data);
      } catch (error) {
        return;
      }
      this.onEvent(event);
    };
    source.onerror = () => {
      if (this.connected) {
        this.connected = false;
        this.onState('lost');
      }
      if (source.readyState === EventSource.CLOSED) {
        this.onState('refused');
        this.retry();
      }
    };
  }

  retry() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = 0;
      this.start();
    }, this.delay);
    this.delay = Math.min(this.delay * 2, 10000);
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = 0;
    if (this.source) this.source.close();
    this.source = null;
  }
}
