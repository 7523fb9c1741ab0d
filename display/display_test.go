package display

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestHandlerServesFilesOnly: the pages and their files are served; a folder is not listed,
// and a path no file system could hold is not found, not a server error.
func TestHandlerServesFilesOnly(t *testing.T) {
	srv := httptest.NewServer(Handler())
	defer srv.Close()
	for path, want := range map[string]int{
		"/": 200, "/index.html": 301, "/seat.html": 200, "/tiles/1B.svg": 200, "/common.js": 200,
		"/tiles/": 404, "/vendor/": 404, "/tiles": 404, "/nothing.html": 404,
		"/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd": 404, "/../../etc/passwd": 404, "/tiles/%00": 404,
	} {
		c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := c.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", path, resp.StatusCode, want)
		}
	}
}
