// The seat view for a phone: that seat's own concealed tiles, the Siamese advisor's best pairs
// of hands, buttons to answer the tracker's questions and to correct a reading. It logs in as
// the seat's MQTT user, which reads only its own private topic and commands only for itself.
'use strict';

(() => {
  const { el, tile, tiles, takenBackText } = Siamese;
  const $ = id => document.getElementById(id);
  // readers: this seat's racks' readers the banner names now (readers.js).
  const shown = window.siamese = { private: null, replies: [], status: '', stored: false, takenBack: false, closed: 0, health: null, readers: [], sent: [] };
  let conn = null, seat = null, next = 1;

  // The seats to choose from; a phone that joined by its code logs in from what the join page
  // kept in this browser (for this table only).
  fetch('api/mqtt', { cache: 'no-store' }).then(r => r.json()).then(info => {
    (info.seats || []).forEach((name, i) => $('seat').append(new Option(i + ' — ' + name, String(i))));
    let kept = null;
    try { kept = JSON.parse(localStorage.getItem('siamese.seat')); } catch (e) { /* none */ }
    if (kept && kept.table === info.table && kept.user && kept.password) {
      shown.stored = true;
      login(kept.seat, kept.user, kept.password, true);
    }
  }).catch(() => {});

  $('login').addEventListener('submit', ev => {
    ev.preventDefault();
    login(Number($('seat').value), String($('seat').value), $('password').value, false);
  });

  // login connects as the seat's MQTT user. A login kept by the join page (stored) is
  // forgotten when the broker refuses it: the owner took the seat back.
  async function login(n, user, pw, stored) {
    seat = n;
    $('login-error').textContent = '';
    conn = await Siamese.connect(user, pw, p => [p + 'seat/' + seat + '/private', p + 'seat/' + seat + '/events', p + 'status', p + 'health'], onMessage, status);
    if (!conn) { $('login-error').textContent = 'this table has no broker'; return; }
    conn.client.on('error', e => {
      $('login-error').textContent = 'refused: ' + e.message;
      if (e.code === 4 || e.code === 5) { // bad user name or password, not authorised
        conn.client.end(true);
        if (stored) {
          localStorage.removeItem('siamese.seat');
          shown.takenBack = true;
          $('login-error').textContent = 'This seat was taken back (or its password changed): scan the seat\'s code on the table\'s screen again.';
        }
        $('me').hidden = true;
        $('login').hidden = false;
      }
    });
    conn.client.on('close', () => { shown.closed = (shown.closed || 0) + 1; });
    conn.client.on('connect', () => { $('login').hidden = true; $('me').hidden = false; });
  }

  function status(s) { shown.status = s; $('link').textContent = s; }

  function send(cmd) {
    cmd.id = 'p' + seat + '-' + (next++);
    shown.sent.push(cmd.kind);
    conn.client.publish(conn.info.prefix + 'cmd/' + seat, JSON.stringify(cmd), { qos: 1 });
    return cmd.id;
  }

  // A press the player cannot take back (a Mah Jongg called, a wall game, the racks said right,
  // an act taken back) is sent only once they say yes: at a real table a thumb brushes the
  // wrong button, and a false Mah Jongg is a penalty.
  let confirming = null;
  function confirmThen(question, cmd) {
    confirming = cmd;
    $('confirm-text').textContent = question;
    $('confirm').hidden = false;
    $('confirm-no').focus();
  }
  function closeConfirm() { confirming = null; $('confirm').hidden = true; }
  $('confirm-yes').addEventListener('click', () => { const cmd = confirming; closeConfirm(); if (cmd) send(cmd); });
  $('confirm-no').addEventListener('click', closeConfirm);
  const rackNames = { 0: 'both racks', 1: 'rack 1', 2: 'rack 2' };
  document.querySelectorAll('[data-mahjong]').forEach(b => b.addEventListener('click', () =>
    confirmThen('Call Mah Jongg on ' + rackNames[b.dataset.mahjong] + '?', { kind: 'mahjong', rack: Number(b.dataset.mahjong) })));
  $('wall-game').addEventListener('click', () => confirmThen('Call a wall game: the wall is used up?', { kind: 'wall_game' }));
  $('racks-right').addEventListener('click', () =>
    confirmThen('Are the racks right as they stand? The table plays what explains them.', { kind: 'racks_right' }));
  $('take-back').addEventListener('click', () => {
    const seq = shown.private ? shown.private.seq : 0;
    confirmThen('Take back act ' + seq + '? It never happened: the table reads the racks again.', { kind: 'take_back' });
  });
  $('act').addEventListener('submit', ev => {
    ev.preventDefault();
    const faces = $('act-tiles').value.trim().split(/[\s,]+/).filter(Boolean).map(f => f.toUpperCase());
    const rack = Number($('act-rack').value);
    const kind = $('act-kind').value;
    let action = { act: kind, tiles: faces, rack };
    if (kind === 'move') action.to = 3 - rack;
    // Dice are seen by no sensor: a roll (rulesets that record them) is entered here.
    if (kind.startsWith('roll-')) action = { act: 'roll', for: kind.slice(5), dice: [Number(faces[0])] };
    send({ kind: 'act', action });
  });

  function onMessage(topic, msg) {
    if (topic === 'seat/' + seat + '/private') render(msg);
    else if (topic === 'seat/' + seat + '/events') reply(msg);
    else if (topic === 'status') status('table ' + msg);
    else if (topic === 'health') {
      shown.health = msg;
      shown.readers = SiameseReaders.show($('readers'), msg, seat);
    }
  }

  function reply(e) {
    shown.replies.push(e);
    const d = el('div', 'reply ' + e.type, e.type === 'error' ? 'refused: ' + e.error : 'taken: ' + (e.kind || 'command'));
    $('replies').prepend(d);
    while ($('replies').children.length > 5) $('replies').lastChild.remove();
  }

  function render(p) {
    shown.private = p;
    const v = p.view;
    $('who').textContent = p.name + ' (seat ' + p.seat + ')';
    $('info').textContent = 'act ' + p.seq + takenBackText(v) + ' · wall ' + v.wall_left + ' · ' +
      (v.phase === 'over' ? 'game over' : (v.turn === p.seat ? 'your turn to ' + v.phase : 'seat ' + v.turn + ' to ' + v.phase));
    const me = v.seats[p.seat];
    $('racks').replaceChildren(...[0, 1].map(r => {
      const box = el('div', 'rack mine' + (me.racks[r].dead ? ' dead' : ''));
      box.dataset.rack = r + 1;
      box.append(el('span', 'rack-name', 'rack ' + (r + 1)), tiles(v.concealed[r] || [], 'concealed'));
      me.racks[r].exposures.forEach(e => box.append(tiles(e.tiles, 'exposed')));
      if (me.racks[r].dead) box.append(el('span', 'badge dead', 'dead: ' + me.racks[r].dead));
      if (me.racks[r].mahjong) box.append(el('span', 'badge mahjong', 'Mah Jongg ' + me.racks[r].mahjong.hand));
      return box;
    }));
    $('questions').replaceChildren(...p.questions.map(q => {
      const d = el('div', 'question', q.text);
      (q.options || []).forEach(o => {
        const b = el('button', '', o.text);
        b.type = 'button';
        b.addEventListener('click', () => send({ kind: 'answer', question: q.id, option: o.key }));
        d.append(b);
      });
      return d;
    }));
    if (!p.questions.length) $('questions').append(el('div', 'quiet', 'none'));
    $('advice').replaceChildren(...(p.advice || []).map(a => {
      const d = el('div', 'advice');
      d.append(el('div', 'advice-head', a.away + ' away · ' + a.value + ' points'));
      [a.rack1, a.rack2].forEach((h, k) => {
        const row = el('div', 'advice-hand');
        row.append(el('span', 'rack-name', 'rack ' + (k + 1) + ': ' + h.hand + ' (' + h.away + ' away)'));
        (h.groups || []).forEach(g => row.append(tiles(g, 'small')));
        d.append(row);
      });
      return d;
    }));
    $('throws').replaceChildren();
    if (p.discards && p.discards.length) {
      const d = el('div', 'throws');
      d.append(el('h2', '', 'Best throws'));
      p.discards.slice(0, 3).forEach(x => {
        const row = el('div', 'throw');
        row.append(tile(x.tile, 'small'), el('span', '', x.best ? ' leaves ' + x.best.away + ' away' : ' leaves no hand'));
        d.append(row);
      });
      $('throws').append(d);
    }
    document.body.dataset.seq = p.seq;
  }
})();
