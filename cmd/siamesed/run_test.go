package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestFirstStartMessage: the first start tells the owner where the set-up page is (the
// machine's address where the display port listens on every interface, never 0.0.0.0), the
// password and the file that keeps it.
func TestFirstStartMessage(t *testing.T) {
	for listen, want := range map[string]string{
		"127.0.0.1:8080":    "http://127.0.0.1:8080/setup",
		"192.168.1.20:8080": "http://192.168.1.20:8080/setup",
	} {
		if got := setupURL(listen, listen); got != want {
			t.Errorf("setupURL(%q) = %q, want %q", listen, got, want)
		}
	}
	if got := setupURL("0.0.0.0:8080", "0.0.0.0:8080"); strings.Contains(got, "0.0.0.0") || !strings.HasSuffix(got, ":8080/setup") {
		t.Errorf("setupURL on every interface: %q", got)
	}
	var b bytes.Buffer
	printFirstStart(&b, "http://192.168.1.20:8080/setup", "abcd-efgh-jkmn", "/var/lib/siamesed/setup/owner-password")
	for _, want := range []string{"http://192.168.1.20:8080/setup", "abcd-efgh-jkmn", "/var/lib/siamesed/setup/owner-password"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the first start's message lacks %q:\n%s", want, b.String())
		}
	}
}
