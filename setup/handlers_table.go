package setup

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/siamesetable/siamesed/engine/card"
)

// status is the set-up page's picture of the table.
type status struct {
	Ready      bool          `json:"ready"`
	Checks     []checkOut    `json:"checks"`
	Playing    Playing       `json:"playing"`
	Saved      *Settings     `json:"saved"`
	Config     Settings      `json:"config"`
	ConfigFile string        `json:"config_file"`
	Rulesets   []RulesetInfo `json:"rulesets"`
	Broker     string        `json:"broker"`
}

type checkOut struct {
	Name  string `json:"name"`
	Ready bool   `json:"ready"`
	Text  string `json:"text"`
}

func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	infos, err := Rulesets()
	if err != nil {
		fail(w, http.StatusInternalServerError, "%v", err)
		return
	}
	playing, _ := s.o.Table.Playing()
	s.mu.Lock()
	saved := s.saved
	s.mu.Unlock()
	st := status{Ready: true, Playing: playing, Saved: saved, Config: s.o.Config, ConfigFile: s.o.ConfigFile, Rulesets: infos, Broker: s.o.Broker}
	for _, c := range append(append([]Check{{Name: "Table settings", Ready: s.settingsReady}}, s.o.Checks...), s.facesChecks()...) {
		ok, text := c.Ready()
		st.Checks = append(st.Checks, checkOut{Name: c.Name, Ready: ok, Text: text})
		st.Ready = st.Ready && ok
	}
	writeJSON(w, http.StatusOK, st)
}

// settingsReady: the table's settings were saved here (the page's form starts from what the
// table plays, so saving it once is enough for those who keep them in the YAML file).
func (s *Server) settingsReady() (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.saved == nil {
		return false, "not saved yet: the configuration file's rules, card and names are in use until you save them here"
	}
	return true, fmt.Sprintf("saved %s: %s, %s, %s", s.saved.Saved.Format(time.DateTime), s.saved.Rules, cardLabel(s.saved.CardName), strings.Join(s.saved.Names, ", "))
}

func cardLabel(name string) string {
	if name == "" {
		return "the built-in card"
	}
	return "card " + name
}

// maxFormBytes holds a card file at its largest, as JSON text.
const maxFormBytes = 2*card.MaxCardBytes + 64<<10

func (s *Server) saveTable(w http.ResponseWriter, r *http.Request) {
	var f Form
	if !readJSON(w, r, &f, maxFormBytes) {
		return
	}
	_, inUse := s.o.Table.Playing()
	plan, err := CheckForm(f, inUse)
	if err == nil {
		err = s.o.Table.Fits(plan)
	}
	var fe *FormError
	if errors.As(err, &fe) {
		writeJSON(w, http.StatusUnprocessableEntity, errorBody{Error: "nothing was saved: " + strings.TrimPrefix(fe.Error(), "setup: "), Problems: fe.Problems})
		return
	}
	if err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, errorBody{Error: "nothing was saved: " + err.Error()})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	plan.Settings.Saved = s.o.Now().UTC().Truncate(time.Second)
	saved, err := SaveSettings(s.o.DataDir, plan.Settings, plan.CardData)
	if err != nil {
		fail(w, http.StatusInternalServerError, "the settings could not be saved: %v", err)
		return
	}
	plan.Settings = saved
	s.saved = &saved
	applied, err := s.o.Table.Apply(&plan)
	if err != nil {
		fail(w, http.StatusInternalServerError, "saved, but the table could not take them: %v (they apply when the daemon next starts)", err)
		return
	}
	s.o.Log.Info("setup: table settings saved", "rules", saved.Rules, "card", cardLabel(saved.CardName), "names", saved.Names, "names_from", applied.Names, "rules_from", applied.Rules)
	writeJSON(w, http.StatusOK, map[string]any{"saved": saved, "applied": applied})
}

func (s *Server) forgetTable(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ForgetSettings(s.o.DataDir); err != nil {
		fail(w, http.StatusInternalServerError, "%v", err)
		return
	}
	s.saved = nil
	applied, err := s.o.Table.Apply(nil)
	if err != nil {
		fail(w, http.StatusInternalServerError, "removed, but the table could not take the configuration's settings: %v (they apply when the daemon next starts)", err)
		return
	}
	s.o.Log.Info("setup: saved table settings removed: the configuration file's apply", "names_from", applied.Names, "rules_from", applied.Rules)
	writeJSON(w, http.StatusOK, map[string]any{"applied": applied})
}
