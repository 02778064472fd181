// Sign-in page: posts the form with fetch so that a failure is shown on the page (the problem's
// detail) instead of as a JSON document. Without JavaScript the form still posts normally.
'use strict';

document.addEventListener('DOMContentLoaded', () => {
  const form = document.getElementById('sign-in-form');
  const error = document.getElementById('sign-in-error');
  const button = document.getElementById('sign-in-button');

  const showError = (message) => {
    error.textContent = message;
    error.hidden = !message;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    showError('');
    button.disabled = true;
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        body: new URLSearchParams(new FormData(form)),
        credentials: 'same-origin',
        redirect: 'follow',
      });
      if (response.ok && response.redirected) {
        window.location.assign(response.url);
        return;
      }
      showError(await problemDetail(response));
    } catch (e) {
      showError('The service could not be reached. Check your connection and try again.');
    } finally {
      button.disabled = false;
    }
  });
});

// problemDetail returns the detail of a problem response (RFC 9457), or a generic message.
async function problemDetail(response) {
  try {
    const problem = await response.json();
    if (problem && problem.detail) {
      return problem.detail;
    }
  } catch (e) {
    // not a problem document
  }
  return 'Signing in failed (HTTP ' + response.status + ').';
}
