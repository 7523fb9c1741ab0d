package desk

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/siamesetable/siamesed/tournament/movement"
	"github.com/siamesetable/siamesed/tournament/wire"
)

//go:embed pages/*.html
var pageFiles embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{"inc": func(i int) int { return i + 1 }}).ParseFS(pageFiles, "pages/*.html"))

// page is what a page template gets.
type page struct {
	Title     string
	Refresh   int
	V         View
	Open      int
	Positions []string
	Sheets    []SheetView
	Seating   movement.Seating
	Movement  string
	Changes   any
}

// Handler serves the director's pages and their JSON:
//
//	/                      live standings          /api/view       everything below, as JSON
//	/tables                every table at a glance
//	/sheets[?round=&table=] score sheets, one printed page per table per round
//	/seating[?round=N]     a round's seat assignments (default: the next round)
//	/calls                 calls for the director, and the form for a ruling (POST /rule)
//	/changes               the record, change by change
//
// director checks the director's password for a ruling.
func (d *Desk) Handler(director func(pass string) bool) http.Handler {
	mux := http.NewServeMux()
	render := func(w http.ResponseWriter, name string, p page) {
		p.V = d.View()
		for _, c := range p.V.Calls {
			if c.Ruling == nil {
				p.Open++
			}
		}
		p.Positions = positionNames[d.ev.Seats]
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if err := pages.ExecuteTemplate(w, name, p); err != nil {
			d.log.Warn("desk: page", "page", name, "err", err)
		}
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		render(w, "standings", page{Title: "Standings", Refresh: 5})
	})
	mux.HandleFunc("GET /tables", func(w http.ResponseWriter, r *http.Request) {
		render(w, "tables", page{Title: "Every table", Refresh: 5})
	})
	mux.HandleFunc("GET /sheets", func(w http.ResponseWriter, r *http.Request) {
		round, _ := strconv.Atoi(r.URL.Query().Get("round"))
		tbl, _ := strconv.Atoi(r.URL.Query().Get("table"))
		v := d.View()
		var sheets []SheetView
		for _, tv := range v.Tables {
			for _, s := range tv.Sheets {
				if (round == 0 || s.Round == round) && (tbl == 0 || s.Table == tbl) {
					sheets = append(sheets, s)
				}
			}
		}
		title := "Score sheets"
		if round > 0 {
			title += fmt.Sprintf(", round %d", round)
		}
		render(w, "sheets", page{Title: title, Sheets: sheets})
	})
	mux.HandleFunc("GET /seating", func(w http.ResponseWriter, r *http.Request) {
		round, _ := strconv.Atoi(r.URL.Query().Get("round"))
		if round < 1 || round > d.ev.Rounds {
			round = d.nextRound()
		}
		render(w, "seating", page{Title: fmt.Sprintf("Round %d: who sits where", round), Seating: d.ev.Seating(round), Movement: d.ev.Movement.Name})
	})
	mux.HandleFunc("GET /calls", func(w http.ResponseWriter, r *http.Request) {
		render(w, "calls", page{Title: "Calls for the director", Refresh: 10})
	})
	mux.HandleFunc("GET /changes", func(w http.ResponseWriter, r *http.Request) {
		all, err := d.Changes(0)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		render(w, "changes", page{Title: "The record", Changes: all})
	})
	mux.HandleFunc("GET /api/view", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(d.View())
	})
	mux.HandleFunc("POST /rule", func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if director == nil || !director(r.PostForm.Get("password")) {
			http.Error(w, "not the director's password", http.StatusForbidden)
			return
		}
		table, round, ruling, err := rulingOf(r.PostForm)
		if err == nil {
			_, err = d.Rule(table, round, ruling)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		http.Redirect(w, r, "/calls", http.StatusSeeOther)
	})
	return mux
}

// nextRound is the round after the earliest one any table is still in.
func (d *Desk) nextRound() int {
	v := d.View()
	low := d.ev.Rounds
	for _, t := range v.Tables {
		low = min(low, t.Round)
	}
	return min(low+1, d.ev.Rounds)
}

// rulingOf reads the ruling form.
func rulingOf(f map[string][]string) (table, round int, r wire.Ruling, err error) {
	get := func(k string) string {
		if v := f[k]; len(v) > 0 {
			return strings.TrimSpace(v[0])
		}
		return ""
	}
	num := func(k string) int {
		if err != nil || get(k) == "" {
			return 0
		}
		var n int
		n, err = strconv.Atoi(get(k))
		if err != nil {
			err = fmt.Errorf("%s: %q is not a number", k, get(k))
		}
		return n
	}
	table, round = num("table"), num("round")
	r = wire.Ruling{Call: get("call"), Director: get("director"), Text: get("text")}
	if get("points") != "" {
		r.Penalty = &wire.Penalty{Seat: num("seat"), Points: num("points"), Game: num("game")}
	}
	if get("result") != "" {
		c := &wire.Correction{Result: get("result")}
		for _, s := range strings.Fields(get("scores")) {
			n, perr := strconv.Atoi(s)
			if perr != nil {
				return 0, 0, r, fmt.Errorf("scores: %q is not a number", s)
			}
			c.Scores = append(c.Scores, n)
		}
		r.Correction = c
	}
	return table, round, r, err
}
