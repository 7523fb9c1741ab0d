package setup

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"mime"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Options are what a Server is built from.
type Options struct {
	// The Camera section (handlers_camera.go): the camera worker (nil: none runs, as with
	// camera: direct), the configuration's camera, and where its calibration is saved.
	Camera          Camera
	CameraName      string
	CalibrationFile string
	// EnrolmentDir is where the faces enrolled in the Camera section are saved, an absolute
	// path (handlers_faces.go).
	EnrolmentDir string

	DataDir string
	Owner   Owner
	Now     func() time.Time // the injected clock
	Log     *slog.Logger
	Table   Table
	Keys    Keys   // nil: no broker, no seat can join
	Broker  string // "embedded", "mosquitto" or "none": what taking a seat back can do
	// Config is what the configuration file says (ConfigFile), shown beside the saved settings.
	Config     Settings
	ConfigFile string
	Seats      int     // seats at the table
	Checks     []Check // readiness beyond the table's settings (racks, camera: later slices)
	LANHost    string  // this machine's address for phones, when the page is opened on loopback
	Racks      Racks   // nil: no Racks section (handlers_racks.go)
	Cells      Cells   // nil: no load cells to calibrate (handlers_cells.go)
}

// Server serves the set-up page's API and the join endpoint.
type Server struct {
	o        Options
	sessions *Sessions
	logins   *Limiter // failed logins, by client
	joins    *Limiter // join attempts, by client
	joinsAll *Limiter // join attempts, everyone together
	seats    *Seats
	csrf     *http.CrossOriginProtection
	cam      camState   // the Camera section's last frame
	fc       facesState // the Camera section's enrolment under way

	mu    sync.Mutex // one settings change at a time
	saved *Settings

	calMu sync.Mutex
	tares map[string]int32 // zone -> its empty reading, tared and not saved yet
}

// Sessions last a table's evening; failed logins and joins are held back (docs/display.md).
const (
	SessionTTL  = 12 * time.Hour
	maxSessions = 16
)

// New opens the seats' state and the saved settings.
func New(o Options) (*Server, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	seats, err := OpenSeats(SeatsFile(o.DataDir), o.Seats)
	if err != nil {
		return nil, err
	}
	saved, err := LoadSettings(o.DataDir)
	if err != nil {
		return nil, err
	}
	return &Server{o: o, seats: seats, saved: saved, tares: map[string]int32{},
		sessions: NewSessions(o.Now, SessionTTL, maxSessions),
		logins:   NewLimiter(5, 30*time.Second, 4096),
		joins:    NewLimiter(5, 10*time.Second, 4096),
		joinsAll: NewLimiter(30, time.Second, 1),
		csrf:     http.NewCrossOriginProtection(),
	}, nil
}

// Routes adds the set-up API to mux. Everything but logging in and joining needs the owner's
// session; everything that changes something takes a JSON body from a page of the same origin.
func (s *Server) Routes(mux *http.ServeMux) {
	s.cameraRoutes(mux)
	mux.Handle("POST /api/setup/login", s.changes(s.login))
	mux.Handle("POST /api/setup/logout", s.changes(s.logout))
	mux.Handle("GET /api/setup/status", s.owner(s.status))
	mux.Handle("POST /api/setup/table", s.changes(s.owner(s.saveTable)))
	mux.Handle("DELETE /api/setup/table", s.changes(s.owner(s.forgetTable)))
	mux.Handle("GET /api/setup/seats", s.owner(s.listSeats))
	mux.Handle("GET /api/setup/seats/{seat}/qr.svg", s.owner(s.seatQR))
	mux.Handle("POST /api/setup/seats/{seat}/renew", s.changes(s.owner(s.renewSeat)))
	mux.Handle("POST /api/join", s.changes(s.join))
	s.racksRoutes(mux)
	s.cellRoutes(mux)
}

// cookieName is the owner's session cookie.
const cookieName = "siamese_owner"

// owner lets a request through with the owner's session only.
func (s *Server) owner(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(cookieName)
		if err != nil || !s.sessions.Valid(c.Value) {
			fail(w, http.StatusUnauthorized, "log in as the table's owner first")
			return
		}
		h(w, r)
	}
}

// changes guards a request that changes something: from a page of the same origin
// (http.CrossOriginProtection: Sec-Fetch-Site, else Origin against Host) and with a JSON body,
// which a form on another site cannot send without the browser asking first.
func (s *Server) changes(h http.HandlerFunc) http.Handler {
	return s.csrf.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			fail(w, http.StatusUnsupportedMediaType, "send JSON (Content-Type: application/json)")
			return
		}
		h(w, r)
	}))
}

type loginBody struct {
	Password string `json:"password"`
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	var b loginBody
	if !readJSON(w, r, &b, 4<<10) {
		return
	}
	key, now := ClientKey(r.RemoteAddr), s.o.Now()
	if wait := s.logins.Wait(key, now); wait > 0 {
		tooMany(w, wait)
		return
	}
	if !s.o.Owner.Check(b.Password) {
		s.logins.Take(key, now)
		s.o.Log.Warn("setup: owner's login refused: wrong password", "remote", r.RemoteAddr)
		fail(w, http.StatusUnauthorized, "wrong password: it is the one siamesed run printed on its first start (also in %s)", OwnerFile(s.o.DataDir))
		return
	}
	token, exp, err := s.sessions.Open()
	if err != nil {
		fail(w, http.StatusInternalServerError, "%v", err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: token, Path: "/", Expires: exp, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	s.o.Log.Info("setup: the owner logged in", "remote", r.RemoteAddr)
	writeJSON(w, http.StatusOK, map[string]any{"expires": exp})
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(cookieName); err == nil {
		s.sessions.Close(c.Value)
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	writeJSON(w, http.StatusOK, map[string]any{})
}

// readJSON decodes a request's body strictly (no unknown field, at most limit bytes).
func readJSON(w http.ResponseWriter, r *http.Request, v any, limit int64) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, limit))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			fail(w, http.StatusRequestEntityTooLarge, "the request is over %d bytes", limit)
		} else {
			fail(w, http.StatusBadRequest, "the request is not the JSON expected: %v", err)
		}
		return false
	}
	return true
}

// errorBody is every error's answer.
type errorBody struct {
	Error    string    `json:"error"`
	Problems []Problem `json:"problems,omitempty"`
}

func fail(w http.ResponseWriter, code int, format string, a ...any) {
	writeJSON(w, code, errorBody{Error: fmt.Sprintf(format, a...)})
}

func tooMany(w http.ResponseWriter, wait time.Duration) {
	secs := int(math.Ceil(wait.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	fail(w, http.StatusTooManyRequests, "too many tries: wait %d s and try again", secs)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":"encoding the answer failed"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(b)
}
