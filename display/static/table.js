// The table display: the public state (retained on state), the events stream (each discard
// announced by name), the broker's availability. It never receives a concealed tile: its
// user may read the public topics only.
'use strict';

(() => {
  const { el, tile, tiles, spoken, takenBackText } = Siamese;
  const $ = id => document.getElementById(id);
  // window.siamese is what tests and the latency bench read: the state shown and when each
  // sequence number was drawn.
  // readers: the racks' readers the banner names now (readers.js), from the latest health.
  const shown = window.siamese = { state: null, drawn: [], spoken: [], status: '', events: [], results: [], health: null, readers: [] };
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
    $('info').textContent = v.rules + ' · ' + st.card + ' · act ' + st.seq + takenBackText(v) +
      (v.prevailing ? ' · prevailing wind ' + (v.prevailing === 'E' ? 'East' : 'West') : '');
    $('wall').textContent = v.wall_left;
    $('pot').textContent = st.wall_pot !== undefined ? 'wall-game pot ' + pointsText(v, st.wall_pot) : '';
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
      head.append(el('span', 'name', st.seats[i]), el('span', 'score', pointsText(v, v.scores[i])));
      box.append(head);
      s.racks.forEach((r, k) => {
        const rack = el('div', 'rack' + (r.dead ? ' dead' : ''));
        rack.append(el('span', 'rack-name', 'rack ' + (k + 1)));
        const standing = el('span', 'standing');
        for (let n = 0; n < r.concealed; n++) standing.append(tile('', 'back'));
        standing.title = r.concealed + ' tiles standing';
        rack.append(standing);
        r.exposures.forEach(e => rack.append(tiles(e.tiles, 'exposed' + (e.killed ? ' killed' : ''))));
        if (r.flowers) {
          const fl = tiles(Array(r.flowers).fill('F'), 'flower');
          fl.classList.add('flowers');
          fl.title = r.flowers + (r.flowers === 1 ? ' flower' : ' flowers') + ' laid on the rack';
          rack.append(fl);
        }
        if (r.mahjong) {
          const m = r.mahjong;
          rack.append(el('span', 'badge mahjong', 'Mah Jongg ' + m.hand + ' · ' +
            (m.limit ? LIMITS[m.limit] + ' limit · ' + m.value : m.points)));
        }
        if (r.dead) rack.append(el('span', 'badge dead', 'dead: ' + r.dead));
        box.append(rack);
      });
      return box;
    }));
  }

  // last is the latest game over, from its game_over verdict or its state: a table clears its
  // racks and the next game begins at once, so the result stays shown as the last game's.
  let last = null;

  function renderResult(st) {
    const now = st.view.result;
    if (now) keepResult(st.game, now);
    $('result').replaceChildren();
    const r = now || (last && last.result);
    if (!r) return;
    const d = el('div', 'result');
    d.append(el('h2', '', (now ? 'Result: ' : 'Last game: ') + r.reason.replace(/_/g, ' ')));
    const v = st.view;
    const name = i => st.seats[i] || 'seat ' + i;
    r.scores.forEach((s, i) => d.append(el('div', 'result-score', name(i) + ': ' + pointsText(v, s))));
    (r.paid_at_once || []).forEach(p => d.append(el('div', 'payout paid',
      name(p.from) + ' paid ' + name(p.to) + ' ' + pointsText(v, p.points) + ' at once')));
    (r.payouts || []).forEach(p => d.append(el('div', 'payout',
      name(p.from) + ' pays ' + name(p.to) + ' ' + pointsText(v, p.points))));
    if (r.wall_pot && r.wall_pot.paid_in) d.append(el('div', 'payout', 'each player pays ' + pointsText(v, r.wall_pot.paid_in) + ' into the wall-game pot'));
    if (r.wall_pot && r.wall_pot.taker !== undefined) d.append(el('div', 'payout', name(r.wall_pot.taker) + ' takes the wall-game pot'));
    $('result').append(d);
    if (!shown.results.some(x => x.game === (now ? st.game : last.game))) {
      shown.results.push({ game: now ? st.game : last.game, reason: r.reason,
        lines: [...d.querySelectorAll('.result-score, .payout')].map(x => x.textContent) });
    }
  }

  function keepResult(game, result) {
    if (!last || last.game !== game) last = { game, result };
  }

  const LIMITS = ['', 'single', 'double', 'triple'];

  // pointsText writes points, and on a table that pays limits also what they are in limits
  // (the single limit's points make one): "1500 · 3 limits".
  function pointsText(v, points) {
    const unit = v.limits && v.limits[0];
    if (!unit) return String(points);
    const n = Math.round(points / unit * 100) / 100;
    return points + ' · ' + n + (Math.abs(n) === 1 ? ' limit' : ' limits');
  }

  // tell adds a line to the table's events: flowers exchanged, bouquets, rolls.
  function tell(kind, text) {
    shown.events.push({ kind, text });
    if (shown.events.length > 200) shown.events.splice(0, 100);
    const list = $('events');
    const quiet = list.querySelector('.quiet');
    if (quiet) quiet.remove();
    list.prepend(el('div', 'event ' + kind, text));
    while (list.children.length > 8) list.lastChild.remove();
  }

  function onAct(a) {
    const st = shown.state;
    const name = i => (st && st.seats[i]) || 'seat ' + i;
    if (a.act === 'discard' && a.tiles && a.tiles.length) announce(a.tiles[0]);
    if (a.outcome === 'refused') return;
    if (a.act === 'flower') tell('flower', name(a.seat) + ' laid a flower on rack ' + a.rack + ' and drew a replacement from the flower wall');
    if (a.act === 'roll' && a.for === 'east') tell('roll', name(a.seat) + ' rolled ' + a.dice[0] + ' for East');
    if (a.act === 'roll' && a.for === 'prevailing') {
      tell('roll', name(a.seat) + ' rolled ' + a.dice[0] + ' for the prevailing wind: ' + (a.dice[0] % 2 === 0 ? 'East' : 'West'));
    }
    a.verdicts.filter(x => x.kind === 'bouquet').forEach(x => tell('bouquet',
      'Bouquet! ' + name(x.seat) + ', rack ' + x.rack + ': ' + (st ? pointsText(st.view, x.points) : x.points) + ' paid at once'));
  }

  function onEvent(e) {
    if (e.type !== 'act' || !e.act) return;
    onAct(e.act);
    const over = e.act.verdicts.find(x => x.kind === 'game_over' && x.result);
    if (over) {
      keepResult(e.game, over.result);
      if (shown.state) renderResult(shown.state);
    }
  }

  function onMessage(topic, msg) {
    if (topic === 'state') render(msg);
    else if (topic === 'events') onEvent(msg);
    else if (topic === 'status') { shown.status = msg; $('link').textContent = 'table ' + msg; }
    else if (topic === 'health') onHealth(msg);
  }

  function onHealth(h) {
    shown.health = h;
    shown.readers = SiameseReaders.show($('readers'), h);
  }

  Siamese.connect(null, null, p => [p + 'state', p + 'events', p + 'status', p + 'health'], onMessage,
    s => { $('link').textContent = s; }).then(c => {
    if (!c) { $('link').textContent = 'no broker: reading /api/state'; Siamese.pollState(render); SiameseReaders.poll(onHealth); }
  });
  // The seats' codes, for a screen logged in as the table's owner (the set-up page's session):
  // a QR code and a code to type for each free seat. Anyone else's screen gets 401 and shows none.
  let codesKey = '';
  async function seatCodes() {
    let j = null;
    try {
      const r = await fetch('api/setup/seats', { cache: 'no-store' });
      if (r.ok) j = await r.json();
    } catch (e) { /* the daemon is restarting */ }
    shown.seatCodes = j;
    $('join-seats').hidden = !j || j.broker === 'none';
    if (!j) { codesKey = ''; return; }
    const key = JSON.stringify(j.seats.map(s => [s.seat, s.taken, s.version, s.name]));
    if (key === codesKey) return;
    codesKey = key;
    $('join-hint').textContent = j.note || ('scan with the phone\'s camera, or open ' + j.base + '/join and type the code');
    $('seat-codes').replaceChildren(...j.seats.map(s => {
      const d = el('div', 'seat-code' + (s.taken ? ' taken' : ''));
      d.dataset.seat = s.seat;
      d.append(el('div', 'seat-code-name', s.name));
      if (s.taken) d.append(el('div', 'seat-code-taken', 'taken'));
      else {
        const img = el('img', 'qr');
        img.alt = 'QR code to join seat ' + s.seat;
        img.src = 'api/setup/seats/' + s.seat + '/qr.svg?v=' + s.version;
        d.append(img, el('div', 'seat-code-code', s.code));
      }
      return d;
    }));
  }
  seatCodes();
  setInterval(seatCodes, 2000);
})();
