// Shared by the table display and the seat view: reaching the broker, drawing tiles, naming
// them. Everything is served by the daemon; nothing is fetched from elsewhere.
'use strict';

const Siamese = (() => {
  const SUITS = { B: 'bam', C: 'crak', D: 'dot' };
  const NUMBERS = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
  const HONOURS = { E: 'east', S: 'south', W: 'west', N: 'north', RD: 'red dragon', GD: 'green dragon',
    WD: 'soap', F: 'flower', J: 'joker' };

  // spoken is a tile's name as players call it: "five bam", "red dragon", "soap".
  function spoken(face) {
    if (HONOURS[face]) return HONOURS[face];
    return NUMBERS[Number(face[0])] + ' ' + SUITS[face[1]];
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // tile draws a face (its picture, the notation as its name) or, with no face, a tile back.
  function tile(face, cls) {
    const t = el('span', 'tile' + (cls ? ' ' + cls : ''));
    const img = el('img');
    img.src = 'tiles/' + (face || 'back') + '.svg';
    img.alt = face || 'concealed';
    t.dataset.face = face || '';
    t.append(img);
    return t;
  }

  function tiles(faces, cls) {
    const g = el('span', 'tiles');
    (faces || []).forEach(f => g.append(tile(f, cls)));
    return g;
  }

  // connect reaches the broker over WebSocket on the page's own host (the daemon serves or
  // passes through /mqtt), subscribing to topics; onMessage(topic, json) hears each message.
  // With no broker configured it polls /api/state instead, for the table display.
  async function connect(user, password, topics, onMessage, onStatus) {
    const info = await (await fetch('api/mqtt', { cache: 'no-store' })).json().catch(() => ({}));
    if (!info.path) return null;
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + info.path;
    const client = mqtt.connect(url, { username: user || info.username, password: password || info.password,
      protocolVersion: 4, reconnectPeriod: 1000, connectTimeout: 10000, clean: true,
      clientId: 'web-' + Math.random().toString(16).slice(2, 10) });
    client.on('connect', () => { onStatus('connected'); client.subscribe(topics(info.prefix), { qos: 1 }); });
    client.on('reconnect', () => onStatus('reconnecting'));
    client.on('offline', () => onStatus('offline'));
    client.on('error', e => onStatus('error: ' + e.message));
    client.on('message', (topic, payload) => {
      const text = new TextDecoder().decode(payload);
      let msg = text;
      try { msg = JSON.parse(text); } catch (e) { /* status is plain text */ }
      onMessage(topic.slice(info.prefix.length), msg);
    });
    return { client, info };
  }

  // takenBackText says how many acts the players took back, where they did: the act number
  // counts the log's lines, take backs and the acts they took back among them.
  function takenBackText(v) {
    return v.taken_back ? ' (' + v.taken_back + ' taken back)' : '';
  }

  async function pollState(onState) {
    for (;;) {
      try {
        onState(await (await fetch('api/state', { cache: 'no-store' })).json());
      } catch (e) { /* the daemon is restarting */ }
      await new Promise(r => setTimeout(r, 1000));
    }
  }

  return { spoken, el, tile, tiles, takenBackText, connect, pollState };
})();
