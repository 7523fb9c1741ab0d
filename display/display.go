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

// Handler serves the display's files.
func Handler() http.Handler {
	fs := http.FileServer(http.FS(Files()))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		fs.ServeHTTP(w, r)
	})
}
