package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAFileWithNoGameIsAnError: an empty file, or one holding only a torn first line, is not
// a game log: replaying it is an error, not an empty game.
func TestAFileWithNoGameIsAnError(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"empty.jsonl": "", "torn.jsonl": `{"format":1,"rul`} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		g, err := Load(path, Sources{DefaultRules: "siamese"})
		if !errors.Is(err, ErrNoGame) || g != nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v (game %v), want ErrNoGame naming the file", name, err, g)
		}
	}
}

// TestAMissingCardSaysWhatToDo: a game whose card is gone tells the daemon's user where to
// put it (replay's --card is said by replay itself).
func TestAMissingCardSaysWhatToDo(t *testing.T) {
	p := playGame(t, "siamese", "2026-11-23T19-04-11Z", 3, 20)
	d, path := writeGame(t, p, 20)
	// The log names a card that is neither kept beside it nor built in.
	other := strings.Repeat("5", 64)
	log := strings.ReplaceAll(string(readFile(t, path)), p.header.Card.SHA256, other)
	if err := os.WriteFile(path, []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := d.Resume(path, Sources{})
	var missing *CardMissingError
	if !errors.As(err, &missing) {
		t.Fatalf("resume without the card: %v, want a CardMissingError", err)
	}
	for _, want := range []string{CardsDir + "/" + other + ".yaml", "card:", GamesDir + "/" + SetAsideDir} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v: does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "--card") || strings.Contains(err.Error(), "journal: journal:") {
		t.Errorf("%v: names a flag run does not have, or says journal twice", err)
	}
}

// TestLogsAreTheDaemonsAlone: a game log holds every seat's concealed tiles: 0600.
func TestLogsAreTheDaemonsAlone(t *testing.T) {
	_, path := writeGame(t, playGame(t, "siamese", "2026-11-23T19-04-11Z", 3, 5), 5)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != LogMode {
		t.Errorf("a game log is %v, want %v", st.Mode().Perm(), os.FileMode(LogMode))
	}
}
