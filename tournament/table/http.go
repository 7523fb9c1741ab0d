package table

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
)

// Auth tells whether pass is seat's password (the table's MQTT credentials for the daemon).
type Auth func(seat int, pass string) bool

// HTTP serves the score sheet to the seat view (display/static/sheet.html):
//
//	GET  /api/sheet[?round=N]  the sheet (the current round's unless N)
//	POST /api/sheet/sign       {"seat","password","result"}: a Mah Jongg signs its game
//	POST /api/sheet/initial    {"seat","password","round","for"}: initials on a total (West for East)
//	POST /api/sheet/call       {"seat":0,"password","note"}: East calls for the director
//
// state, when set, gives the table's public state for a call.
func (t *Table) HTTP(auth Auth, state func() json.RawMessage) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/sheet", func(w http.ResponseWriter, r *http.Request) {
		round, _ := strconv.Atoi(r.URL.Query().Get("round"))
		reply(w, http.StatusOK, t.Sheet(round))
	})
	mux.HandleFunc("POST /api/sheet/{what}", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Seat     int    `json:"seat"`
			Password string `json:"password"`
			Result   string `json:"result"`
			Round    int    `json:"round"`
			For      int    `json:"for"`
			Note     string `json:"note"`
		}
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<10))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			reply(w, http.StatusBadRequest, map[string]string{"error": "bad request: " + err.Error()})
			return
		}
		if req.Seat < 0 || req.Seat >= t.Event.Seats || !auth(req.Seat, req.Password) {
			reply(w, http.StatusForbidden, map[string]string{"error": fmt.Sprintf("not seat %d's password", req.Seat)})
			return
		}
		var err error
		switch r.PathValue("what") {
		case "sign":
			err = t.Sign(req.Seat, req.Result)
		case "initial":
			err = t.Initial(req.Round, req.For, req.Seat)
		case "call":
			if req.Seat != 0 {
				err = fmt.Errorf("%w: East calls for the director", ErrNotYours)
				break
			}
			var st json.RawMessage
			if state != nil {
				st = state()
			}
			_, err = t.Call(req.Note, st)
		default:
			http.NotFound(w, r)
			return
		}
		switch {
		case errors.Is(err, ErrNotYours):
			reply(w, http.StatusForbidden, map[string]string{"error": err.Error()})
		case err != nil:
			reply(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		default:
			reply(w, http.StatusOK, t.Sheet(req.Round))
		}
	})
	return mux
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
