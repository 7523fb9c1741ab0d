// The score sheet on a seat's phone (the tournament): the round's games and totals as the
// table recorded them; the player who made Mah Jongg signs each game, each player initials
// their round's total (West for East); East calls the director; the director's rulings and
// where each player goes next. It talks to the table's /api/sheet with the seat's password.
'use strict';

(() => {
  const $ = id => document.getElementById(id);
  const positions = { 2: ['East', 'West'], 3: ['East', 'South', 'West'], 4: ['East', 'South', 'West', 'North'] };
  const shown = window.siameseSheet = { sheet: null, error: '' };
  let seat = null, password = '';

  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };

  fetch('api/sheet', { cache: 'no-store' }).then(r => r.json()).then(sh => {
    (sh.players || []).forEach((name, i) => $('seat').append(new Option(positions[sh.players.length][i] + ' — ' + name, String(i))));
  });

  $('login').addEventListener('submit', async ev => {
    ev.preventDefault();
    seat = Number($('seat').value);
    password = $('password').value;
    // The password is checked by the first signature; a wrong one shows there.
    $('login').hidden = true;
    $('me').hidden = false;
    refresh();
    setInterval(refresh, 2000);
  });

  async function refresh() {
    const r = await fetch('api/sheet', { cache: 'no-store' });
    if (r.ok) render(await r.json());
  }

  async function post(what, body) {
    body.seat = seat; body.password = password;
    const r = await fetch('api/sheet/' + what, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const j = await r.json();
    shown.error = r.ok ? '' : j.error;
    $('error').textContent = shown.error;
    if (r.ok) render(j);
  }

  function render(sh) {
    shown.sheet = sh;
    const names = positions[sh.players.length];
    $('title').textContent = sh.event + ' — table ' + sh.table + ', round ' + sh.round + ' of ' + sh.rounds;
    $('who').textContent = names[seat] + ': ' + sh.players[seat];
    const t = $('games');
    t.replaceChildren();
    const head = el('tr');
    head.append(el('th', '', 'game'), ...sh.players.map((p, i) => el('th', '', names[i] + ' ' + p)), el('th', '', 'Mah Jongg'));
    t.append(head);
    const todo = [];
    (sh.played || []).forEach(g => {
      const tr = el('tr');
      tr.append(el('td', 'what', String(g.game)), ...g.scores.map(s => el('td', '', String(s))));
      const mj = el('td', 'what');
      if (!g.signers.length) mj.textContent = g.reason.replace('_', ' ');
      g.signers.forEach(s => {
        if (g.signed.includes(s)) { mj.append(el('span', 'signed', '✔ ' + sh.players[s] + ' ')); return; }
        if (s === seat) {
          const b = el('button', '', 'Sign game ' + g.game);
          b.dataset.sign = g.id;
          b.addEventListener('click', () => post('sign', { result: g.id }));
          mj.append(b);
        } else mj.append(el('span', 'todo', sh.players[s] + ' signs '));
        todo.push(sh.players[s] + ' signs game ' + g.game);
      });
      tr.append(mj);
      t.append(tr);
    });
    const tot = el('tr');
    tot.append(el('th', '', 'total'), ...sh.totals.map(v => el('th', '', String(v))), el('th'));
    t.append(tot);
    const ini = el('tr');
    ini.append(el('td', 'what', 'initials'));
    const done = (sh.played || []).length >= sh.games;
    sh.totals.forEach((v, i) => {
      const td = el('td');
      const by = sh.initialer[i];
      const have = sh.initials[i];
      if (have && (have.total ?? 0) === v) td.append(el('span', 'signed', have.name));
      else if (by === seat && done) {
        const b = el('button', '', i === seat ? 'Initial my total' : 'Initial ' + names[i] + "'s total");
        b.dataset.initial = String(i);
        b.addEventListener('click', () => post('initial', { round: sh.round, for: i }));
        td.append(b);
        todo.push(sh.players[by] + ' initials ' + (i === by ? 'their total' : names[i] + "'s"));
      } else if (done) todo.push(sh.players[by] + ' initials ' + (i === by ? 'their total' : names[i] + "'s"));
      ini.append(td);
    });
    ini.append(el('td', 'what', 'West for East'));
    t.append(ini);
    $('todo').textContent = todo.length ? 'Waiting: ' + todo.join('; ') : (done ? 'The round is signed.' : '');
    $('call-box').hidden = seat !== 0;
    const rl = $('rulings');
    rl.replaceChildren();
    (sh.rulings || []).forEach(m => {
      const r = m.ruling;
      let text = r.director + ': ' + r.text;
      if (r.penalty) text += ' (' + names[r.penalty.seat] + ' ' + r.penalty.points + ')';
      if (r.correction) text += ' (scores now ' + r.correction.scores.join(' ') + ')';
      rl.append(el('div', 'ruling', text));
    });
    if (!rl.children.length) rl.append(el('p', 'quiet', (sh.calls || []).length ? 'the director is called' : 'none'));
    const nx = $('next');
    nx.replaceChildren();
    if (sh.over) nx.append(el('p', '', 'The event is over at this table.'));
    (sh.next || []).forEach(m => nx.append(el('div', 'move', sh.players[m.Seat] + ' (' + names[m.Seat] + ') → table ' + m.To + (m.To === m.From ? ' (stays)' : ''))));
  }

  $('call').addEventListener('click', () => post('call', { note: $('call-note').value }));
})();
