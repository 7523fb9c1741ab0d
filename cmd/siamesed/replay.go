package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/game"
)

func init() {
	register("replay", "replay a game log: replay --rules NAME[+OPTION] [--card F] [--strict] GAME.jsonl", replay)
}

// loadRules reads "siamese" or "siamese+nmjl-tournament" from the embedded configs/rules, or a
// ruleset file path ending in .yaml.
func loadRules(spec string) (*game.Ruleset, error) {
	parts := strings.Split(spec, "+")
	read := func(name string) ([]byte, error) {
		if strings.HasSuffix(name, ".yaml") {
			return os.ReadFile(name)
		}
		b, err := configs.Rules(name)
		if err != nil {
			return nil, fmt.Errorf("unknown ruleset %q (siamese, siamese-masters, royale-4, royale-3; option nmjl-tournament)", name)
		}
		return b, nil
	}
	data, err := read(parts[0])
	if err != nil {
		return nil, err
	}
	r, err := game.ParseRuleset(parts[0], data)
	if err != nil {
		return nil, err
	}
	for _, opt := range parts[1:] {
		data, err := read(opt)
		if err != nil {
			return nil, err
		}
		if r, err = r.WithOption(opt, data); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func replay(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fl := newFlags("replay", stderr)
	rulesName := fl.String("rules", "siamese", "ruleset, optionally with +options")
	cardPath := fl.String("card", "", "card file (default: the embedded example card)")
	strict := fl.Bool("strict", false, "exit 1 on any infraction")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return fmt.Errorf("%w: replay needs one game log file", errUsage)
	}
	rules, err := loadRules(*rulesName)
	if err != nil {
		return err
	}
	c, err := loadCard(*cardPath)
	if err != nil {
		return err
	}
	f, err := os.Open(fl.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	acts, lines, logErr := game.ReadLog(f)
	s, verdicts, playErr := game.Replay(game.New(rules, c), acts)
	out := struct {
		Rules    string         `json:"rules"`
		Actions  int            `json:"actions"`
		Verdicts []game.Verdict `json:"verdicts"`
		Result   *game.Result   `json:"result"`
		State    game.State     `json:"state"`
	}{rules.Name, s.Seq, verdicts, s.Result, s}
	if out.Verdicts == nil {
		out.Verdicts = []game.Verdict{}
	}
	if err := writeJSON(stdout, out); err != nil {
		return err
	}
	if playErr != nil {
		var re *game.ReplayError
		if errors.As(playErr, &re) && re.Index < len(lines) {
			return fmt.Errorf("%s:%d: %w", fl.Arg(0), lines[re.Index], re.Err)
		}
		return playErr
	}
	if logErr != nil {
		return fmt.Errorf("%s: %w", fl.Arg(0), logErr)
	}
	if *strict {
		for _, v := range verdicts {
			if v.Kind == game.Infraction || v.Kind == game.MahJonggBad || v.Kind == game.Misdeal {
				return exitCode{1, errors.New("infractions found (--strict)")}
			}
		}
	}
	return nil
}
