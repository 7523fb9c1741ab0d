package setup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeTable is the daemon's side, as the set-up page sees it.
type fakeTable struct {
	mu      sync.Mutex
	playing Playing
	applied []*Plan
	misfit  error
}

func (f *fakeTable) Playing() (Playing, InUse) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.playing, InUse{Builtin: true}
}
func (f *fakeTable) Fits(Plan) error { return f.misfit }
func (f *fakeTable) Apply(p *Plan) (Applied, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.applied = append(f.applied, p)
	return Applied{Names: NextGame, Rules: NextGame}, nil
}

// fakeKeys hands out seat passwords and counts take-backs.
type fakeKeys struct {
	mu        sync.Mutex
	passwords []string
	takeBacks int
}

func (k *fakeKeys) Login(seat int) (Login, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return Login{Table: "t1", Seat: seat, User: fmt.Sprint(seat), Password: k.passwords[seat]}, nil
}
func (k *fakeKeys) TakeBack(seat int) (TakenBack, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.takeBacks++
	k.passwords[seat] += "-new"
	return TakenBack{Dropped: 1}, nil
}

type harness struct {
	t     *testing.T
	srv   *httptest.Server
	clk   *fakeNow
	owner Owner
	table *fakeTable
	keys  *fakeKeys
	dir   string
	log   *bytes.Buffer
	logMu *sync.Mutex
}

type lockedBuf struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (l lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func newHarness(t *testing.T, more ...func(*Options)) *harness {
	t.Helper()
	h := &harness{t: t, clk: newNow(), dir: t.TempDir(), log: &bytes.Buffer{}, logMu: &sync.Mutex{},
		table: &fakeTable{playing: Playing{Rules: "siamese", Card: "Siamese Table Example Card", Names: []string{"East", "West"}}},
		keys:  &fakeKeys{passwords: []string{"seat0-secret-pw", "seat1-secret-pw"}}}
	var err error
	if h.owner, _, err = LoadOrCreateOwner(h.dir); err != nil {
		t.Fatal(err)
	}
	o := Options{DataDir: h.dir, Owner: h.owner, Now: h.clk.now, Table: h.table, Keys: h.keys, Broker: "embedded",
		Config: Settings{Rules: "siamese"}, ConfigFile: "sim.yaml", Seats: 2,
		Log: slog.New(slog.NewTextHandler(lockedBuf{h.logMu, h.log}, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	for _, f := range more {
		f(&o)
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	s.Routes(mux)
	h.srv = httptest.NewServer(mux)
	t.Cleanup(h.srv.Close)
	return h
}

// call sends a request as a page of the same origin would (JSON, no cross-site header).
func (h *harness) call(method, path, cookie string, body any) (*http.Response, map[string]any) {
	h.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, h.srv.URL+path, rd)
	req.Header.Set("Content-Type", "application/json")
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: cookieName, Value: cookie})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	json.Unmarshal(raw, &out)
	if out == nil {
		out = map[string]any{"raw": string(raw)}
	}
	return resp, out
}

func (h *harness) login() string {
	h.t.Helper()
	resp, out := h.call("POST", "/api/setup/login", "", map[string]string{"password": h.owner.Password()})
	if resp.StatusCode != 200 {
		h.t.Fatalf("login: %d %v", resp.StatusCode, out)
	}
	for _, c := range resp.Cookies() {
		if c.Name == cookieName {
			return c.Value
		}
	}
	h.t.Fatal("no session cookie")
	return ""
}

func (h *harness) logged() string {
	h.logMu.Lock()
	defer h.logMu.Unlock()
	return h.log.String()
}

// TestEveryOwnerCallNeedsTheSession: without the owner's session (none, made up, expired,
// logged out) every set-up call is refused with 401 and changes nothing.
func TestEveryOwnerCallNeedsTheSession(t *testing.T) {
	h := newHarness(t)
	calls := [][2]string{{"GET", "/api/setup/status"}, {"POST", "/api/setup/table"}, {"DELETE", "/api/setup/table"},
		{"GET", "/api/setup/seats"}, {"GET", "/api/setup/seats/0/qr.svg"}, {"POST", "/api/setup/seats/0/renew"}}
	good := h.login()
	h.call("POST", "/api/setup/logout", good, struct{}{})
	h2 := h.login()
	h.clk.advance(SessionTTL)
	for _, cookie := range []string{"", "made-up", good, h2} {
		for _, c := range calls {
			resp, out := h.call(c[0], c[1], cookie, map[string]any{})
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s with cookie %.8q: %d %v", c[0], c[1], cookie, resp.StatusCode, out)
			}
		}
	}
	if h.keys.takeBacks != 0 || len(h.table.applied) != 0 {
		t.Error("a refused call changed something")
	}
	live := h.login()
	for _, c := range calls[:1] {
		if resp, out := h.call(c[0], c[1], live, nil); resp.StatusCode != 200 {
			t.Errorf("%s %s with the session: %d %v", c[0], c[1], resp.StatusCode, out)
		}
	}
}

// TestLogin: the cookie is HttpOnly, SameSite=Strict and expires; wrong passwords are held
// back after five, by client, until the injected clock moves on; nothing logs the password.
func TestLogin(t *testing.T) {
	h := newHarness(t)
	resp, _ := h.call("POST", "/api/setup/login", "", map[string]string{"password": h.owner.Password()})
	var c *http.Cookie
	for _, k := range resp.Cookies() {
		if k.Name == cookieName {
			c = k
		}
	}
	if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || !c.Expires.Equal(h.clk.t.Add(SessionTTL).Truncate(time.Second)) {
		t.Fatalf("session cookie: %+v", c)
	}
	for i := range 5 {
		if resp, out := h.call("POST", "/api/setup/login", "", map[string]string{"password": "wrong-" + fmt.Sprint(i)}); resp.StatusCode != 401 {
			t.Fatalf("wrong password %d: %d %v", i, resp.StatusCode, out)
		}
	}
	resp, out := h.call("POST", "/api/setup/login", "", map[string]string{"password": h.owner.Password()})
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "30" || !strings.Contains(fmt.Sprint(out["error"]), "wait 30 s") {
		t.Fatalf("the sixth try at once: %d %v (Retry-After %q)", resp.StatusCode, out, resp.Header.Get("Retry-After"))
	}
	h.clk.advance(30 * time.Second)
	if resp, out := h.call("POST", "/api/setup/login", "", map[string]string{"password": h.owner.Password()}); resp.StatusCode != 200 {
		t.Fatalf("after 30 s: %d %v", resp.StatusCode, out)
	}
	if strings.Contains(h.logged(), h.owner.Password()) || !strings.Contains(h.logged(), "login refused") {
		t.Errorf("log: %s", h.logged())
	}
}

// TestChangesNeedJSONFromThisOrigin: a request that changes something from another site, or
// not as JSON (a plain form), is refused before it is looked at.
func TestChangesNeedJSONFromThisOrigin(t *testing.T) {
	h := newHarness(t)
	cookie := h.login()
	for _, path := range []string{"/api/setup/login", "/api/setup/table", "/api/setup/seats/0/renew", "/api/join", "/api/setup/logout"} {
		req, _ := http.NewRequest("POST", h.srv.URL+path, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.AddCookie(&http.Cookie{Name: cookieName, Value: cookie})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site POST %s: %d", path, resp.StatusCode)
		}
		req, _ = http.NewRequest("POST", h.srv.URL+path, strings.NewReader(`password=x`))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", h.srv.URL)
		req.AddCookie(&http.Cookie{Name: cookieName, Value: cookie})
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("form POST %s: %d", path, resp.StatusCode)
		}
	}
	if h.keys.takeBacks != 0 || len(h.table.applied) != 0 {
		t.Error("a refused request changed something")
	}
}

// TestSaveTable: a card with a mistake is refused with its line and column and nothing is
// saved; a good form is saved and handed to the table; forgetting hands it the configuration.
func TestSaveTable(t *testing.T) {
	h := newHarness(t)
	cookie := h.login()
	bad, line, _ := badCard(t)
	resp, out := h.call("POST", "/api/setup/table", cookie, Form{Rules: "siamese", Names: []string{"Ann", "Bea"}, Card: CardForm{Text: bad, File: "club.yaml"}})
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("a bad card: %d %v", resp.StatusCode, out)
	}
	probs, _ := out["problems"].([]any)
	if len(probs) == 0 || probs[0].(map[string]any)["line"] != float64(line) || !strings.Contains(fmt.Sprint(out["error"]), "nothing was saved") {
		t.Fatalf("a bad card's answer: %v", out)
	}
	if _, err := os.Stat(SettingsFile(h.dir)); !os.IsNotExist(err) || len(h.table.applied) != 0 {
		t.Fatalf("a bad card saved something: %v, applied %d", err, len(h.table.applied))
	}
	h.table.misfit = &FormError{Problems: []Problem{{Field: "names", Msg: "the racks seat 2"}}}
	if resp, out := h.call("POST", "/api/setup/table", cookie, Form{Rules: "royale-4", Names: []string{"A", "B", "C", "D"}, Card: CardForm{Builtin: true}}); resp.StatusCode != 422 || !strings.Contains(fmt.Sprint(out["error"]), "racks") {
		t.Fatalf("settings the racks cannot seat: %d %v", resp.StatusCode, out)
	}
	h.table.misfit = nil
	resp, out = h.call("POST", "/api/setup/table", cookie, Form{Rules: "siamese", Options: []string{"nmjl-tournament"}, Names: []string{"Ann", "Bea"}, Card: CardForm{Text: exampleCard(t)}})
	if resp.StatusCode != 200 || len(h.table.applied) != 1 {
		t.Fatalf("a good form: %d %v", resp.StatusCode, out)
	}
	saved, err := LoadSettings(h.dir)
	if err != nil || saved == nil || saved.Rules != "siamese+nmjl-tournament" || saved.Names[1] != "Bea" || saved.Card == "" {
		t.Fatalf("saved: %+v, %v", saved, err)
	}
	_, st := h.call("GET", "/api/setup/status", cookie, nil)
	if st["ready"] != true || st["saved"] == nil || st["config_file"] != "sim.yaml" {
		t.Errorf("status after saving: %v", st)
	}
	if resp, out := h.call("DELETE", "/api/setup/table", cookie, nil); resp.StatusCode != 200 || len(h.table.applied) != 2 || h.table.applied[1] != nil {
		t.Fatalf("forget: %d %v", resp.StatusCode, out)
	}
	_, st = h.call("GET", "/api/setup/status", cookie, nil)
	if st["ready"] != false || st["saved"] != nil {
		t.Errorf("status after forgetting: %v", st)
	}
	if resp, _ := h.call("POST", "/api/setup/table", cookie, map[string]any{"rules": "siamese", "colour": "red"}); resp.StatusCode != 400 {
		t.Errorf("an unknown field: %d", resp.StatusCode)
	}
}

// TestJoinBySeatCode: the owner's seat list has each free seat's code and join URL and its QR
// code; a phone exchanges the code for the seat's login once; the code then says it was used,
// and a renewal takes the seat back and retires it. No code or password is logged.
func TestJoinBySeatCode(t *testing.T) {
	h := newHarness(t)
	cookie := h.login()
	var list seatsOut
	seatList := func() {
		resp, out := h.call("GET", "/api/setup/seats", cookie, nil)
		b, _ := json.Marshal(out)
		list = seatsOut{}
		json.Unmarshal(b, &list)
		if resp.StatusCode != 200 || len(list.Seats) != 2 {
			t.Fatalf("seats: %d %v", resp.StatusCode, out)
		}
	}
	seatList()
	code := list.Seats[1].Code
	if list.Seats[1].Name != "West" || list.Seats[1].URL != h.srv.URL+"/join.html#"+code {
		t.Fatalf("seat 1: %+v", list.Seats[1])
	}
	resp, _ := h.call("GET", "/api/setup/seats/1/qr.svg", cookie, nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("qr: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, out := h.call("POST", "/api/join", "", map[string]string{"code": strings.ToLower(code)})
	if resp.StatusCode != 200 || out["password"] != "seat1-secret-pw" || out["seat"] != float64(1) || out["user"] != "1" {
		t.Fatalf("join: %d %v", resp.StatusCode, out)
	}
	resp, out = h.call("POST", "/api/join", "", map[string]string{"code": code})
	if resp.StatusCode != 404 || !strings.Contains(fmt.Sprint(out["error"]), "used already") {
		t.Fatalf("the code again: %d %v", resp.StatusCode, out)
	}
	seatList()
	if !list.Seats[1].Taken || list.Seats[1].Code != "" || list.Seats[1].URL != "" {
		t.Fatalf("seat 1 after joining: %+v", list.Seats[1])
	}
	if resp, _ := h.call("GET", "/api/setup/seats/1/qr.svg", cookie, nil); resp.StatusCode != http.StatusConflict {
		t.Errorf("a taken seat's QR code: %d", resp.StatusCode)
	}
	resp, out = h.call("POST", "/api/setup/seats/1/renew", cookie, nil)
	if resp.StatusCode != 200 || out["taken_back"] != true || h.keys.takeBacks != 1 {
		t.Fatalf("take seat 1 back: %d %v", resp.StatusCode, out)
	}
	seatList()
	fresh := list.Seats[1].Code
	if list.Seats[1].Taken || fresh == "" || fresh == code {
		t.Fatalf("seat 1 after the take-back: %+v", list.Seats[1])
	}
	old0 := list.Seats[0].Code
	h.call("POST", "/api/setup/seats/0/renew", cookie, nil)
	if _, out := h.call("POST", "/api/join", "", map[string]string{"code": old0}); !strings.Contains(fmt.Sprint(out["error"]), "replaced") {
		t.Errorf("seat 0's code after renewal: %v", out)
	}
	if _, out := h.call("POST", "/api/join", "", map[string]string{"code": fresh}); out["password"] != "seat1-secret-pw-new" {
		t.Errorf("the new code: %v", out)
	}
	if resp, _ := h.call("POST", "/api/setup/seats/7/renew", cookie, nil); resp.StatusCode != 404 {
		t.Errorf("seat 7: %d", resp.StatusCode)
	}
	log := h.logged()
	for _, secret := range []string{code, NormalCode(code), fresh, NormalCode(fresh), old0, "seat1-secret-pw"} {
		if strings.Contains(log, secret) {
			t.Errorf("the log holds %q:\n%s", secret, log)
		}
	}
	if !strings.Contains(log, "joined a seat") || !strings.Contains(log, "taken back") {
		t.Errorf("the log does not tell the joins and take-backs:\n%s", log)
	}
}

// TestJoinsHeldBack: a client that keeps guessing is held back after five tries, and everyone
// together after thirty a second; the clock moving on lets them try again.
func TestJoinsHeldBack(t *testing.T) {
	h := newHarness(t)
	for i := range 5 {
		if resp, _ := h.call("POST", "/api/join", "", map[string]string{"code": "AAA-AA" + fmt.Sprint(i+2)}); resp.StatusCode != 404 {
			t.Fatalf("guess %d: %d", i, resp.StatusCode)
		}
	}
	resp, out := h.call("POST", "/api/join", "", map[string]string{"code": "AAA-AAA"})
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "10" {
		t.Fatalf("sixth guess: %d %v", resp.StatusCode, out)
	}
	h.clk.advance(10 * time.Second)
	if resp, _ := h.call("POST", "/api/join", "", map[string]string{"code": "AAA-AAA"}); resp.StatusCode != 404 {
		t.Fatalf("after 10 s: %d", resp.StatusCode)
	}
	// Everyone together: many addresses share the global limiter.
	s := &Server{joins: NewLimiter(5, 10*time.Second, 4096), joinsAll: NewLimiter(30, time.Second, 1)}
	refused := 0
	for i := range 40 {
		if ok, _ := s.joins.Allow(fmt.Sprintf("10.0.0.%d", i), h.clk.t); ok {
			if ok, _ := s.joinsAll.Allow("", h.clk.t); !ok {
				refused++
			}
		}
	}
	if refused != 10 {
		t.Errorf("40 addresses at once: %d refused by the global limit, want 10", refused)
	}
}

func TestJoinBase(t *testing.T) {
	req := func(host string) *http.Request {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = host
		return r
	}
	for _, c := range []struct{ host, lan, want, note string }{
		{"table.local:8080", "10.0.0.5", "http://table.local:8080", ""},
		{"192.168.1.9:8080", "", "http://192.168.1.9:8080", ""},
		{"127.0.0.1:8080", "10.0.0.5", "http://10.0.0.5:8080", ""},
		{"localhost:8080", "10.0.0.5", "http://10.0.0.5:8080", ""},
		{"[::1]:8080", "", "http://[::1]:8080", "cannot reach"},
	} {
		base, note := joinBase(req(c.host), c.lan)
		if base != c.want || (c.note == "") != (note == "") || !strings.Contains(note, c.note) {
			t.Errorf("joinBase(%s, %q) = %q, %q", c.host, c.lan, base, note)
		}
	}
	if LANHost("127.0.0.1:8080") != "" || LANHost("10.1.2.3:80") != "10.1.2.3" || LANHost("pi.local:80") != "pi.local" {
		t.Error("LANHost")
	}
}
