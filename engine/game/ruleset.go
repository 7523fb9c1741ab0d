package game

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/yamlline"
	"gopkg.in/yaml.v3"
)

// Ruleset is one named set of rules, as data (configs/rules/*.yaml). Every choice the rule texts
// make differently is a field here; docs/rules.md gives each field's source sentence.
type Ruleset struct {
	Name    string `yaml:"name"`
	Source  string `yaml:"source"`  // the rule text it follows
	Players int    `yaml:"players"` // 2, 3 or 4; each plays two racks
	Set     string `yaml:"set"`     // tile set: american, royale-4, royale-3
	// Jokers and Flowers, when given, replace the set's count of jokers and of flowers (a
	// Wright-Patterson club playing without jokers: the option no-jokers).
	Jokers  *int `yaml:"jokers"`
	Flowers *int `yaml:"flowers"`

	DealEast   int  `yaml:"deal_east"`   // tiles East is dealt
	DealOthers int  `yaml:"deal_others"` // tiles every other seat is dealt
	EastDraws  bool `yaml:"east_draws"`  // East draws before the first discard (Masters: 27 each)

	// TwoDead: what happens when a player's two racks are dead: "end" (the game ceases) or
	// "play_on" (the others play on).
	TwoDead string `yaml:"two_dead"`
	// TwoDeadPays: in "end", the dead player pays this many times the opponent's exposed Mah
	// Jongg, or the card's lowest value if none (Siamese rule 12: 4).
	TwoDeadPays int `yaml:"two_dead_pays"`
	// TwoDeadPenalty: points to the player with two dead hands (Masters: -100).
	TwoDeadPenalty int `yaml:"two_dead_penalty"`

	// ClaimPriority decides between players calling one discard: "closest" (closest in turn to
	// the discarder, whatever the claim), "mahjong_then_closest" (a Mah Jongg claim first), or
	// "double_then_closest" (masters: a double Siamese Mah Jongg first, then closest).
	ClaimPriority string `yaml:"claim_priority"`

	// FixRack: an exposure laid on the wrong rack may be moved before the turn's discard
	// (masters "correction rule"); elsewhere it stays and the rack is judged as it is.
	FixRack bool `yaml:"fix_rack"`

	// MahJonggRackHolds14: once its turn is complete, a rack with a Mah Jongg exposed must hold
	// only those 14 tiles (Royale 12). Siamese rule 10 (rev. 05/02/17) lets the remaining tiles
	// sit on either rack, so only the seat's total is counted there.
	MahJonggRackHolds14 bool `yaml:"mahjong_rack_holds_14"`

	// MisnamedReplace: an exposure claim for the named face of a misnamed discard is settled by
	// the named tile from the discarder's hand replacing the discard (masters "misnamed
	// discard"); elsewhere such a claim is refused until the tile is named correctly.
	MisnamedReplace bool `yaml:"misnamed_replace"`

	// FlowerWall: flowers are bonus tiles, laid on a rack and each replaced by a tile from the
	// flower wall; East calls for them after the deal and the players exchange in turn
	// (Wright-Patterson). Elsewhere flowers are part of the hands.
	FlowerWall bool `yaml:"flower_wall"`
	// Rolls: the table records its rolls, for East (high is East) and East's for the prevailing
	// wind (even East, odd West) (Wright-Patterson).
	Rolls bool `yaml:"rolls"`
	// ChowsDrawn: a discard called for a chow (or mixed chow) exposure is refused; a chow is only
	// called to complete a Mah Jongg (Wright-Patterson: "Chows must be drawn unless ready to Mah
	// Jongg").
	ChowsDrawn bool `yaml:"chows_drawn"`

	Scoring Scoring `yaml:"scoring"`

	// Rules quotes each rule this ruleset enforces, by id, for infraction verdicts.
	Rules map[string]string `yaml:"rules"`
}

// Scoring is how Mah Jonggs and penalties turn into points.
type Scoring struct {
	JokerlessDouble           bool `yaml:"jokerless_double"`                // first MJ jokerless: x2
	JokerlessExceptSingles    bool `yaml:"jokerless_except_singles"`        // ...but not for singles and pairs
	NoJokerlessDoubleForQuint bool `yaml:"no_jokerless_double_quint"`       // Royale: no double for a quint hand
	SecondMultiplier          int  `yaml:"second_multiplier"`               // second MJ x2
	SecondJokerlessDouble     bool `yaml:"second_jokerless_double"`         // and x2 again if jokerless
	SecondJokerlessExcept     bool `yaml:"second_jokerless_except_singles"` // excluding singles and pairs
	BothAtOnceMultiplier      int  `yaml:"both_at_once_multiplier"`         // two MJ declared together: each x2
	SecondDiscardPenalty      int  `yaml:"second_discard_penalty"`          // to the thrower of an opponent's 2nd MJ
	WallGameBonus             int  `yaml:"wall_game_bonus"`                 // each player, wall game, no MJ

	// Wright-Patterson: hands are limits, paid LimitPoints (500, 1000, 1500 for a single,
	// double, triple limit); a ruleset with limits plays a limit list, one without a points card.
	LimitPoints []int `yaml:"limit_points"`
	// WallGamePot: at a wall game with no Mah Jongg every player pays this into a pot that grows
	// across games until the next Mah Jongg takes it (WallPotOf).
	WallGamePot int `yaml:"wall_game_pot"`
	// Bouquet: points paid at once to a seat whose rack holds BouquetFlowers flowers (again at
	// each further BouquetFlowers).
	Bouquet        int `yaml:"bouquet"`
	BouquetFlowers int `yaml:"bouquet_flowers"`

	// Tournament options (nmjl-tournament-rules.txt), combinable with any ruleset.
	SelfPickedBonus        int `yaml:"self_picked_bonus"`         // +10 picking your own MJ
	JokerlessBonus         int `yaml:"jokerless_bonus"`           // +10 no joker, singles and pairs too
	WallGameLiveBonus      int `yaml:"wall_game_live_bonus"`      // +10 to players still live at a wall game
	ThrowIntoTwoPenalty    int `yaml:"throw_into_two_penalty"`    // MJ thrown to a player with 2 exposures
	ThrowIntoThreePenalty  int `yaml:"throw_into_three_penalty"`  // ... 3 exposures, or 2 in a quint hand
	MahJonggInErrorPenalty int `yaml:"mahjong_in_error_penalty"`  // points to a declarer in error
	MahJonggInErrorOthers  int `yaml:"mahjong_in_error_others"`   // points to every other seat
	MisnamedExposure       int `yaml:"misnamed_exposure_penalty"` // a misnamed discard wanted for an exposure
	MisnamedMahJongg       int `yaml:"misnamed_mahjong_penalty"`  // ... wanted for Mah Jongg
	MisnamedOthers         int `yaml:"misnamed_others_bonus"`     // ... to every seat but the miscaller
}

// ParseRuleset reads a ruleset from YAML, strictly, and checks it.
func ParseRuleset(name string, data []byte) (*Ruleset, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var r Ruleset
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("game: ruleset %s: %w", name, yamlline.Explain(data, err))
	}
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("game: ruleset %s: %w", name, err)
	}
	return &r, nil
}

func (r *Ruleset) check() error {
	var probs []string
	bad := func(cond bool, msg string) {
		if cond {
			probs = append(probs, msg)
		}
	}
	bad(r.Name == "", "name is empty")
	bad(r.Players < 2 || r.Players > 4, "players must be 2, 3 or 4")
	_, err := tile.SetByName(r.Set)
	bad(err != nil, fmt.Sprintf("set %q unknown", r.Set))
	bad(r.DealEast <= 0 || r.DealOthers <= 0, "deal_east and deal_others must be positive")
	bad(r.TwoDead != "end" && r.TwoDead != "play_on", "two_dead must be end or play_on")
	bad(r.ClaimPriority != "closest" && r.ClaimPriority != "mahjong_then_closest" && r.ClaimPriority != "double_then_closest",
		"claim_priority must be closest, mahjong_then_closest or double_then_closest")
	bad(r.Scoring.SecondMultiplier < 1 || r.Scoring.BothAtOnceMultiplier < 1, "multipliers must be at least 1")
	probs = append(probs, r.checkWrightPatterson()...)
	if len(probs) > 0 {
		return fmt.Errorf("%v", probs)
	}
	return nil
}

// TileSet returns the ruleset's tiles: the named set, with its jokers and flowers as the
// ruleset or an option counts them.
func (r *Ruleset) TileSet() tile.Set {
	s, _ := tile.SetByName(r.Set)
	var changed []string
	if r.Jokers != nil {
		s.Count[tile.Joker] = uint8(*r.Jokers)
		changed = append(changed, fmt.Sprintf("%d jokers", *r.Jokers))
	}
	if r.Flowers != nil {
		s.Count[tile.Flower] = uint8(*r.Flowers)
		changed = append(changed, fmt.Sprintf("%d flowers", *r.Flowers))
	}
	if len(changed) > 0 {
		s.Name += " (" + strings.Join(changed, ", ") + ")"
	}
	return s
}

// quote returns the text of a rule, for a verdict.
func (r *Ruleset) quote(id string) string {
	return r.Rules[id]
}

// citable returns id when the ruleset quotes a rule of that id, else fallback: a ruleset may
// quote a narrower rule (the tournament's penalty for a misnamed Mah Jongg tile) than the
// general one every ruleset has.
func (r *Ruleset) citable(id, fallback string) string {
	if r.Rules[id] != "" {
		return id
	}
	return fallback
}

// WithOption combines a ruleset with an option file (such as nmjl-tournament.yaml) that sets
// some scoring fields and adds rule texts; the result is named "base+option".
func (r *Ruleset) WithOption(name string, data []byte) (*Ruleset, error) {
	n := *r
	n.Rules = maps.Clone(r.Rules)
	var opt struct {
		Name    string            `yaml:"name"`
		Source  string            `yaml:"source"`
		Option  bool              `yaml:"option"`
		Jokers  *int              `yaml:"jokers"`
		Flowers *int              `yaml:"flowers"`
		Scoring *Scoring          `yaml:"scoring"`
		Rules   map[string]string `yaml:"rules"`
	}
	sc := n.Scoring
	opt.Scoring = &sc
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&opt); err != nil {
		return nil, fmt.Errorf("game: option %s: %w", name, yamlline.Explain(data, err))
	}
	if !opt.Option {
		return nil, fmt.Errorf("game: %s is a ruleset, not an option (option: true)", name)
	}
	n.Scoring = sc
	if opt.Jokers != nil {
		n.Jokers = opt.Jokers
	}
	if opt.Flowers != nil {
		n.Flowers = opt.Flowers
	}
	if probs := n.checkWrightPatterson(); len(probs) > 0 {
		return nil, fmt.Errorf("game: option %s: %v", name, probs)
	}
	n.Name = r.Name + "+" + opt.Name
	n.Source = r.Source + ", " + opt.Source
	for k, v := range opt.Rules {
		n.Rules[k] = v
	}
	return &n, nil
}

// LoadRuleset builds the ruleset a spec names: a base ruleset and any options joined by "+"
// ("siamese+nmjl-tournament"). read returns a named file's bytes; the engine does no I/O.
func LoadRuleset(spec string, read func(name string) ([]byte, error)) (*Ruleset, error) {
	base, opts := SplitRulesSpec(spec)
	if base == "" {
		return nil, errors.New("game: no ruleset named")
	}
	data, err := read(base)
	if err != nil {
		return nil, fmt.Errorf("game: ruleset %s: %w", base, err)
	}
	r, err := ParseRuleset(base, data)
	if err != nil {
		return nil, err
	}
	for _, opt := range opts {
		data, err := read(opt)
		if err != nil {
			return nil, fmt.Errorf("game: option %s: %w", opt, err)
		}
		if r, err = r.WithOption(opt, data); err != nil {
			return nil, err
		}
	}
	return r, nil
}
