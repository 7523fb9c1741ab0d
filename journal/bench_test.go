package journal

import (
	"testing"
)

// BenchmarkAppend is the journal's speed on this disk: one action written and fsync'd per op.
func BenchmarkAppend(b *testing.B) {
	p := playGame(b, "royale-4", "g", 1, 300)
	d, err := OpenDir(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	w, err := d.Create(p.header, p.card)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	i := 0
	for b.Loop() {
		if err := w.Append(p.acts[i%len(p.acts)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
}

// BenchmarkResume is a daemon's start with a 300-action game open: read, replay, reopen.
func BenchmarkResume(b *testing.B) {
	p := playGame(b, "royale-4", "g", 1, 300)
	d, path := writeGame(b, p, 300)
	for b.Loop() {
		w, g, err := d.Resume(path, Sources{})
		if err != nil {
			b.Fatal(err)
		}
		if g.State.Seq != 300 {
			b.Fatalf("%d actions", g.State.Seq)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad is Resume without opening for writing: the replay alone, as Unfinished does
// for each game.
func BenchmarkLoad(b *testing.B) {
	p := playGame(b, "royale-4", "g", 1, 300)
	_, path := writeGame(b, p, 300)
	for b.Loop() {
		if _, err := Load(path, Sources{}); err != nil {
			b.Fatal(err)
		}
	}
}
