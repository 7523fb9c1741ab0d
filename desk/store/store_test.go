package store

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path, "Club night")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func change(kind, ref string) Change {
	return Change{Who: "table 1", Why: "finished game", Kind: kind, Ref: ref, Table: 1, Round: 1, Body: []byte(`{"a":1}`)}
}

// TestOnceAndInOrder: a change sent again is not added again; changes read back in order.
func TestOnceAndInOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "desk.db")
	s := open(t, path)
	for i, c := range []struct {
		kind, ref string
		added     bool
	}{{"result", "r-1", true}, {"result", "r-1", false}, {"sign", "r-1", true}, {"result", "r-2", true}} {
		added, _, err := s.Append(change(c.kind, c.ref))
		if err != nil || added != c.added {
			t.Errorf("append %d (%s %s): added %v, %v; want %v", i, c.kind, c.ref, added, err, c.added)
		}
	}
	s.Close()
	s = open(t, path)
	all, err := s.Since(0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range all {
		got = append(got, c.Kind+" "+c.Ref)
	}
	if strings.Join(got, ",") != "result r-1,sign r-1,result r-2" {
		t.Errorf("read back %v", got)
	}
	if later, _ := s.Since(all[1].N); len(later) != 1 || later[0].Ref != "r-2" {
		t.Errorf("since the second: %v", later)
	}
}

// TestAppendOnly: the database itself refuses to change or delete a row.
func TestAppendOnly(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "desk.db"))
	if _, _, err := s.Append(change("result", "r-1")); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`UPDATE changes SET who = 'me'`, `DELETE FROM changes`, `UPDATE meta SET value = 'x'`} {
		if _, err := s.db.Exec(q); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v, want it refused", q, err)
		}
	}
	bad := change("score", "x")
	if _, _, err := s.Append(bad); err == nil {
		t.Error("an unknown kind was recorded")
	}
	bad = change("result", "r-9")
	bad.Body = []byte("{")
	if _, _, err := s.Append(bad); err == nil {
		t.Error("a body that is not JSON was recorded")
	}
}

func TestRefusesForeignDamagedAndOtherEvent(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.db")
	os.WriteFile(text, []byte("scores: Ann 40, Bea 30\n"), 0o644)
	if _, err := Open(text, "e"); !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "not an SQLite file") {
		t.Errorf("a text file: %v", err)
	}
	other := filepath.Join(dir, "other.db")
	s, err := Open(other, "e")
	if err != nil {
		t.Fatal(err)
	}
	s.db.Exec(`PRAGMA application_id = 7`)
	s.Close()
	if _, err := Open(other, "e"); !errors.Is(err, ErrForeign) || !strings.Contains(err.Error(), "another program") {
		t.Errorf("another program's database: %v", err)
	}
	mine := filepath.Join(dir, "desk.db")
	s = open(t, mine)
	s.Close()
	if _, err := Open(mine, "Spring open"); !errors.Is(err, ErrOtherEvent) || !strings.Contains(err.Error(), `"Club night", not "Spring open"`) {
		t.Errorf("another event: %v", err)
	}
	// Damage: overwrite the pages after the header.
	s = open(t, mine)
	for i := range 50 {
		s.Append(change("result", fmt.Sprintf("r-%d", i)))
	}
	s.Close()
	os.Remove(mine + "-wal")
	os.Remove(mine + "-shm")
	b, _ := os.ReadFile(mine)
	for i := 100; i < len(b); i++ {
		b[i] = 0xA5
	}
	os.WriteFile(mine, b, 0o644)
	_, err = Open(mine, "Club night")
	if err == nil || !(errors.Is(err, ErrDamaged) || errors.Is(err, ErrForeign)) {
		t.Errorf("a damaged database: %v", err)
	}
	after, _ := os.ReadFile(mine)
	if string(after) != string(b) {
		t.Error("the damaged file was changed")
	}
}

// TestKilledMidAppend: a desk killed while recording keeps every change it had recorded.
func TestKilledMidAppend(t *testing.T) {
	if path := os.Getenv("STORE_CHILD"); path != "" {
		s, err := Open(path, "Club night")
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		for i := 0; ; i++ {
			if _, _, err := s.Append(change("result", fmt.Sprintf("r-%d-%d", os.Getpid(), i))); err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
			fmt.Println(i)
		}
	}
	path := filepath.Join(t.TempDir(), "desk.db")
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestKilledMidAppend$")
		cmd.Env = append(os.Environ(), "STORE_CHILD="+path)
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		last := -1
		deadline := time.Now().Add(20 * time.Second)
		for sc.Scan() && last < 30*(round+1) && time.Now().Before(deadline) {
			if n, err := strconv.Atoi(sc.Text()); err == nil {
				last = n
			} else if strings.HasPrefix(sc.Text(), "error") {
				t.Fatal(sc.Text())
			}
		}
		cmd.Process.Kill()
		cmd.Wait()
		s, err := Open(path, "Club night")
		if err != nil {
			t.Fatalf("after a kill: %v", err)
		}
		all, err := s.Since(0)
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		have := map[string]bool{}
		for _, c := range all {
			have[c.Ref] = true
		}
		for i := 0; i <= last; i++ {
			if !have[fmt.Sprintf("r-%d-%d", cmd.Process.Pid, i)] {
				t.Fatalf("kill %d: r-%d was recorded and is lost", round, i)
			}
		}
	}
}
