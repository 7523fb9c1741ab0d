// The racks' readers as the table display and the seat view name them: a reader failing (it
// answers too few of its polls) or down is named by the seat and rack it serves, from the
// health topic, before it causes a wrong call; the banner goes once it reads again.
'use strict';

const SiameseReaders = (() => {
  const WHY = { silent_reader: 'it stopped answering', bus_error: 'it is not reached on its bus' };

  // problems lists each reader failing or down in a health report, on every rack or, given a
  // seat, on that seat's racks only: { key, seat, rack, reader, down, text }.
  function problems(health, seat) {
    const out = [];
    ((health && health.racks) || []).forEach(z => {
      if (seat !== undefined && (!z.at || z.at.seat !== seat)) return;
      (z.readers || []).forEach(r => {
        if (!r.failing && !r.down) return;
        out.push({ key: z.rack + '/' + z.zone + '/' + r.reader, seat: z.at ? z.at.seat : null, rack: z.rack,
          reader: r.reader, down: !!r.down, text: sentence(z, r, seat !== undefined) });
      });
    });
    return out;
  }

  // sentence says what is wrong and what to check: "West's rack 2: reader in-01 is failing: it
  // answers 58% of polls — check the tile positions or the reader".
  function sentence(z, r, mine) {
    const where = !z.at ? 'Rack ' + z.rack : (mine ? 'Your rack ' : z.at.name + '\'s rack ') + z.at.rack;
    if (r.down) {
      const f = (z.faults || []).find(x => x.reader === r.reader);
      const why = !f ? 'it does not answer' : WHY[f.kind] || f.kind.replace(/_/g, ' ') + (f.detail ? ' (' + f.detail + ')' : '');
      return where + ': reader ' + r.reader + ' is down: ' + why + ' — its tiles are not read; check its cable and power';
    }
    return where + ': reader ' + r.reader + ' is failing: it answers ' + Math.round(r.read_rate * 100) +
      '% of polls — check the tile positions or the reader';
  }

  // show draws the banner into box (hidden when nothing is wrong) and returns what it named.
  function show(box, health, seat) {
    const ps = problems(health, seat);
    box.replaceChildren(...ps.map(p => {
      const d = Siamese.el('div', 'reader-problem' + (p.down ? ' down' : ''), p.text);
      d.dataset.reader = p.reader;
      d.dataset.rack = p.rack;
      return d;
    }));
    box.hidden = ps.length === 0;
    return ps;
  }

  // poll reads /api/health every few seconds, for a page that has no broker.
  async function poll(onHealth) {
    for (;;) {
      try {
        onHealth(await (await fetch('api/health', { cache: 'no-store' })).json());
      } catch (e) { /* the daemon is restarting */ }
      await new Promise(r => setTimeout(r, 3000));
    }
  }

  return { problems, show, poll };
})();
