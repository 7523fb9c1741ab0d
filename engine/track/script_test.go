package track

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/sim"
)

var update = flag.Bool("update", false, "write the sensor scripts' golden files (testdata/scripts/*.golden)")

// TestSensorScripts plays each script in testdata/scripts on the fake table and compares the
// acts the tracker played (when, in table time from the deal; in notation; with their outcome,
// the rules they break and what played them when not the sensors) and its questions at the end
// with the script's golden file. go test ./engine/track -run
// TestSensorScripts -update writes them.
//
// A script is one line per step, at the table's clock:
//
//	rules siamese                       the ruleset (before deal)
//	deal 0/1 F F F ... 8B               a rack as dealt: seat/rack and its tiles (four lines)
//	take 0/1 8B                         a hand takes tiles from seat 0 rack 1 (0/1on: the tiles lying on it)
//	put 0/2 7B                          a hand puts tiles there
//	lay 0/1on F F F F 1B                tiles laid face up as one group (two of its tags read)
//	throw 8B | throw ? 8B               the camera sees the tile land (? : it cannot name it)
//	lift 6C | lift ? 6C                 the camera sees the tile taken from the discards (? : unnamed)
//	say 0 mahjong r1 | say 1 racks_right  a player's command
//	say 0 act 0 draw 5B r2              an act entered by hand, in notation
//	moving 0/1 0/1on                    the hardware says these zones are changing (none: still)
//	failing 1/1                         ... that a reader of these zones is failing (none: all read well)
//	reweighed 1/1                       ... that their load cells weigh otherwise than they read (none: alike)
//	touch 0/1on                         a hand straightens the zone's tiles (it reads late)
//	run 2s                              the table runs on, its readings coming due
//	run 1.5s touching 0/1on             ... while a hand keeps straightening the zone's tiles
//	wait 1s                             the readings come due, the tracker hearing no tick between
//
// Each # line is a comment; the script's first comment says what it pins.
func TestSensorScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/scripts/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in testdata/scripts (%v)", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			got := runScript(t, file)
			golden := strings.TrimSuffix(file, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./engine/track -run TestSensorScripts -update writes it)", err)
			}
			if got != string(want) {
				t.Fatalf("%s played\n%s\nwant\n%s", file, got, want)
			}
		})
	}
}

// runScript plays one script and writes what the tracker did.
func runScript(t *testing.T, file string) string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		rules  = "siamese"
		racks  [4]string
		ft     *fakeTable
		tr     *Tracker
		motion Motion
		out    strings.Builder
		begun  time.Time
	)
	note := func(steps []Step) {
		for _, s := range steps {
			fmt.Fprintf(&out, "@%.2fs %s %s", s.At.Sub(begun).Seconds(), s.Action.Notation(), game.OutcomeOf(s.Verdicts))
			if s.Source != "sensors" {
				fmt.Fprintf(&out, " (%s)", s.Source)
			}
			for _, v := range s.Verdicts {
				if v.Faulty() {
					fmt.Fprintf(&out, " [%s: %s]", v.Rule, v.Detail)
				}
			}
			out.WriteString("\n")
		}
	}
	start := func() {
		if ft == nil {
			ft, tr = dealtTable(t, loadRules(t, rules), loadCard(t), racks)
			begun = ft.now
		}
	}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("%s:%d: %s: %s", file, n, line, fmt.Sprintf(format, args...))
		}
		word, rest, _ := strings.Cut(line, " ")
		args := strings.Fields(rest)
		if len(args) == 0 && word != "moving" && word != "failing" && word != "reweighed" {
			fail("%s needs more", word)
		}
		switch word {
		case "rules":
			rules = rest
			continue
		case "deal":
			p, err := scriptPlace(args[0])
			if err != nil || p.Zone != In {
				fail("want seat/rack")
			}
			racks[p.Seat*2+p.Rack-1] = strings.Join(args[1:], " ")
			continue
		}
		start()
		switch word {
		case "take", "put", "lay":
			p, err := scriptPlace(args[0])
			if err != nil {
				fail("%v", err)
			}
			fs, err := tile.ParseList(strings.Join(args[1:], " "))
			if err != nil {
				fail("%v", err)
			}
			kind := map[string]sim.OpKind{"take": sim.Take, "put": sim.Put, "lay": sim.Put}[word]
			if word == "lay" && p.Zone != On {
				fail("lay is onto a rack's on zone (0/1on)")
			}
			if word != "lay" && p.Zone == On {
				for _, face := range fs { // each tile its own group: all its tags read
					ft.do(sim.Op{Kind: kind, Place: sim.Place{Seat: p.Seat, Rack: p.Rack, Zone: sim.Zone(p.Zone)}, Tiles: []tile.Face{face}})
				}
				continue
			}
			ft.do(sim.Op{Kind: kind, Place: sim.Place{Seat: p.Seat, Rack: p.Rack, Zone: sim.Zone(p.Zone)}, Tiles: fs})
		case "throw", "lift":
			named := true
			if len(args) == 2 && args[0] == "?" {
				named, args = false, args[1:]
			}
			if len(args) != 1 {
				fail("want one tile")
			}
			seeDiscards(ft, map[string]sim.OpKind{"throw": sim.Discard, "lift": sim.TakeDiscard}[word], args[0], named)
		case "say":
			seat, err := strconv.Atoi(args[0])
			if err != nil || len(args) < 2 || (len(args) > 3 && args[1] != string(CmdAct)) {
				fail("want a seat and a command")
			}
			c := Command{Seat: seat, Kind: CommandKind(args[1]), At: ft.now}
			if c.Kind == CmdAct {
				a, err := game.ParseNotation(strings.Join(args[2:], " "))
				if err != nil {
					fail("%v", err)
				}
				c.Action = &a
			} else if len(args) == 3 {
				c.Rack, _ = strconv.Atoi(strings.TrimPrefix(args[2], "r"))
			}
			st, err := tr.Command(c)
			if err != nil {
				fmt.Fprintf(&out, "%d %s: %v\n", seat, args[1], err)
			}
			note(st)
		case "moving", "failing", "reweighed":
			var places []Place
			for _, a := range args {
				p, err := scriptPlace(a)
				if err != nil {
					fail("%v", err)
				}
				places = append(places, p)
			}
			switch word {
			case "moving":
				motion.Moving, motion.Changing = places, places
			case "failing":
				motion.Failing = places
			default:
				motion.Reweighed = places
			}
			note(tr.Motion(motion, ft.now))
		case "touch":
			for _, a := range args {
				p, err := scriptPlace(a)
				if err != nil {
					fail("%v", err)
				}
				ft.touch(p)
			}
		case "wait":
			d, err := time.ParseDuration(rest)
			if err != nil {
				fail("%v", err)
			}
			note(ft.runUntil(tr, ft.now.Add(d)))
		case "run":
			d, err := time.ParseDuration(args[0])
			if err != nil {
				fail("%v", err)
			}
			var touching []Place
			if len(args) > 1 {
				if args[1] != "touching" {
					fail("want run DURATION [touching ZONE...]")
				}
				for _, a := range args[2:] {
					p, err := scriptPlace(a)
					if err != nil {
						fail("%v", err)
					}
					touching = append(touching, p)
				}
			}
			for end := ft.now.Add(d); ft.now.Before(end); {
				for _, p := range touching {
					ft.touch(p)
				}
				note(ft.runUntil(tr, ft.now.Add(100*time.Millisecond)))
				if len(motion.Moving) > 0 {
					note(tr.Motion(motion, ft.now))
				}
			}
		default:
			fail("unknown step %q", word)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	start()
	for _, q := range tr.Questions() {
		fmt.Fprintf(&out, "? %s\n", q.Text)
	}
	return out.String()
}

// scriptPlace reads seat/rack, and seat/rackon for the tiles lying on it.
func scriptPlace(s string) (Place, error) {
	z := In
	if rest, ok := strings.CutSuffix(s, "on"); ok {
		s, z = rest, On
	}
	seat, rack, ok := strings.Cut(s, "/")
	si, err1 := strconv.Atoi(seat)
	ri, err2 := strconv.Atoi(rack)
	if !ok || err1 != nil || err2 != nil || si < 0 || si > 3 || ri < 1 || ri > 2 {
		return Place{}, fmt.Errorf("place %q: want seat/rack, or seat/rackon", s)
	}
	return Place{Seat: si, Rack: ri, Zone: z}, nil
}
