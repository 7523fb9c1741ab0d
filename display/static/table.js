// The table display: the public state (retained on state), the events stream (each discard
// announced by name), the broker's availability. It never receives a concealed tile: its
// user may read the public topics only.
'use strict';

(() => {
  const { el, tile, tiles, spoken } = Siamese;
  const $ = id => document.getElementById(id);
  // window.siamese is what tests and the latency bench read: the state shown and when each
  // sequence number was drawn.
  const shown = window.siamese = { state: null, drawn: [], spoken: [], status: '' };
  let speech = localStorage.getItem('speech') !== 'off';

  function setSpeech(on) {
    speech = on;
    localStorage.setItem('speech', on ? 'on' : 'off');
    $('speech').textContent = on ? '🔊 names on' : '🔇 names off';
  }
  $('speech').addEventListener('click', () => setSpeech(!speech));
  setSpeech(speech);

  function announce(face) {
    shown.spoken.push(spoken(face));
    if (!speech || !window.speechSynthesis) return;
    const u = new SpeechSynthesisUtterance(spoken(face));
    u.rate = 0.9;
    speechSynthesis.speak(u);
  }

  function render(st) {
    const got = performance.timeOrigin + performance.now();
    shown.state = st;
    const v = st.view;
    $('title').textContent = 'Siamese Table — ' + st.table;
    $('info').textContent = v.rules + ' · ' + st.card + ' · act ' + st.seq;
    $('wall').textContent = v.wall_left;
    const over = v.phase === 'over';
    $('turn').textContent = over ? (st.waiting ? 'Game over — clear the racks for the next game' : 'Game over')
      : (st.seats[v.turn] || ('seat ' + v.turn)) + ' to ' + v.phase;
    renderSeats(st);
    $('last').replaceChildren();
    if (v.last_discard) {
      $('last').append(el('span', '', 'last discard '), tile(v.last_discard.tile, 'big'),
        el('span', '', ' by ' + (st.seats[v.last_discard.seat] || v.last_discard.seat)));
    }
    $('discards').replaceChildren(tiles(v.discards, 'small'));
    $('questions').replaceChildren(...st.questions.map(q => el('div', 'question', q.text)),
      ...st.sensors.map(n => el('div', 'sensor', n.about + ': ' + n.text)));
    if (!st.questions.length && !st.sensors.length) $('questions').append(el('div', 'quiet', 'none'));
    $('warnings').replaceChildren(...v.warnings.slice(-6).reverse().map(w => {
      const d = el('div', 'warning ' + w.kind);
      d.append(el('b', '', (st.seats[w.seat] || 'seat ' + w.seat) + (w.rack ? ' rack ' + w.rack : '') + ': '),
        el('span', '', w.detail || w.kind), el('small', '', w.rule ? ' (' + w.rule + ')' : ''));
      return d;
    }));
    renderResult(st);
    document.body.dataset.seq = st.seq;
    document.body.dataset.game = st.game;
    // at: the page is updated; painted: the next frame shows it (both on the wall clock, to
    // compare with the daemon's observed).
    const drawn = { game: st.game, seq: st.seq, observed: st.observed, got, at: performance.timeOrigin + performance.now() };
    requestAnimationFrame(() => { drawn.painted = performance.timeOrigin + performance.now(); });
    shown.drawn.push(drawn);
    if (shown.drawn.length > 2000) shown.drawn.splice(0, 1000);
  }

  function renderSeats(st) {
    const v = st.view;
    $('seats').replaceChildren(...v.seats.map((s, i) => {
      const box = el('div', 'seat' + (v.turn === i && v.phase !== 'over' ? ' turn' : '') + (s.live ? '' : ' stopped'));
      box.dataset.seat = i;
      const head = el('div', 'seat-head');
      head.append(el('span', 'name', st.seats[i]), el('span', 'score', String(v.scores[i])));
      box.append(head);
      s.racks.forEach((r, k) => {
        const rack = el('div', 'rack' + (r.dead ? ' dead' : ''));
        rack.append(el('span', 'rack-name', 'rack ' + (k + 1)));
        const standing = el('span', 'standing');
        for (let n = 0; n < r.concealed; n++) standing.append(tile('', 'back'));
        standing.title = r.concealed + ' tiles standing';
        rack.append(standing);
        r.exposures.forEach(e => rack.append(tiles(e.tiles, 'exposed' + (e.killed ? ' killed' : ''))));
        if (r.mahjong) rack.append(el('span', 'badge mahjong', 'Mah Jongg ' + r.mahjong.hand + ' · ' + r.mahjong.points));
        if (r.dead) rack.append(el('span', 'badge dead', 'dead: ' + r.dead));
        box.append(rack);
      });
      return box;
    }));
  }

  function renderResult(st) {
    const r = st.view.result;
    $('result').replaceChildren();
    if (!r) return;
    const d = el('div', 'result');
    d.append(el('h2', '', 'Result: ' + r.reason.replace(/_/g, ' ')));
    r.scores.forEach((s, i) => d.append(el('div', '', st.seats[i] + ': ' + s)));
    $('result').append(d);
  }

  function onEvent(e) {
    if (e.type === 'act' && e.act.act === 'discard' && e.act.tiles && e.act.tiles.length) announce(e.act.tiles[0]);
  }

  function onMessage(topic, msg) {
    if (topic === 'state') render(msg);
    else if (topic === 'events') onEvent(msg);
    else if (topic === 'status') { shown.status = msg; $('link').textContent = 'table ' + msg; }
  }

  Siamese.connect(null, null, p => [p + 'state', p + 'events', p + 'status', p + 'health'], onMessage,
    s => { $('link').textContent = s; }).then(c => {
    if (!c) { $('link').textContent = 'no broker: reading /api/state'; Siamese.pollState(render); }
  });
})();
