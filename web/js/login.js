// SPDX-License-Identifier: GPL-2.0-or-later
// The system service's sign-in form: the user name and web password go to
// POST /api/v1/login with the header every change needs (which a plain form cannot
// send); the gateway sets the session's cookie, then the page is opened again.
// Set by the page (main.js) when its session ended under it.
const SESSION_ENDED = 'curatord-session-ended';

const form = document.getElementById('sign-in-form');
const error = document.getElementById('sign-in-error');

if (sessionStorage.getItem(SESSION_ENDED)) {
  sessionStorage.removeItem(SESSION_ENDED);
  document.getElementById('sign-in-reason').textContent = 'Your session ended. Sign in again to go on where you were.';
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = form.querySelector('button');
  button.disabled = true;
  error.textContent = '';
  try {
    const response = await fetch('/api/v1/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Curator': '1' },
      body: JSON.stringify({ user: form.elements.user.value, password: form.elements.password.value }),
      credentials: 'same-origin',
      cache: 'no-store',
    });
    const body = await response.json().catch(() => null);
    if (response.ok && body && body.ok) {
      // The address asked for without a session is asked again; the form's own is the page.
      const here = window.location.pathname;
      window.location.replace(here === '/login' || here === '/login.html' ? '/' : window.location.href);
      return;
    }
    error.textContent = body && body.error && body.error.message ? body.error.message : `The gateway answered ${response.status}.`;
  } catch (failure) {
    error.textContent = 'The gateway does not answer: ' + failure.message;
  }
  button.disabled = false;
  form.elements.password.select();
});
