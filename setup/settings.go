package setup

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/siamesetable/siamesed/internal/safefile"
	"github.com/siamesetable/siamesed/internal/userfile"
	"github.com/siamesetable/siamesed/internal/yamlline"
	"gopkg.in/yaml.v3"
)

// Settings are the table's settings saved from the set-up page. Where saved, they win over
// the configuration file's rules, card and seat names; everything else (racks, camera, ports,
// broker) stays the configuration's.
type Settings struct {
	// Rules is a built-in ruleset with its options: "royale-4+nmjl-tournament".
	Rules string `yaml:"rules" json:"rules"`
	// Card is the card's file in the set-up folder (card-<sha256>.yaml); empty: the ruleset's
	// built-in card.
	Card string `yaml:"card,omitempty" json:"card,omitempty"`
	// CardName is the card's own name (its name: line), for the page.
	CardName string `yaml:"card_name,omitempty" json:"card_name,omitempty"`
	// Names are the players', East first.
	Names []string  `yaml:"names" json:"names"`
	Saved time.Time `yaml:"saved" json:"saved,omitzero"`
}

// SettingsFile is where the saved settings are kept.
func SettingsFile(dataDir string) string { return filepath.Join(Dir(dataDir), "table.yaml") }

// CardPath is the saved card's path, or "" for the ruleset's built-in card.
func (s Settings) CardPath(dataDir string) string {
	if s.Card == "" {
		return ""
	}
	return filepath.Join(Dir(dataDir), s.Card)
}

// LoadSettings reads the saved settings; nil when none were saved.
func LoadSettings(dataDir string) (*Settings, error) {
	path := SettingsFile(dataDir)
	b, err := userfile.ReadFile(path, "the saved table settings", 64<<10)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	var s Settings
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("setup: %s: %w (the set-up page saves it; remove it to use the configuration file's settings)", path, yamlline.Explain(b, err))
	}
	var bad []string
	if s.Rules == "" {
		bad = append(bad, "rules: empty")
	}
	if len(s.Names) == 0 {
		bad = append(bad, "names: empty")
	}
	if s.Card != "" && (strings.ContainsAny(s.Card, `/\`) || !strings.HasPrefix(s.Card, "card-")) {
		bad = append(bad, fmt.Sprintf("card: %q is not a card file of this folder", s.Card))
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("setup: %s: %s (remove it to use the configuration file's settings)", path, strings.Join(bad, "; "))
	}
	return &s, nil
}

// SaveSettings keeps s, with the card's bytes when it has its own card (nil: the ruleset's
// built-in card). The card is written first under a name made from its contents, then the
// settings naming it, each file whole or not at all; cards no longer named are removed.
func SaveSettings(dataDir string, s Settings, card []byte) (Settings, error) {
	dir := Dir(dataDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return s, fmt.Errorf("setup: %w", err)
	}
	s.Card = ""
	if card != nil {
		sum := sha256.Sum256(card)
		s.Card = "card-" + hex.EncodeToString(sum[:8]) + ".yaml"
		if err := safefile.WriteFile(filepath.Join(dir, s.Card), card, 0o644); err != nil {
			return s, fmt.Errorf("setup: the card: %w", err)
		}
	}
	b, err := yaml.Marshal(s)
	if err != nil {
		return s, fmt.Errorf("setup: %w", err)
	}
	head := "# Saved by the set-up page (/setup). These win over the configuration file's rules, card\n# and seat names; remove this file (or press \"Use the configuration file\") to go back to it.\n"
	if err := safefile.WriteFile(SettingsFile(dataDir), append([]byte(head), b...), 0o644); err != nil {
		return s, fmt.Errorf("setup: the settings: %w", err)
	}
	return s, removeCardsBut(dir, s.Card)
}

// ForgetSettings removes the saved settings: the configuration file's apply again.
func ForgetSettings(dataDir string) error {
	if err := os.Remove(SettingsFile(dataDir)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("setup: %w", err)
	}
	return removeCardsBut(Dir(dataDir), "")
}

func removeCardsBut(dir, keep string) error {
	old, _ := filepath.Glob(filepath.Join(dir, "card-*.yaml"))
	for _, p := range old {
		if filepath.Base(p) != keep {
			if err := os.Remove(p); err != nil {
				return fmt.Errorf("setup: %w", err)
			}
		}
	}
	return nil
}
