package desk

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func get(t *testing.T, srv *httptest.Server, path string) string {
	t.Helper()
	res, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("%s: %s\n%s", path, res.Status, b)
	}
	return string(b)
}

// TestPages: the standings, tables, sheets, seating and calls pages show what the record holds;
// a ruling needs the director's password.
func TestPages(t *testing.T) {
	d, err := Open(pairs(t), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	g := resultMsg(2, 1, 1, []int{50, -10}, 1)
	mustReceive(t, d, g, true)
	srv := httptest.NewServer(d.Handler(func(p string) bool { return p == "secret" }))
	defer srv.Close()
	if page := get(t, srv, "/"); !strings.Contains(page, "<td>Dee</td>") || !strings.Contains(page, `<span class="wait">1</span>`) {
		t.Errorf("standings do not show Dee's unsigned game:\n%s", page)
	}
	if page := get(t, srv, "/tables"); !strings.Contains(page, "Dee signs game 1") {
		t.Errorf("tables do not say table 2 waits for Dee's signature:\n%s", page)
	}
	mustReceive(t, d, signMsg(g, 1), true)
	page := get(t, srv, "/sheets?round=1")
	if strings.Count(page, `class="sheet"`) != 3 || !strings.Contains(page, "West: Dee") || !strings.Contains(page, `<span class="ok">signed</span>`) {
		t.Errorf("round 1's sheets: want three, table 2's game signed by Dee:\n%s", page)
	}
	if page := get(t, srv, "/seating?round=2"); !strings.Contains(page, "<td>Ann</td><td>Flo</td>") {
		t.Errorf("round 2's seating: Ann with Flo at table 1:\n%s", page)
	}
	form := url.Values{"table": {"2"}, "round": {"1"}, "director": {"Jo"}, "text": {"late"}, "seat": {"0"}, "points": {"-10"}, "game": {"1"}, "password": {"wrong"}}
	res, _ := http.PostForm(srv.URL+"/rule", form)
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("a ruling with a wrong password: %s", res.Status)
	}
	form.Set("password", "secret")
	res, _ = http.PostForm(srv.URL+"/rule", form)
	if res.StatusCode != http.StatusOK { // redirected to /calls
		t.Errorf("a ruling: %s", res.Status)
	}
	if page := get(t, srv, "/changes"); !strings.Contains(page, "director Jo") || !strings.Contains(page, "late") {
		t.Errorf("the record lacks the ruling:\n%s", page)
	}
	if s := standing(d.View(), "Cy"); s.Points != 40 {
		t.Errorf("Cy after the game and the penalty: %d, want 40", s.Points)
	}
}
