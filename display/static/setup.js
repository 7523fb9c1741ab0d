// The set-up page: the owner logs in with the table's owner password, sees whether the table
// is ready, saves the table's settings (rules, options, names, card) and hands out or takes
// back the seats. Everything goes through /api/setup/ as JSON, with the session's cookie.
'use strict';

(() => {
  const $ = id => document.getElementById(id);
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  // window.siameseSetup is what tests read: the latest status, save answer and seat list.
  const shown = window.siameseSetup = { status: null, saved: null, problems: [], seats: null, renewed: null, error: '' };
  const WHEN = { now: 'now', 'next game': 'from the next game', 'next start': 'when the daemon next starts' };

  async function api(method, path, body) {
    const r = await fetch('api/setup/' + path, { method, cache: 'no-store', headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body) });
    let j = {};
    try { j = await r.json(); } catch (e) { /* an empty answer */ }
    if (r.status === 401 && path !== 'login') showLogin('');
    return { ok: r.ok, status: r.status, body: j };
  }
  // The other sections ask the daemon through this one: a lapsed session shows the login.
  shown.api = api;

  function showLogin(msg) {
    $('page').hidden = true;
    $('login').hidden = false;
    $('login-error').textContent = msg;
  }

  $('login').addEventListener('submit', async ev => {
    ev.preventDefault();
    const r = await api('POST', 'login', { password: $('owner-password').value });
    if (!r.ok) { showLogin(r.body.error || 'refused'); return; }
    $('owner-password').value = '';
    start();
  });
  $('logout').addEventListener('click', async () => { await api('POST', 'logout', {}); showLogin('logged out'); });

  let formFilled = false;
  async function start() {
    const r = await api('GET', 'status');
    if (!r.ok) { if (r.status !== 401) showLogin(r.body.error || 'the table does not answer'); return; }
    $('login').hidden = true;
    $('page').hidden = false;
    renderStatus(r.body);
    if (!formFilled) { fillForm(r.body); formFilled = true; }
    refreshSeats();
  }

  function renderStatus(st) {
    shown.status = st;
    document.body.classList.toggle('ready', st.ready);
    $('ready-title').textContent = st.ready ? 'The table is ready' : 'The table is not ready yet';
    $('checks').replaceChildren(...st.checks.map(c => { const li = el('li', c.ready ? 'ok' : '', c.name + ': ' + c.text); return li; }));
    const p = st.playing;
    let text = 'Playing now: ' + p.rules + ', ' + p.card + ', ' + p.names.join(', ') + ' (game ' + p.game + ', ' + p.acts + ' acts' + (p.waiting ? ', over' : '') + ').';
    if (p.pending) text += ' Saved settings still to come: names ' + WHEN[p.pending.names] + ', rules and card ' + WHEN[p.pending.rules] + (p.pending.why ? ' (' + p.pending.why + ')' : '') + '.';
    $('playing').textContent = text;
    const cfg = st.config;
    const cfgText = 'the configuration file (' + (st.config_file ? st.config_file + ': ' : '') + cfg.rules + ', ' + (cfg.card_name || 'the built-in card') + ', ' + cfg.names.join(', ') + ')';
    $('precedence').textContent = st.saved
      ? 'The settings saved here win over ' + cfgText + '. "Use the configuration file" removes them.'
      : 'Nothing is saved here: ' + cfgText + ' is in use. Settings saved here win over it.';
    $('card-in-use').textContent = p.card;
  }

  function fillForm(st) {
    const bases = st.rulesets.filter(r => !r.option), options = st.rulesets.filter(r => r.option);
    const [base, ...opts] = st.playing.rules.split('+');
    $('rules').replaceChildren(...bases.map(r => new Option(r.name + ' (' + r.players + ' players)', r.name, false, r.name === base)));
    $('options').replaceChildren(el('legend', '', 'Options'), ...options.map(o => {
      const l = el('label', 'choice');
      const c = el('input'); c.type = 'checkbox'; c.value = o.name; c.checked = opts.includes(o.name);
      l.append(c, document.createTextNode(' ' + o.name));
      return l;
    }));
    const players = () => (bases.find(r => r.name === $('rules').value) || { players: 2 }).players;
    const names = st.saved ? st.saved.names : st.playing.names;
    const drawNames = () => {
      const old = [...$('names').querySelectorAll('input')].map(i => i.value);
      const winds = { 2: ['East', 'West'], 3: ['East', 'South', 'West'], 4: ['East', 'South', 'West', 'North'] }[players()];
      $('names').replaceChildren(el('legend', '', 'Players, East first'), ...winds.map((w, i) => {
        const l = el('label', '', w + ' ');
        const inp = el('input'); inp.type = 'text'; inp.name = 'name' + i; inp.value = old[i] || names[i] || w; inp.maxLength = 24;
        l.append(inp);
        return l;
      }));
    };
    $('rules').addEventListener('change', drawNames);
    drawNames();
  }

  $('card-file').addEventListener('change', async () => {
    const f = $('card-file').files[0];
    if (!f) return;
    $('card-text').value = await f.text();
    $('card-text').dataset.file = f.name;
    document.querySelector('input[name=card][value=text]').checked = true;
  });
  $('card-text').addEventListener('input', () => { document.querySelector('input[name=card][value=text]').checked = true; });

  $('table-form').addEventListener('submit', async ev => {
    ev.preventDefault();
    const choice = document.querySelector('input[name=card]:checked').value;
    const card = choice === 'text' ? { text: $('card-text').value, file: $('card-text').dataset.file || '' } : { [choice]: true };
    const form = { rules: $('rules').value, options: [...$('options').querySelectorAll('input:checked')].map(c => c.value),
      names: [...$('names').querySelectorAll('input')].map(i => i.value), card };
    $('save').disabled = true;
    const r = await api('POST', 'table', form);
    $('save').disabled = false;
    showSaved(r);
  });

  $('forget').addEventListener('click', async () => showSaved(await api('DELETE', 'table')));

  function showSaved(r) {
    shown.saved = r.body;
    shown.problems = r.body.problems || [];
    $('problems').replaceChildren(...shown.problems.map(p => el('li', '', p.field + (p.line ? ', line ' + p.line + ', column ' + p.col : '') + ': ' + p.msg)));
    if (!r.ok) {
      $('table-result').className = 'error';
      $('table-result').textContent = r.body.error || 'refused';
    } else {
      const a = r.body.applied;
      $('table-result').className = 'note';
      $('table-result').textContent = (r.body.saved ? 'Saved.' : 'The configuration file\'s settings are back.') + ' Names: ' + WHEN[a.names] +
        '; rules and card: ' + WHEN[a.rules] + (a.why ? ' (' + a.why + ')' : '') + '.';
    }
    start();
  }

  async function refreshSeats() {
    const r = await api('GET', 'seats');
    if (!r.ok) return;
    shown.seats = r.body;
    $('seats-note').textContent = r.body.broker === 'none' ? 'This table has no broker (mqtt.broker: none): no phone can join.' : (r.body.note || '');
    $('seats').replaceChildren(...r.body.seats.map(s => {
      const row = el('div', 'seat-row');
      row.dataset.seat = s.seat;
      row.append(el('b', '', 'Seat ' + s.seat + ': ' + s.name));
      row.append(s.taken ? el('span', 'taken', 'taken') : el('span', 'code', s.code));
      const b = el('button', '', s.taken ? 'Take back' : 'New code');
      b.type = 'button';
      b.addEventListener('click', () => renew(s.seat));
      row.append(b);
      return row;
    }));
  }

  async function renew(seat) {
    const r = await api('POST', 'seats/' + seat + '/renew', {});
    shown.renewed = r.body;
    const box = $('seat-result');
    box.replaceChildren();
    if (!r.ok) { box.append(el('p', 'error', r.body.error)); return; }
    if (!r.body.taken_back) box.append(el('p', 'note', 'Seat ' + seat + ' has a new code; the old one no longer works.'));
    else if (!r.body.steps) box.append(el('p', 'note', 'Seat ' + seat + ' taken back: a new password and code; ' + r.body.dropped + ' phone(s) dropped.'));
    else {
      const d = el('div', 'steps note');
      d.append(el('p', '', 'Seat ' + seat + ' has a new password and code. ' + r.body.steps[0]));
      r.body.steps.slice(1).forEach(s => d.append(el('code', '', s)));
      box.append(d);
    }
    refreshSeats();
  }

  setInterval(() => { if (!$('page').hidden) { api('GET', 'status').then(r => r.ok && renderStatus(r.body)); refreshSeats(); } }, 3000);
  start();
})();
