// The set-up page's Racks section: every reader and load cell live, the tag enrolment walk
// (the face to place next, what was read; it advances by itself when a new tag is read, so the
// page needs no action per tile), started, stopped and resumed from here. It polls
// GET /api/setup/racks while the page is shown; setup.js handles logging in.
'use strict';

(() => {
  const $ = id => document.getElementById(id);
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  // window.siameseRacks is what tests read: the latest answer, and the page actions made.
  const shown = window.siameseRacks = { racks: null, error: '', actions: 0, cell: null };

  const api = window.siameseSetup.api; // setup.js: the daemon's set-up API, logging in again when the session lapsed

  function tileImg(face, cls) {
    const t = el('span', 'tile' + (cls ? ' ' + cls : ''));
    const img = el('img');
    img.src = 'tiles/' + face + '.svg';
    img.alt = face;
    t.append(img);
    return t;
  }

  function renderWalk(en, readers) {
    const box = $('enrol');
    if (!en.can) { box.replaceChildren(el('p', 'quiet', 'Tags are not enrolled here: ' + en.why + '.')); return; }
    const w = en.walk;
    if (!$('enrol-reader').options.length) {
      $('enrol-reader').replaceChildren(...readers.map(r => new Option(r, r, false, r === w.reader)));
    }
    $('enrol-file').textContent = en.file;
    $('enrol-progress').value = w.done;
    $('enrol-progress').max = w.total;
    $('enrol-count').textContent = w.done + ' of ' + w.total + ' tiles enrolled';
    const next = $('enrol-next');
    next.replaceChildren();
    if (w.next && w.running) next.append(el('span', '', 'Place '), tileImg(w.next, 'big'), el('b', '', ' ' + w.next), el('span', 'quiet', ' on ' + w.reader));
    else if (!w.next) next.append(el('b', '', 'Every tile of the set is enrolled.'));
    else next.append(el('span', 'quiet', 'Next: ' + w.next + '. Choose the reader the tiles go on and start.'));
    $('enrol-message').textContent = w.message;
    $('enrol-message').className = w.problem ? 'error' : 'note';
    const last = $('enrol-last');
    last.replaceChildren();
    if (w.last && (w.last.kind !== 'rejected' || w.problem)) {
      last.append(el('span', '', w.last.kind === 'enrolled' ? 'Read: tag ' + w.last.uid + ' is ' : 'Refused: tag ' + w.last.uid + (w.last.face ? ' is already ' : '')));
      if (w.last.face) last.append(tileImg(w.last.face, 'small'), el('b', '', ' ' + w.last.face));
      last.className = w.last.kind === 'enrolled' ? 'ok' : 'error';
      if (w.last.kind === 'forgotten') { last.className = 'note'; last.replaceChildren(el('span', '', 'Forgotten: tag ' + w.last.uid + ', which was ' + w.last.face)); }
    }
    const forget = $('enrol-forget');
    forget.hidden = !w.enrolled;
    if (w.enrolled) { forget.textContent = 'Not a ' + w.enrolled.face + '? Forget tag ' + w.enrolled.uid; forget.dataset.uid = w.enrolled.uid; }
    $('enrol-start').hidden = w.running || !w.next;
    $('enrol-start').textContent = w.done > 0 ? 'Resume' : 'Start';
    $('enrol-stop').hidden = !w.running;
    $('enrol-reader').disabled = w.running;
  }

  function renderZones(zones) {
    const byRack = new Map();
    zones.forEach(z => { if (!byRack.has(z.rack)) byRack.set(z.rack, []); byRack.get(z.rack).push(z); });
    $('racks-live').replaceChildren(...[...byRack].map(([name, zs]) => {
      const r = el('div', 'live-rack');
      r.dataset.rack = name;
      r.append(el('h3', '', 'Rack ' + name));
      zs.forEach(z => {
        const zone = el('div', 'live-zone');
        zone.dataset.zone = z.zone;
        const w = z.weight;
        let weight = 'no load cell';
        if (w) weight = w.down ? 'load cell down' + (w.error ? ': ' + w.error : '') : w.grams.toFixed(1) + ' g, ' + (w.tiles < 0 ? 'count not known yet' : w.tiles + ' tile' + (w.tiles === 1 ? '' : 's')) + (w.sure ? '' : ' (unsteady)');
        zone.append(el('div', 'zone-head', z.zone + ': ' + weight));
        const grid = el('div', 'readers');
        z.readers.forEach(rd => {
          const c = el('div', 'reader' + (rd.down ? ' down' : rd.failing ? ' failing' : ''));
          c.dataset.reader = rd.reader;
          c.title = rd.reader;
          c.append(el('small', 'reader-name', rd.reader.split('@')[0]));
          const t = el('span', 'reader-tiles');
          rd.tiles.forEach(tg => {
            if (tg.face) { const i = tileImg(tg.face, 'small'); i.title = tg.uid; t.append(i); } else t.append(el('span', 'unknown', '?'));
            if (!tg.face) t.lastChild.title = 'tag ' + tg.uid + ': not enrolled';
          });
          c.append(t, el('small', 'rate', rd.down ? 'down' : rd.polls ? Math.round(rd.read_rate * 100) + '%' : '–'));
          grid.append(c);
        });
        zone.append(grid);
        r.append(zone);
      });
      return r;
    }));
  }

  function renderCells(zones) {
    const sel = $('cell-zone');
    const names = zones.filter(z => z.weight).map(z => z.rack + '/' + z.zone);
    if (sel.options.length !== names.length) sel.replaceChildren(...names.map(n => new Option(n, n)));
    $('cells').hidden = names.length === 0;
    const z = zones.find(z => z.rack + '/' + z.zone === sel.value);
    $('cell-now').textContent = z && z.weight ? (z.weight.down ? 'load cell down' : 'reads ' + z.weight.grams.toFixed(1) + ' g now' + (z.weight.sure ? '' : ' (unsteady)')) : '';
  }

  let busy = false, lastText = '';
  async function refresh() {
    if ($('page').hidden || busy) return;
    busy = true;
    try {
      const r = await api('GET', 'racks');
      if (!r.ok) { $('racks-box').hidden = r.status === 404; return; }
      $('racks-box').hidden = false;
      shown.racks = r.body;
      const text = JSON.stringify(r.body);
      if (text === lastText) return; // nothing changed: nothing to draw
      lastText = text;
      renderWalk(r.body.enrolment, r.body.readers);
      renderZones(r.body.zones);
      renderCells(r.body.zones);
    } finally { busy = false; }
  }

  async function act(path, body) {
    shown.actions++;
    const r = await api('POST', path, body);
    shown.error = r.ok ? '' : (r.body.error || 'refused');
    $('enrol-error').textContent = shown.error;
    await refresh();
  }
  $('enrol-start').addEventListener('click', () => act('racks/enrol/start', { reader: $('enrol-reader').value }));
  $('enrol-stop').addEventListener('click', () => act('racks/enrol/stop', {}));
  $('enrol-forget').addEventListener('click', () => act('racks/enrol/forget', { uid: $('enrol-forget').dataset.uid }));

  // The load cells, zone by zone: Tare, then Save with the known weight's grams.
  async function cellStep(step) {
    shown.actions++;
    const body = step === 'save' && $('cell-grams').value !== '' ? { grams: Number($('cell-grams').value) } : {};
    const [rack, zone] = $('cell-zone').value.split('/');
    const r = await api('POST', 'racks/cells/' + encodeURIComponent(rack) + '/' + encodeURIComponent(zone) + '/' + step, body);
    shown.cell = r.body;
    $('cell-message').textContent = r.ok ? r.body.message : r.body.error || 'refused';
    $('cell-message').className = r.ok ? 'note' : 'error';
  }
  $('cell-tare').addEventListener('click', () => cellStep('tare'));
  $('cell-save').addEventListener('click', () => cellStep('save'));
  $('cell-zone').addEventListener('change', () => { lastText = ''; $('cell-message').textContent = ''; });

  setInterval(refresh, 500);
  refresh();
})();
