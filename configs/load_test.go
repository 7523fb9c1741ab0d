package configs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/internal/userfile"
)

func TestLoadRuleset(t *testing.T) {
	r, err := LoadRuleset("siamese+nmjl-tournament")
	if err != nil || r.Name != "siamese+nmjl-tournament" || r.Scoring.SelfPickedBonus != 10 {
		t.Fatalf("got %v, %v", r, err)
	}
	_, err = LoadRuleset("mahjong-soul")
	if err == nil || !strings.Contains(err.Error(), `unknown ruleset "mahjong-soul"`) || !strings.Contains(err.Error(), "siamese-masters") {
		t.Fatalf("unknown ruleset: %v, want the names of the built-in ones", err)
	}
	if _, err := LoadRuleset("nmjl-tournament"); err == nil {
		t.Fatal("an option alone was taken as a ruleset")
	}
	custom := filepath.Join(t.TempDir(), "club.yaml")
	data, _ := Rules("siamese")
	if err := os.WriteFile(custom, []byte(strings.Replace(string(data), "name: siamese", "name: club", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := LoadRuleset(custom + "+nmjl-tournament"); err != nil || r.Name != "club+nmjl-tournament" {
		t.Fatalf("a ruleset file with an option: %v, %v", r, err)
	}
}

func TestLoadCard(t *testing.T) {
	c, err := LoadCard("")
	if err != nil || c.Path != "" || len(c.Data) == 0 || len(c.Hands) == 0 {
		t.Fatalf("the built-in card: %+v, %v", c, err)
	}
	big := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(big, make([]byte, MaxFileSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCard(big); err == nil || !errors.Is(err, userfile.ErrTooBig) || !strings.Contains(err.Error(), "more than a card may be") {
		t.Fatalf("a huge card: %v", err)
	}
	if _, err := LoadCard(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Fatal("a missing card loaded")
	}
}
