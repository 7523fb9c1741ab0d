// The join page: a phone that scanned a seat's QR code (join.html#CODE) or typed its code
// exchanges it for the seat's MQTT login, keeps it in this browser (localStorage) and opens the
// seat view, which logs in from it. The code is in the URL's fragment: it never reaches a server
// log or another site as a referrer.
'use strict';

(() => {
  const $ = id => document.getElementById(id);
  const shown = window.siameseJoin = { error: '' };

  async function join(code) {
    $('join-error').textContent = '';
    $('join-status').textContent = 'joining…';
    const r = await fetch('api/join', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });
    let j = {};
    try { j = await r.json(); } catch (e) { /* no answer */ }
    $('join-status').textContent = '';
    if (!r.ok) {
      shown.error = j.error || ('refused (' + r.status + ')');
      $('join-error').textContent = shown.error;
      return;
    }
    localStorage.setItem('siamese.seat', JSON.stringify(j));
    history.replaceState(null, '', 'join.html'); // the code leaves the address bar
    location.replace('seat.html');
  }

  $('join').addEventListener('submit', ev => { ev.preventDefault(); join($('code').value); });
  const code = decodeURIComponent(location.hash.slice(1));
  if (code) { $('code').value = code; join(code); }
})();
