package game

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Notation is an act in one short line, for people reading a debug log or writing a test, as
// a chess library writes moves: the seat, the act, its tiles, then what else it needs.
//
//	0 discard 5B r1
//	1 call 5B 5B J r2
//	0 move 6C S S r1 to r2
//	1 call 5B r1 for mahjong both rival 0
//	0 exchange 5B target s1 r2 x0
//	0 roll for east die 4
//	1 mahjong r1
//
// ParseNotation reads it back; the game log stays JSON (docs/game-log.md).
func (a Action) Notation() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s", a.Seat, a.Act)
	for _, f := range a.Tiles {
		b.WriteString(" " + f.String())
	}
	if a.Rack != 0 {
		fmt.Fprintf(&b, " r%d", a.Rack)
	}
	if a.To != 0 {
		fmt.Fprintf(&b, " to r%d", a.To)
	}
	if a.For != "" {
		b.WriteString(" for " + a.For)
	}
	if a.Named != nil {
		b.WriteString(" named " + a.Named.String())
	}
	if a.Target != nil {
		fmt.Fprintf(&b, " target s%d r%d x%d", a.Target.Seat, a.Target.Rack, a.Target.Exposure)
	}
	if a.Both {
		b.WriteString(" both")
	}
	for _, r := range a.Rivals {
		fmt.Fprintf(&b, " rival %d", r.Seat)
		if r.For != "" {
			b.WriteString(":" + r.For)
		}
		if r.Both {
			b.WriteString(":both")
		}
	}
	for _, d := range a.Dice {
		fmt.Fprintf(&b, " die %d", d)
	}
	return b.String()
}

// ParseNotation reads an act written as Notation writes it. Tiles come before the other
// fields; each field at most once (rival and die may repeat). The act is checked as a game-log
// line is.
func ParseNotation(s string) (Action, error) {
	var a Action
	tok := strings.Fields(s)
	bad := func(format string, args ...any) (Action, error) {
		return Action{}, fmt.Errorf("game: act %q: %s", s, fmt.Sprintf(format, args...))
	}
	if len(tok) < 2 {
		return bad("want a seat and an act")
	}
	seat, err := strconv.Atoi(tok[0])
	if err != nil || seat < 0 || seat > 3 {
		return bad("seat %q: want 0 to 3", tok[0])
	}
	a.Seat, a.Act = seat, Act(tok[1])
	if !slices.Contains(Acts, a.Act) {
		return bad("unknown act %q", tok[1])
	}
	i := 2
	for ; i < len(tok); i++ {
		f, err := tile.Parse(tok[i])
		if err != nil {
			break
		}
		a.Tiles = append(a.Tiles, f)
	}
	seen := map[string]bool{}
	next := func() (string, bool) {
		i++
		if i >= len(tok) {
			return "", false
		}
		return tok[i], true
	}
	for ; i < len(tok); i++ {
		key := tok[i]
		if key != "rival" && key != "die" {
			if seen[key] || len(key) == 2 && key[0] == 'r' && seen["rack"] {
				return bad("%s twice", key)
			}
			seen[key] = true
		}
		switch {
		case len(key) == 2 && key[0] == 'r':
			seen["rack"] = true
			if a.Rack, err = rackNumber(key); err != nil {
				return bad("%v", err)
			}
		case key == "to":
			v, ok := next()
			if !ok {
				return bad("to: want a rack (r1 or r2)")
			}
			if a.To, err = rackNumber(v); err != nil {
				return bad("to: %v", err)
			}
		case key == "for":
			v, ok := next()
			if !ok {
				return bad("for: want what for")
			}
			a.For = v
		case key == "named":
			v, ok := next()
			f, err := tile.Parse(v)
			if !ok || err != nil {
				return bad("named: want a tile")
			}
			a.Named = &f
		case key == "target":
			if i+3 >= len(tok) {
				return bad("target: want s<seat> r<rack> x<exposure>")
			}
			t, err := parseTarget(tok[i+1 : i+4])
			if err != nil {
				return bad("target: %v", err)
			}
			a.Target, i = &t, i+3
		case key == "both":
			a.Both = true
		case key == "rival":
			v, ok := next()
			if !ok {
				return bad("rival: want a seat")
			}
			r, err := parseRival(v)
			if err != nil {
				return bad("rival: %v", err)
			}
			a.Rivals = append(a.Rivals, r)
		case key == "die":
			v, ok := next()
			n, err := strconv.Atoi(v)
			if !ok || err != nil {
				return bad("die: want a number")
			}
			a.Dice = append(a.Dice, n)
		default:
			return bad("%q: want a tile (before the rest), r1, r2, to, for, named, target, both, rival or die", key)
		}
	}
	if err := a.check(); err != nil {
		return Action{}, fmt.Errorf("game: act %q: %w", s, err)
	}
	return a, nil
}

func rackNumber(s string) (int, error) {
	if s != "r1" && s != "r2" {
		return 0, fmt.Errorf("rack %q: want r1 or r2", s)
	}
	return int(s[1] - '0'), nil
}

// parseTarget reads s<seat> r<rack> x<exposure>.
func parseTarget(tok []string) (Target, error) {
	var t Target
	for i, p := range []struct {
		prefix byte
		v      *int
	}{{'s', &t.Seat}, {'r', &t.Rack}, {'x', &t.Exposure}} {
		if len(tok[i]) < 2 || tok[i][0] != p.prefix {
			return Target{}, fmt.Errorf("%q: want %c<number>", tok[i], p.prefix)
		}
		n, err := strconv.Atoi(tok[i][1:])
		if err != nil || n < 0 || n > 63 {
			return Target{}, fmt.Errorf("%q: want %c<number>", tok[i], p.prefix)
		}
		*p.v = n
	}
	return t, nil
}

// parseRival reads <seat>[:exposure|:mahjong][:both].
func parseRival(s string) (Rival, error) {
	parts := strings.Split(s, ":")
	seat, err := strconv.Atoi(parts[0])
	if err != nil || seat < 0 || seat > 3 {
		return Rival{}, fmt.Errorf("%q: want a seat, 0 to 3", s)
	}
	r := Rival{Seat: seat}
	for _, p := range parts[1:] {
		switch {
		case (p == "exposure" || p == "mahjong") && r.For == "" && !r.Both:
			r.For = p
		case p == "both" && !r.Both:
			r.Both = true
		default:
			return Rival{}, fmt.Errorf("%q: want <seat>[:exposure|:mahjong][:both]", s)
		}
	}
	return r, nil
}
