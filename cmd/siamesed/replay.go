package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
)

func init() {
	register("replay", "replay game logs: replay --rules NAME[+OPTION] [--card F] [--strict] [--pot C [--triple]] GAME.jsonl...", replay)
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

// gameOut is replay's report of one game.
type gameOut struct {
	File     string         `json:"file,omitempty"`
	Rules    string         `json:"rules"`
	Actions  int            `json:"actions"`
	Verdicts []game.Verdict `json:"verdicts"`
	Result   *game.Result   `json:"result"`
	State    *game.State    `json:"state,omitempty"`
}

func replay(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fl := newFlags("replay", stderr)
	rulesName := fl.String("rules", "siamese", "ruleset, optionally with +options")
	cardPath := fl.String("card", "", "card file (default: the embedded example card)")
	strict := fl.Bool("strict", false, "exit 1 on any infraction")
	pot := fl.Int("pot", 0, "with several games: pay the cumulative scores out of a pot of this many cents (royale 16)")
	triple := fl.Bool("triple", false, "with --pot: triple each score first (royale 16a)")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() == 0 {
		return fmt.Errorf("%w: replay needs one game log file, or several for a session", errUsage)
	}
	rules, err := loadRules(*rulesName)
	if err != nil {
		return err
	}
	c, err := loadCard(*cardPath)
	if err != nil {
		return err
	}
	var games []gameOut
	var firstErr error
	for _, path := range fl.Args() {
		g, err := replayFile(path, rules, c)
		games = append(games, g)
		if err != nil {
			firstErr = err
			break
		}
	}
	var out any = games[0]
	if fl.NArg() > 1 || *pot > 0 {
		out = session(rules, games, *pot, *triple)
	}
	if err := writeJSON(stdout, out); err != nil {
		return err
	}
	if firstErr != nil {
		return firstErr
	}
	if *strict {
		for _, g := range games {
			for _, v := range g.Verdicts {
				if v.Kind == game.Infraction || v.Kind == game.MahJonggBad || v.Kind == game.Misdeal {
					return exitCode{1, errors.New("infractions found (--strict)")}
				}
			}
		}
	}
	return nil
}

// replayFile replays one log; on a bad line or impossible action it returns what was replayed
// before it and an error naming the file and line.
func replayFile(path string, rules *game.Ruleset, c *card.Card) (gameOut, error) {
	g := gameOut{File: path, Rules: rules.Name, Verdicts: []game.Verdict{}}
	f, err := os.Open(path)
	if err != nil {
		return g, err
	}
	defer f.Close()
	acts, lines, logErr := game.ReadLog(f)
	s, verdicts, playErr := game.Replay(game.New(rules, c), acts)
	g.Actions, g.Result, g.State = s.Seq, s.Result, &s
	if verdicts != nil {
		g.Verdicts = verdicts
	}
	if playErr != nil {
		var re *game.ReplayError
		if errors.As(playErr, &re) && re.Index < len(lines) {
			return g, fmt.Errorf("%s:%d: %w", path, lines[re.Index], re.Err)
		}
		return g, playErr
	}
	if logErr != nil {
		return g, fmt.Errorf("%s: %w", path, logErr)
	}
	return g, nil
}

// sessionOut is a session of games: cumulative scores and, with a pot, the payout.
type sessionOut struct {
	Rules  string          `json:"rules"`
	Games  []gameOut       `json:"games"`
	Totals []int           `json:"totals"`
	Pot    []game.PotShare `json:"pot,omitempty"`
}

func session(rules *game.Ruleset, games []gameOut, pot int, triple bool) sessionOut {
	out := sessionOut{Rules: rules.Name, Totals: make([]int, rules.Players)}
	for _, g := range games {
		g.State = nil // the per-game final state is long; a session reports results
		out.Games = append(out.Games, g)
		if g.Result != nil {
			for i, sc := range g.Result.Scores {
				out.Totals[i] += sc
			}
		}
	}
	if pot > 0 {
		out.Pot = game.Pot(out.Totals, pot, triple)
	}
	return out
}
