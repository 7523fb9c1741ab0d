package desk

import (
	"slices"
	"strconv"
)

// View is a consistent copy of what the pages show.
type View struct {
	Event     string
	Rounds    int
	Games     int // a round
	Tables    []TableView
	Standings []Standing
	Calls     []CallRecord // open first, then ruled
	Changes   int
	Last      int64
}

// TableView is one table at a glance.
type TableView struct {
	Table   int
	Round   int // the round it is in: the latest it reported, else the first not closed
	Glance  Glance
	Sheets  []SheetView // one per round
	Calls   int         // open calls
	Waiting []string    // who the desk waits for: "Ann signs game 2", "West initials East"
}

// SheetView is a sheet with its totals.
type SheetView struct {
	Sheet
	Games       []GameView
	Totals      []int
	Initialed   []bool
	InitialedBy []string // who initialed each total, as it stands
	Closed      bool
}

// GameView is a game with whether it counts.
type GameView struct {
	Game
	Counted bool
}

// View takes a copy of the book for the pages.
func (d *Desk) View() View {
	d.mu.RLock()
	defer d.mu.RUnlock()
	b := d.book
	v := View{Event: d.ev.Name, Rounds: d.ev.Rounds, Games: d.ev.GamesPerRound, Standings: b.Standings(), Changes: b.changes, Last: b.last}
	open := map[int]int{}
	for _, c := range b.calls {
		v.Calls = append(v.Calls, *c)
		if c.Ruling == nil {
			open[c.Table]++
		}
	}
	slices.SortStableFunc(v.Calls, func(x, y CallRecord) int {
		if (x.Ruling == nil) != (y.Ruling == nil) {
			if x.Ruling == nil {
				return -1
			}
			return 1
		}
		return x.At.Compare(y.At)
	})
	for t := 1; t <= d.ev.Tables(); t++ {
		tv := TableView{Table: t, Glance: d.glnce[t], Calls: open[t]}
		for r := 1; r <= d.ev.Rounds; r++ {
			sh, ok := b.sheets[[2]int{t, r}]
			if !ok {
				sh = &Sheet{Table: t, Round: r, Players: d.ev.Seating(r)[t-1], Initials: map[int]Initials{}}
			}
			tv.Sheets = append(tv.Sheets, sheetView(sh, d.ev.GamesPerRound))
		}
		tv.Round = tv.Glance.Round
		if tv.Round == 0 {
			tv.Round = d.ev.Rounds
			for i, s := range tv.Sheets {
				if !s.Closed {
					tv.Round = i + 1
					break
				}
			}
		}
		tv.Waiting = waiting(tv.Sheets[tv.Round-1])
		v.Tables = append(v.Tables, tv)
	}
	return v
}

func sheetView(sh *Sheet, games int) SheetView {
	sv := SheetView{Sheet: *sh, Totals: sh.Totals(), Closed: sh.Closed(games)}
	for _, g := range sh.Games {
		sv.Games = append(sv.Games, GameView{Game: *g, Counted: g.Counted()})
	}
	for i := range sh.Players {
		sv.Initialed = append(sv.Initialed, sh.Initialed(i))
		sv.InitialedBy = append(sv.InitialedBy, sh.Initials[i].Name)
	}
	return sv
}

var positionNames = map[int][]string{2: {"East", "West"}, 3: {"East", "South", "West"}, 4: {"East", "South", "West", "North"}}

// waiting says whom a sheet waits for.
func waiting(s SheetView) []string {
	var out []string
	for _, g := range s.Games {
		if g.Conflict != "" {
			out = append(out, "the director: "+g.Conflict)
			continue
		}
		for _, seat := range g.Result.Signers() {
			if _, ok := g.Signed[seat]; !ok {
				out = append(out, s.Players[seat]+" signs game "+strconv.Itoa(g.Number))
			}
		}
	}
	names := positionNames[len(s.Players)]
	if len(s.Games) > 0 {
		for seat := range s.Players {
			if !s.Initialed[seat] {
				by := Initialer(seat, len(s.Players))
				if by == seat {
					out = append(out, s.Players[seat]+" initials the total")
				} else {
					out = append(out, names[by]+" ("+s.Players[by]+") initials East's total")
				}
			}
		}
	}
	return out
}
