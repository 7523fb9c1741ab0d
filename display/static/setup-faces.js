// The set-up page's Camera section, "Enrol faces": once the corners are saved, the page names
// the next face the card needs (J and every face it uses), the player lays it alone in the
// discard area and presses Capture; the camera worker cuts it out once the area is still, the
// page shows the crop, and the player accepts it or retakes it. A face enrolled already is
// replaced only when the player says so. At the end, Check has the model name every crop back:
// crops it misreads are listed, faces it holds alike shown side by side, and once all are named
// back the camera takes the enrolment and the page says it is ready. The daemon checks
// everything again: what it refuses is said, and nothing is saved.
'use strict';

(() => {
  const $ = id => document.getElementById(id);
  // What tests read: the enrolment, the face to lay next, the crop shown, the last message and
  // the check's answer.
  const shown = window.siameseSetup.faces = { info: null, next: '', crop: null, says: '', error: '', checked: null, busy: false };
  let started = false; // the empty area is captured

  const api = window.siameseSetup.api; // setup.js: the daemon's set-up API, logging in again when the session lapsed

  function say(cls, text) {
    shown.error = cls === 'error' ? text : '';
    shown.says = text;
    $('faces-result').className = cls;
    $('faces-result').textContent = text;
  }

  function step(text) { $('faces-step').textContent = text; }

  // buttons enables what can be pressed now.
  function buttons() {
    const left = shown.info ? shown.info.left.length : 0;
    $('faces-capture').disabled = shown.busy || !started || !shown.next;
    $('faces-retake').disabled = shown.busy || !shown.crop;
    $('faces-accept').disabled = shown.busy || !shown.crop;
    $('faces-check').disabled = shown.busy || !shown.info || left > 0;
    $('faces-start').disabled = shown.busy;
  }

  // show draws the enrolment: which card, the faces as chips, the next face.
  function show(info) {
    shown.info = info;
    started = info.empty;
    if (!shown.next || !info.required.includes(shown.next) || (!shown.crop && !info.left.includes(shown.next) && info.left.length)) {
      shown.next = info.left[0] || '';
    }
    const done = new Set(info.enrolled.map(e => e.face));
    $('faces-note').textContent = 'The faces of ' + info.card + ', and J: ' + done.size + ' of ' + info.required.length +
      ' enrolled, saved in ' + info.dir + '. Click a face to capture it (again).';
    $('faces-list').replaceChildren(...info.required.map(f => {
      const li = document.createElement('li');
      li.textContent = f;
      li.dataset.face = f;
      li.className = (done.has(f) ? 'done' : '') + (f === shown.next ? ' next' : '');
      li.addEventListener('click', () => { shown.next = f; dropCrop(); show(shown.info); });
      return li;
    }));
    if (!started) step('Clear the discard area, then press Start: the camera keeps the empty area to find each tile against.');
    else if (shown.crop) step('Is this ' + shown.next + '? Accept it, or Retake.');
    else if (shown.next) step('Lay ' + shown.next + ' face up in the discard area, alone, take your hand away, then press Capture.');
    else step('Every face is enrolled: press Check.');
    buttons();
  }

  function dropCrop() {
    shown.crop = null;
    $('faces-crop').hidden = true;
    $('faces-crop-says').textContent = '';
    $('faces-replace').hidden = true;
  }

  async function load() {
    const r = await api('GET', 'camera/faces');
    if (!r.ok) { $('faces-note').textContent = r.body.error || 'the enrolment cannot be shown'; return; }
    $('faces-work').hidden = false;
    show(r.body);
  }

  // busy runs f with the buttons off.
  async function busy(f) {
    shown.busy = true; buttons();
    try { await f(); } finally { shown.busy = false; buttons(); }
  }

  $('faces-start').addEventListener('click', () => busy(async () => {
    dropCrop();
    const r = await api('POST', 'camera/faces/empty', {});
    if (!r.ok) { say('error', r.body.error || 'the empty area was not captured'); started = false; return; }
    started = true;
    say('note', 'The empty area is kept.');
    await load();
  }));

  async function capture() {
    dropCrop();
    const face = shown.next;
    const r = await api('POST', 'camera/faces/capture', { face });
    if (!r.ok) { say('error', r.body.error || 'nothing captured'); show(shown.info); return; }
    shown.crop = { face, width: r.body.crop.width, height: r.body.crop.height, jpeg: r.body.crop.jpeg, enrolled: r.body.enrolled };
    $('faces-crop').src = 'data:image/jpeg;base64,' + r.body.crop.jpeg;
    $('faces-crop').hidden = false;
    $('faces-crop-says').textContent = face + (r.body.enrolled ? ' (enrolled already: accepting replaces it)' : '');
    say('', '');
    show(r.body.faces);
  }
  $('faces-capture').addEventListener('click', () => busy(capture));
  $('faces-retake').addEventListener('click', () => busy(capture));

  async function accept(replace) {
    const face = shown.crop.face;
    const r = await api('POST', 'camera/faces/accept', { face, replace });
    if (!r.ok) {
      say('error', r.body.error || 'nothing saved');
      $('faces-replace').hidden = !r.body.already;
      return;
    }
    dropCrop();
    shown.next = '';
    say('note', face + (replace ? ' replaced.' : ' enrolled.'));
    show(r.body);
  }
  $('faces-accept').addEventListener('click', () => busy(() => accept(false)));
  $('faces-replace').addEventListener('click', () => busy(() => accept(true)));

  $('faces-check').addEventListener('click', () => busy(async () => {
    shown.checked = null;
    say('note', 'Checking every face with the model…');
    const r = await api('POST', 'camera/faces/check', {});
    if (!r.ok) { say('error', r.body.error || 'not checked'); return; }
    say(r.body.ready ? 'note ready' : 'error', r.body.says);
    const parts = [];
    for (const m of r.body.misread) {
      const p = document.createElement('p');
      p.className = 'error';
      p.textContent = m.image + ', enrolled as ' + m.face + ', is named back as ' + (m.as || 'nothing') + (m.known ? '' : ' (not sure)') + ': click ' + m.face + ' and capture it again.';
      parts.push(p);
    }
    for (const a of r.body.alike) {
      const div = document.createElement('div');
      div.className = 'faces-pair';
      for (const [f, jpeg] of [[a.a, a.jpeg_a], [a.b, a.jpeg_b]]) {
        const fig = document.createElement('figure'), img = document.createElement('img'), cap = document.createElement('figcaption');
        img.src = 'data:image/jpeg;base64,' + jpeg; img.alt = f; cap.textContent = f;
        fig.append(img, cap); div.append(fig);
      }
      const t = document.createElement('span');
      t.textContent = a.a + ' and ' + a.b + ' look alike to the model (similarity ' + a.similarity.toFixed(2) + ')';
      div.append(t);
      parts.push(div);
    }
    $('faces-checked').replaceChildren(...parts);
    shown.checked = r.body;
  }));

  // The step wakes once the owner is in and the corners are saved (setup-camera.js calls
  // facesWake after saving them).
  window.siameseSetup.facesWake = load;
  let loaded = false;
  const wake = async () => {
    if (loaded || $('page').hidden) return;
    loaded = true;
    const c = await api('GET', 'camera');
    if (c.ok && c.body.worker && c.body.saved) load();
  };
  new MutationObserver(wake).observe($('page'), { attributes: true, attributeFilter: ['hidden'] });
  wake();
})();
