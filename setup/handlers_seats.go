package setup

import (
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strconv"
)

// seatOut is a seat on the set-up page and the table display (the owner's eyes only).
type seatOut struct {
	SeatCode
	Name string `json:"name"`
	URL  string `json:"url,omitempty"` // the join page with the code, as the QR code holds it
}

type seatsOut struct {
	Broker string    `json:"broker"`
	Seats  []seatOut `json:"seats"`
	Base   string    `json:"base"`           // where phones reach the table
	Note   string    `json:"note,omitempty"` // why phones may not reach it
}

func (s *Server) listSeats(w http.ResponseWriter, r *http.Request) {
	base, note := joinBase(r, s.o.LANHost)
	out := seatsOut{Broker: s.o.Broker, Base: base, Note: note}
	playing, _ := s.o.Table.Playing()
	for _, sc := range s.seats.List() {
		so := seatOut{SeatCode: sc}
		if sc.Seat < len(playing.Names) {
			so.Name = playing.Names[sc.Seat]
		}
		if !sc.Taken && s.o.Keys != nil {
			so.URL = base + "/join.html#" + sc.Code
		}
		out.Seats = append(out.Seats, so)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) seat(w http.ResponseWriter, r *http.Request) (int, bool) {
	n, err := strconv.Atoi(r.PathValue("seat"))
	if err != nil || n < 0 || n >= s.o.Seats {
		fail(w, http.StatusNotFound, "no seat %q at this table (seats 0 to %d)", r.PathValue("seat"), s.o.Seats-1)
		return 0, false
	}
	return n, true
}

func (s *Server) seatQR(w http.ResponseWriter, r *http.Request) {
	n, ok := s.seat(w, r)
	if !ok {
		return
	}
	if s.o.Keys == nil {
		fail(w, http.StatusConflict, "this table has no broker: no seat can join")
		return
	}
	sc := s.seats.List()[n]
	if sc.Taken {
		fail(w, http.StatusConflict, "seat %d is taken: it has no code until it is taken back", n)
		return
	}
	base, _ := joinBase(r, s.o.LANHost)
	svg, err := QRSVG(base + "/join.html#" + sc.Code)
	if err != nil {
		fail(w, http.StatusInternalServerError, "%v", err)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(svg)
}

func (s *Server) renewSeat(w http.ResponseWriter, r *http.Request) {
	n, ok := s.seat(w, r)
	if !ok {
		return
	}
	if s.o.Keys == nil {
		fail(w, http.StatusConflict, "this table has no broker: no seat can join")
		return
	}
	var tb *TakenBack
	err := s.seats.Renew(n, func(seat int) error {
		got, err := s.o.Keys.TakeBack(seat)
		tb = &got
		return err
	})
	if err != nil {
		fail(w, http.StatusInternalServerError, "seat %d keeps its code and password: %v", n, err)
		return
	}
	out := map[string]any{"seat": s.seats.List()[n], "taken_back": tb != nil}
	if tb != nil {
		out["dropped"], out["steps"] = tb.Dropped, tb.Steps
		s.o.Log.Info("setup: seat taken back: a new password and code", "seat", n, "phones_dropped", tb.Dropped, "broker", s.o.Broker)
	} else {
		s.o.Log.Info("setup: seat given a new code", "seat", n)
	}
	writeJSON(w, http.StatusOK, out)
}

type joinBody struct {
	Code string `json:"code"`
}

// join exchanges a seat's code for its MQTT login. Attempts are held back by client and for
// everyone together: a code is about 30 bits.
func (s *Server) join(w http.ResponseWriter, r *http.Request) {
	var b joinBody
	if !readJSON(w, r, &b, 1<<10) {
		return
	}
	now, key := s.o.Now(), ClientKey(r.RemoteAddr)
	if ok, wait := s.joins.Allow(key, now); !ok {
		tooMany(w, wait)
		return
	}
	if ok, wait := s.joinsAll.Allow("", now); !ok {
		tooMany(w, wait)
		return
	}
	if s.o.Keys == nil {
		fail(w, http.StatusConflict, "this table has no broker: seats cannot join from a phone")
		return
	}
	var login Login
	seat, err := s.seats.Join(b.Code, func(seat int) error {
		var err error
		login, err = s.o.Keys.Login(seat)
		return err
	})
	switch {
	case errors.Is(err, ErrNoSuchCode), errors.Is(err, ErrCodeUsed), errors.Is(err, ErrCodeRenewed):
		s.o.Log.Info("setup: a join refused", "remote", r.RemoteAddr, "why", err.Error())
		fail(w, http.StatusNotFound, "%v", err)
		return
	case err != nil:
		fail(w, http.StatusInternalServerError, "%v", err)
		return
	}
	s.o.Log.Info("setup: a phone joined a seat by its code", "seat", seat, "remote", r.RemoteAddr)
	writeJSON(w, http.StatusOK, login)
}

// joinBase is where a phone reaches the table: the address the owner's screen used, unless
// that is this machine's loopback, which a phone cannot reach; then the machine's address on
// its network (lan), or a note saying why no phone can reach it.
func joinBase(r *http.Request, lan string) (string, string) {
	scheme := "http://"
	if r.TLS != nil {
		scheme = "https://"
	}
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, port = r.Host, ""
	}
	ip, err := netip.ParseAddr(host)
	if host != "localhost" && (err != nil || !ip.IsLoopback()) {
		return scheme + r.Host, ""
	}
	if lan == "" {
		return scheme + r.Host, "this screen reached the table on its loopback address, and the display port listens there only: phones cannot reach it (set http: 0.0.0.0:8080 in the configuration)"
	}
	if port != "" {
		lan = net.JoinHostPort(lan, port)
	}
	return scheme + lan, ""
}

// LANHost is this machine's address for phones when the display port listens on listen
// ("0.0.0.0:8080", ":8080"): its first IPv4 address that is not loopback; "" when it listens
// on loopback only or has no such address.
func LANHost(listen string) string {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return ""
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if ip.IsLoopback() {
			return ""
		}
		if !ip.IsUnspecified() {
			return ip.String()
		}
	} else if host != "" {
		return host // a name
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil && p.Addr().Is4() && !p.Addr().IsLoopback() {
			return p.Addr().String()
		}
	}
	return ""
}
