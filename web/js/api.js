// SPDX-License-Identifier: GPL-2.0-or-later
// The API client: POST /api/v1/<cmd> with the arguments as JSON, the header the
// gateway requires of every change (X-Curator: 1), and the daemon's answer back:
// its `result`, or an ApiError carrying the protocol's stable `code`.

export class ApiError extends Error {
  constructor(status, error) {
    super(error && error.message ? error.message : `HTTP ${status}`);
    this.status = status;
    this.code = error && error.code ? error.code : 'http_' + status;
    this.detail = error || {};
  }
}

const listeners = new Set();

/** Called with every ApiError whose status says the session is gone (401). */
export function onSignedOut(listener) {
  listeners.add(listener);
}

export async function call(cmd, args = {}) {
  let response;
  try {
    response = await fetch('/api/v1/' + cmd, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Curator': '1' },
      body: JSON.stringify(args),
      credentials: 'same-origin',
      cache: 'no-store',
      // Before the thumbnails waiting for a connection (where the browser knows it).
      priority: 'high',
    });
  } catch (error) {
    throw new ApiError(0, { code: 'network', message: 'The gateway does not answer: ' + error.message });
  }
  let body = null;
  try {
    // Nanosecond times pass 2^53: read as text, exactly, for the photo's version.
    body = JSON.parse((await response.text()).replace(/"mtime_ns":(\d+)/g, '"mtime_ns":"$1"'));
  } catch (error) {
    throw new ApiError(response.status, { code: 'bad_answer', message: 'The gateway answered something that is not JSON' });
  }
  if (body && body.ok) return body.result;
  const failure = new ApiError(response.status, body && body.error);
  if (response.status === 401) listeners.forEach((listener) => listener(failure));
  throw failure;
}

/**
 * The address of a photo's bytes: a thumbnail size, `preview` or `original`. With the
 * photo's version (`mtime_ns-size`), which changes with the file, the browser may keep
 * the bytes for good; an id alone is revalidated each time.
 */
export function photoURL(photo, what) {
  const id = typeof photo === 'object' ? photo.id : photo;
  const version = typeof photo === 'object' && photo.mtime_ns !== undefined ? `?v=${photo.mtime_ns}-${photo.size}` : '';
  return `/photo/${encodeURIComponent(id)}/${what}${version}`;
}
