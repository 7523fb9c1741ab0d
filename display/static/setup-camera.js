// The set-up page's Camera section: the camera's snapshot; the owner clicks the discard area's
// four corners on it (top-left, top-right, bottom-right, bottom-left) and drags them to adjust;
// each change asks the camera worker for the top-down view through them, warped as the camera
// will warp; "Save the corners" saves them where the worker reads its calibration. The daemon
// checks every corner again: what it refuses is listed, and nothing is saved.
'use strict';

(() => {
  const $ = id => document.getElementById(id);
  const NAMES = ['top-left', 'top-right', 'bottom-right', 'bottom-left'];
  const SVG = 'http://www.w3.org/2000/svg';
  // What tests read: the camera's state, the snapshot shown, the corners (frame pixels), the
  // latest preview and save answers.
  const shown = window.siameseSetup.camera = { info: null, snapshot: null, corners: [], preview: null, error: '', saved: null, problems: [] };
  let frame = null;       // the snapshot's size: corners are in its pixels
  let drag = -1;          // the corner being dragged
  let sizeEdited = false; // the owner typed the view's size: it no longer follows the corners
  let asked = 0;          // previews asked: only the latest one is shown

  const api = window.siameseSetup.api; // setup.js: the daemon's set-up API, logging in again when the session lapsed

  function say(box, cls, text) { $(box).className = cls; $(box).textContent = text; }

  function showProblems(body) {
    shown.problems = body.problems || [];
    $('camera-problems').replaceChildren(...shown.problems.map(p => { const li = document.createElement('li'); li.textContent = p.msg; return li; }));
  }

  async function load() {
    const r = await api('GET', 'camera');
    if (!r.ok) return;
    const c = shown.info = r.body;
    if (!c.worker) {
      $('camera-note').textContent = 'This table has no camera worker (camera: ' + c.camera + '): there is nothing to calibrate.';
      return;
    }
    note(c);
    $('camera-work').hidden = false;
    if (c.saved && shown.corners.length === 0) {
      shown.corners = c.saved.corners.map(p => [p[0], p[1]]);
      $('camera-width').value = c.saved.width;
      $('camera-height').value = c.saved.height;
      sizeEdited = true; // the saved size stays unless the owner changes it
    }
    snap();
  }

  // note says which camera, where its corners are saved, and how it is.
  function note(c) {
    $('camera-note').textContent = 'Camera: ' + c.camera + (c.camera === 'sim' ? ' (the simulated table\'s)' : '') + '. The corners are saved in ' + c.file + (c.saved ? ' (saved: a ' + c.saved.width + '×' + c.saved.height + ' top-down view).' : '; none are saved yet.') +
      (c.problem ? ' The file there cannot be read: ' + c.problem : '') + (c.health ? ' The camera: ' + c.health + '.' : '');
  }

  async function snap() {
    $('camera-snap').disabled = true;
    say('camera-step', 'note', 'Taking a snapshot…');
    const r = await api('GET', 'camera/snapshot');
    $('camera-snap').disabled = false;
    if (!r.ok) { say('camera-step', 'error', r.body.error || 'the camera gave no snapshot'); return; }
    shown.snapshot = r.body;
    frame = { width: r.body.width, height: r.body.height };
    $('camera-marks').setAttribute('viewBox', '0 0 ' + frame.width + ' ' + frame.height);
    $('camera-img').src = 'data:image/jpeg;base64,' + r.body.jpeg;
    draw();
    if (shown.corners.length === 4) preview();
  }

  // draw puts the corners, their names and the area's outline over the snapshot.
  function draw() {
    const svg = $('camera-marks'), cs = shown.corners;
    const r = Math.max(6, frame ? frame.width / 90 : 8);
    const parts = [];
    if (cs.length > 1) {
      const poly = document.createElementNS(SVG, cs.length === 4 ? 'polygon' : 'polyline');
      poly.setAttribute('points', cs.map(p => p.join(',')).join(' '));
      if (cs.length < 4) poly.setAttribute('fill', 'none');
      parts.push(poly);
    }
    cs.forEach((p, i) => {
      const c = document.createElementNS(SVG, 'circle');
      c.setAttribute('cx', p[0]); c.setAttribute('cy', p[1]); c.setAttribute('r', r);
      c.dataset.corner = i;
      const t = document.createElementNS(SVG, 'text');
      // Each name inside the area: right of a left corner, left of a right one, below a top one.
      t.setAttribute('x', i === 1 || i === 2 ? p[0] - 1.5 * r : p[0] + 1.5 * r);
      t.setAttribute('y', i < 2 ? p[1] + 4 * r : p[1] - 1.5 * r);
      t.setAttribute('text-anchor', i === 1 || i === 2 ? 'end' : 'start');
      t.setAttribute('font-size', 3 * r);
      t.textContent = NAMES[i];
      parts.push(c, t);
    });
    svg.replaceChildren(...parts);
    $('camera-step').className = 'note';
    $('camera-step').textContent = cs.length < 4
      ? 'Click the ' + NAMES[cs.length] + ' corner of the discard area (' + (cs.length + 1) + ' of 4).'
      : 'Drag a corner to adjust it: the top-down view follows. Save when the area fills it, its edges straight.';
  }

  // at is the pointer's place in the frame's pixels, kept inside the frame.
  function at(ev) {
    const b = $('camera-marks').getBoundingClientRect();
    const x = (ev.clientX - b.left) * frame.width / b.width, y = (ev.clientY - b.top) * frame.height / b.height;
    return [Math.round(Math.min(frame.width, Math.max(0, x)) * 10) / 10, Math.round(Math.min(frame.height, Math.max(0, y)) * 10) / 10];
  }

  $('camera-marks').addEventListener('pointerdown', ev => {
    if (!frame) return;
    ev.preventDefault();
    const p = at(ev), reach = 28 * frame.width / $('camera-marks').getBoundingClientRect().width;
    let best = -1, bestD = reach;
    shown.corners.forEach((c, i) => { const d = Math.hypot(c[0] - p[0], c[1] - p[1]); if (d <= bestD) { best = i; bestD = d; } });
    if (best < 0 && shown.corners.length < 4) { shown.corners.push(p); best = shown.corners.length - 1; }
    if (best < 0) return;
    drag = best;
    $('camera-marks').setPointerCapture(ev.pointerId);
    draw();
  });
  $('camera-marks').addEventListener('pointermove', ev => {
    if (drag < 0) return;
    shown.corners[drag] = at(ev);
    draw();
  });
  const drop = () => {
    if (drag < 0) return;
    drag = -1;
    if (shown.corners.length === 4) { followSize(); preview(); }
  };
  $('camera-marks').addEventListener('pointerup', drop);
  $('camera-marks').addEventListener('pointercancel', drop);

  // followSize sets the view's size from the corners: the mean lengths of opposite sides.
  function followSize() {
    if (sizeEdited) return;
    const [a, b, c, d] = shown.corners, len = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1]);
    $('camera-width').value = Math.round((len(a, b) + len(d, c)) / 2);
    $('camera-height').value = Math.round((len(a, d) + len(b, c)) / 2);
  }
  for (const id of ['camera-width', 'camera-height']) {
    $(id).addEventListener('change', () => { sizeEdited = true; if (shown.corners.length === 4) preview(); });
  }

  function form() {
    return { corners: shown.corners.map(p => [p[0], p[1]]), width: Number($('camera-width').value), height: Number($('camera-height').value) };
  }

  async function preview() {
    const n = ++asked;
    const r = await api('POST', 'camera/preview', form());
    if (n !== asked) return; // a newer preview is on its way
    showProblems(r.body);
    if (!r.ok) {
      shown.preview = null;
      shown.error = r.body.error || 'no preview';
      $('camera-warped').hidden = true;
      say('camera-result', 'error', shown.error);
      return;
    }
    shown.error = '';
    say('camera-result', '', '');
    $('camera-warped').onload = () => { shown.preview = { width: r.body.width, height: r.body.height, asked: n }; };
    $('camera-warped').src = 'data:image/jpeg;base64,' + r.body.jpeg;
    $('camera-warped').hidden = false;
  }

  $('camera-snap').addEventListener('click', snap);
  $('camera-reset').addEventListener('click', () => {
    shown.corners = []; shown.preview = null;
    $('camera-warped').hidden = true;
    if (frame) draw();
  });
  $('camera-save').addEventListener('click', async () => {
    $('camera-save').disabled = true;
    const r = await api('POST', 'camera/calibration', form());
    $('camera-save').disabled = false;
    shown.saved = r.body;
    showProblems(r.body);
    if (!r.ok) { say('camera-result', 'error', r.body.error || 'refused'); return; }
    say('camera-result', 'note', 'Saved in ' + r.body.file + ': ' + r.body.reloaded + '.');
    if (window.siameseSetup.facesWake) window.siameseSetup.facesWake(); // the faces are captured through them
    const c = await api('GET', 'camera');
    if (c.ok) note(shown.info = c.body);
  });

  // The section wakes when the owner is in: the page shows once logged in.
  let loaded = false;
  const wake = () => { if (!loaded && !$('page').hidden) { loaded = true; load(); } };
  new MutationObserver(wake).observe($('page'), { attributes: true, attributeFilter: ['hidden'] });
  wake();
})();
