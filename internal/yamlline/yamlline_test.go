package yamlline

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestCheckFindsTheRealLine(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		line      int
	}{
		{"one space too many under an item", "kind: sim\nracks:\n  - name: a\n   cells: []\n", 4},
		{"back out to no block", "kind: sim\nracks:\n  - name: a\n    cells:\n   - zone: in\n", 5},
		{"deeper than a plain value", "kind: sim\n  settle: 1s\nracks: []\n", 2},
		{"nested item key", "kind: sim\nracks:\n- name: a\n  readers:\n    - zone: in\n     mux: 0x70\n", 6},
		{"tab", "kind: sim\nracks:\n\t- name: a\n", 3},
		{"good file", "# c\nkind: sim   # sim\nracks:\n  - name: a   # x\n    cells:\n      - {zone: in}\n  - name: b\nnote: |\n    any\n      text\nend: 1\n", 0},
		{"items at the key's depth", "racks:\n- name: a\n  cells: []\n- name: b\n", 0},
		{"item of items", "x:\n  - - 1\n    - 2\n  - - 3\n", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := Check([]byte(c.doc))
			got := 0
			if e != nil {
				got = e.Line
			}
			if got != c.line {
				t.Fatalf("line %d (%v), want %d", got, e, c.line)
			}
			// A mistake found is one the YAML parser rejects too; a good file parses.
			var v any
			if perr := yaml.Unmarshal([]byte(c.doc), &v); (perr != nil) != (c.line != 0) {
				t.Fatalf("yaml says %v", perr)
			}
		})
	}
}

func TestExplainKeepsTheParserError(t *testing.T) {
	doc := []byte("a:\n  b: 1\n   c: 2\n")
	var v any
	perr := yaml.Unmarshal(doc, &v)
	err := Explain(doc, perr)
	var e *Error
	if !errors.As(err, &e) || e.Line != 3 || !errors.Is(err, perr) {
		t.Fatalf("Explain = %v, want line 3 wrapping %v", err, perr)
	}
	if Explain(doc, nil) != nil {
		t.Fatal("no error became one")
	}
}

// TestShippedConfigsPass: every YAML file the project ships is clean, so the checker raises no
// false alarm on the styles the project uses.
func TestShippedConfigsPass(t *testing.T) {
	files, _ := filepath.Glob("../../configs/*/*.yaml")
	more, _ := filepath.Glob("../../configs/*.yaml")
	files = append(files, more...)
	if len(files) < 5 {
		t.Fatalf("found only %d config files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if e := Check(data); e != nil {
			t.Errorf("%s: %v", f, e)
		}
	}
}

// FuzzCheck: never a panic on any bytes.
func FuzzCheck(f *testing.F) {
	f.Add([]byte("kind: sim\nracks:\n  - name: a\n   cells: []\n"))
	f.Add([]byte("a:\n  - - 1\n    - 2\nb: |\n  x\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		if e := Check(doc); e != nil && (e.Line < 1 || e.Line > bytes.Count(doc, []byte("\n"))+1) {
			t.Fatalf("blamed line %d of a %d-line document", e.Line, bytes.Count(doc, []byte("\n"))+1)
		}
	})
}

// FuzzCheckBlamesOnlyBrokenConfigs builds documents the way config files are written (keys with
// and without values, items, nesting at any indentation) and checks that whatever line the
// checker blames, the YAML parser rejects the document too.
func FuzzCheckBlamesOnlyBrokenConfigs(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 2, 3, 0})
	f.Add([]byte{0, 1, 2, 0, 3, 2, 4, 1})
	forms := []string{"k%d: v", "k%d:", "- k%d: v", "- v%d", "-", "# note %d", "- k%d:"}
	f.Fuzz(func(t *testing.T, ops []byte) {
		var b bytes.Buffer
		for i := 0; i+1 < len(ops) && i < 40; i += 2 {
			b.WriteString(strings.Repeat(" ", int(ops[i]%9)))
			form := forms[int(ops[i+1])%len(forms)]
			if strings.Contains(form, "%d") {
				form = fmt.Sprintf(form, i)
			}
			b.WriteString(form)
			b.WriteByte('\n')
		}
		e := Check(b.Bytes())
		if e == nil {
			return
		}
		var v any
		if yaml.Unmarshal(b.Bytes(), &v) == nil {
			t.Fatalf("blamed line %d (%s) of a document YAML accepts:\n%s", e.Line, e.Msg, b.Bytes())
		}
	})
}

// TestPlainNamesNoGoType: a field that does not exist or a value of the wrong kind is said in
// a configuration file's words, with its line; no Go type name reaches the user.
func TestPlainNamesNoGoType(t *testing.T) {
	type inner struct {
		Games int `yaml:"games"`
	}
	type config struct {
		Table string   `yaml:"table"`
		Seats []string `yaml:"seats"`
		Sim   inner    `yaml:"sim"`
		Speed float64  `yaml:"speed"`
		Fast  bool     `yaml:"fast"`
	}
	data := []byte("tabel: x\nseats: 3\nsim:\n  games: many\nspeed: [1]\nfast: maybe\n")
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var c config
	err := Explain(data, dec.Decode(&c))
	want := "line 1: unknown field \"tabel\"\nline 2: \"3\" where a list belongs\nline 4: \"many\" where a whole number belongs\nline 5: a list where a number belongs\nline 6: \"maybe\" where true or false belongs"
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		t.Error("the parser's own error is lost")
	}
}
