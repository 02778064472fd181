// API keys page: creates, disables and deletes keys with the /auth JSON endpoints (same origin,
// session cookie), and re-renders the table from GET /auth/api-keys. Every failure shows the
// problem's detail. Text goes into the page with textContent only, never as HTML.
'use strict';

(() => {
  const base = document.body.dataset.base || '';
  const $ = (id) => document.getElementById(id);

  class ProblemError extends Error {}

  // call sends a request to an /auth endpoint and returns its JSON (null for 204); a failure
  // throws a ProblemError carrying the problem's detail.
  async function call(method, path, body) {
    const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(base + path, init);
    } catch (e) {
      throw new ProblemError('The service could not be reached. Check your connection and try again.');
    }
    if (response.status === 401) {
      window.location.assign(base + '/sign-in');
      throw new ProblemError('Your session has ended: sign in again.');
    }
    if (!response.ok) {
      throw new ProblemError(await problemDetail(response));
    }
    return response.status === 204 ? null : response.json();
  }

  async function problemDetail(response) {
    try {
      const problem = await response.json();
      if (problem && problem.detail) {
        return problem.correlationId ? problem.detail + ' (reference ' + problem.correlationId + ')' : problem.detail;
      }
    } catch (e) {
      // not a problem document
    }
    return 'The request failed (HTTP ' + response.status + ').';
  }

  function show(el, message) {
    el.textContent = message || '';
    el.hidden = !message;
  }

  // displayTime matches the server's format: "2006-01-02 15:04 UTC".
  function displayTime(iso) {
    return iso ? new Date(iso).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : 'Never';
  }

  function status(key) {
    if (key.disabled) return 'Disabled';
    if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return 'Expired';
    return 'Active';
  }

  function cell(row, text, className) {
    const td = row.insertCell();
    if (className) {
      const span = document.createElement('span');
      span.className = className;
      span.textContent = text;
      td.appendChild(span);
    } else {
      td.textContent = text;
    }
    return td;
  }

  function button(label, action, className) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = className;
    b.dataset.action = action;
    b.textContent = label;
    return b;
  }

  function renderKeys(keys) {
    const body = $('keys-body');
    body.replaceChildren();
    for (const key of keys) {
      const row = body.insertRow();
      row.dataset.id = key.id;
      cell(row, key.name);
      const prefix = row.insertCell();
      const code = document.createElement('code');
      code.textContent = key.displayPrefix + '…';
      prefix.appendChild(code);
      cell(row, key.environment, 'badge env-' + key.environment);
      cell(row, displayTime(key.createdAt));
      cell(row, displayTime(key.expiresAt));
      const s = status(key);
      cell(row, s, 'status status-' + s);
      const actions = row.insertCell();
      actions.className = 'actions';
      if (!key.disabled) actions.appendChild(button('Disable', 'disable', 'secondary'));
      actions.appendChild(button('Delete', 'delete', 'danger'));
    }
    $('no-keys').hidden = keys.length > 0;
  }

  async function refresh() {
    try {
      renderKeys(await call('GET', '/auth/api-keys'));
      show($('list-error'), '');
    } catch (e) {
      show($('list-error'), e.message);
    }
  }

  function showNewKey(created) {
    $('new-key-name').textContent = '“' + created.name + '” (' + created.environment + ')';
    $('new-key-value').textContent = created.key;
    show($('copy-status'), '');
    $('new-key').hidden = false;
    $('new-key').scrollIntoView({ block: 'nearest' });
  }

  function forgetNewKey() {
    $('new-key-value').textContent = '';
    $('new-key').hidden = true;
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('create-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      show($('create-error'), '');
      const request = { name: $('key-name').value.trim(), environment: $('key-environment').value };
      const expires = $('key-expires').value;
      if (expires) {
        // datetime-local is the browser's local time; the API takes RFC 3339.
        request.expiresAt = new Date(expires).toISOString().replace(/\.\d{3}Z$/, 'Z');
      }
      $('create-button').disabled = true;
      try {
        const created = await call('POST', '/auth/api-key/create', request);
        $('create-form').reset();
        showNewKey(created);
        await refresh();
      } catch (e) {
        show($('create-error'), e.message);
      } finally {
        $('create-button').disabled = false;
      }
    });

    $('copy-button').addEventListener('click', async () => {
      const value = $('new-key-value');
      try {
        await navigator.clipboard.writeText(value.textContent);
        show($('copy-status'), 'Copied to the clipboard.');
      } catch (e) {
        // No clipboard access (plain http, permissions): select it for Ctrl+C instead.
        const range = document.createRange();
        range.selectNodeContents(value);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        show($('copy-status'), 'The key is selected: press Ctrl+C (⌘C) to copy it.');
      }
    });

    $('dismiss-button').addEventListener('click', forgetNewKey);

    $('keys-body').addEventListener('click', async (event) => {
      const target = event.target.closest('button[data-action]');
      if (!target) return;
      const row = target.closest('tr');
      const id = row.dataset.id;
      const name = row.cells[0].textContent;
      const action = target.dataset.action;
      const question = action === 'delete'
        ? 'Delete the key “' + name + '”? Requests with it will be refused at once. This cannot be undone.'
        : 'Disable the key “' + name + '”? Requests with it will be refused at once.';
      if (!window.confirm(question)) return;
      target.disabled = true;
      try {
        if (action === 'delete') {
          await call('DELETE', '/auth/api-keys/' + encodeURIComponent(id));
        } else {
          await call('POST', '/auth/api-keys/' + encodeURIComponent(id) + '/disable');
        }
        show($('list-error'), '');
        await refresh();
      } catch (e) {
        target.disabled = false;
        show($('list-error'), e.message);
      }
    });
  });
})();
