package event

import "github.com/siamesetable/siamesed/configs"

// ConfigsRules reads a ruleset spec as the daemon does (built-in names with options, or a
// path) and tells its seats.
func ConfigsRules(spec string) (int, error) {
	r, err := configs.LoadRuleset(spec)
	if err != nil {
		return 0, err
	}
	return r.Players, nil
}
