// Package display is the web display, embedded in the binary: the table's page for a tablet
// or TV (index.html), and the seat view for a phone (seat.html). Both subscribe over MQTT
// over WebSocket with mqtt.js, bundled into static/vendor by `go generate` and committed, so
// nothing is fetched at run time.
package display

//go:generate ./vendor-mqttjs.sh

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

//go:embed static
var files embed.FS

// Files are the display's files, rooted at static/.
func Files() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // static/ is embedded above
	}
	return sub
}

// Handler serves the display's files: a file by its path, the table's page at /. Anything else
// (a folder, a path that names no file, a path no file system could hold) is not found: the
// folders are not listed.
func Handler() http.Handler {
	files := Files()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		if st, err := fs.Stat(files, name); err != nil || st.IsDir() {
			http.NotFound(w, r) // fs.Stat refuses a path that is not fs.ValidPath
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, files, name)
	})
}
