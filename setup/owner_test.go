package setup

import (
	"os"
	"strings"
	"testing"
)

// TestOwnerPassword: made once, kept private, read back the same; typed with any case or
// dashes it is accepted, anything else refused.
func TestOwnerPassword(t *testing.T) {
	dir := t.TempDir()
	o, created, err := LoadOrCreateOwner(dir)
	if err != nil || !created {
		t.Fatalf("first start: created %v, %v", created, err)
	}
	if len(normalPassword(o.Password())) != 12 {
		t.Errorf("password %q: want 12 letters and digits", o.Password())
	}
	st, err := os.Stat(OwnerFile(dir))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("owner file mode %v: %v", st.Mode(), err)
	}
	if st, err := os.Stat(Dir(dir)); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("set-up folder mode %v: %v", st.Mode(), err)
	}
	again, created, err := LoadOrCreateOwner(dir)
	if err != nil || created || again.Password() != o.Password() {
		t.Fatalf("second start: created %v, %q vs %q, %v", created, again.Password(), o.Password(), err)
	}
	for _, typed := range []string{o.Password(), strings.ToUpper(o.Password()), strings.ReplaceAll(o.Password(), "-", " ")} {
		if !o.Check(typed) {
			t.Errorf("%q refused", typed)
		}
	}
	for _, typed := range []string{"", o.Password()[:13], o.Password() + "x", "aaaa-aaaa-aaaa"} {
		if o.Check(typed) {
			t.Errorf("%q accepted", typed)
		}
	}
	if other, _, _ := LoadOrCreateOwner(t.TempDir()); other.Password() == o.Password() {
		t.Error("two tables made the same password")
	}
}

func TestOwnerFileDamaged(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := LoadOrCreateOwner(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(OwnerFile(dir), []byte("short\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateOwner(dir); err == nil || !strings.Contains(err.Error(), OwnerFile(dir)) {
		t.Errorf("a damaged owner file: %v", err)
	}
}
