package setup

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/siamesetable/siamesed/internal/safefile"
	"github.com/siamesetable/siamesed/internal/userfile"
	"gopkg.in/yaml.v3"
)

// codeAlphabet: capitals and digits that read alike (I 1, O 0, L) left out, 31 of them; a code
// of codeLen is about 30 bits, guessed only as fast as the join limiters allow.
const (
	codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
	codeLen      = 6
)

// Errors a join attempt can meet; each says what the player should do.
var (
	ErrNoSuchCode  = errors.New("no seat has this code: check it on the table's screen")
	ErrCodeUsed    = errors.New("this code was used already: the seat is taken (the table's owner can take it back and show a new code)")
	ErrCodeRenewed = errors.New("this code was replaced by a new one: use the code the table's screen shows now")
)

// SeatCode is a seat as the table display and the set-up page show it.
type SeatCode struct {
	Seat    int    `json:"seat"`
	Taken   bool   `json:"taken"`
	Code    string `json:"code,omitempty"` // "ABC-DEF"; none once taken
	Version int    `json:"version"`        // changes with every new code
}

// Seats hands each free seat a one-time code. A code joins its seat once: the seat is then
// taken, and stays so (across restarts: which seats are taken is kept in the data directory)
// until the owner takes it back, which gives it a new code. Codes themselves are kept in
// memory only; a restart gives every free seat a new one.
type Seats struct {
	file string

	mu      sync.Mutex
	seats   []seatState
	retired map[string]error // codes no longer good -> why (ErrCodeUsed, ErrCodeRenewed)
	order   []string         // retired codes, oldest first, at most maxRetired
	version int
}

type seatState struct {
	code    string // without its dash; "" when taken
	version int
	taken   bool
}

const maxRetired = 256

// SeatsFile is where the taken seats are kept.
func SeatsFile(dataDir string) string { return filepath.Join(Dir(dataDir), "seats.yaml") }

type seatsFile struct {
	Taken []int `yaml:"taken"`
}

// OpenSeats reads which of n seats are taken from file and gives the others codes.
func OpenSeats(file string, n int) (*Seats, error) {
	s := &Seats{file: file, seats: make([]seatState, n), retired: map[string]error{}}
	b, err := userfile.ReadFile(file, "the taken seats", 64<<10)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("setup: %w", err)
	default:
		var f seatsFile
		if err := yaml.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("setup: %s: %w (remove it to free every seat)", file, err)
		}
		for _, i := range f.Taken {
			if i >= 0 && i < n {
				s.seats[i].taken = true
			}
		}
	}
	for i := range s.seats {
		if !s.seats[i].taken {
			if err := s.newCode(i); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// List is every seat's state.
func (s *Seats) List() []SeatCode {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]SeatCode, len(s.seats))
	for i, st := range s.seats {
		out[i] = SeatCode{Seat: i, Taken: st.taken, Version: st.version}
		if !st.taken {
			out[i].Code = ShowCode(st.code)
		}
	}
	return out
}

// Join finds the free seat whose code this is and calls join with it; when join succeeds the
// seat is taken and its code good no more. Nothing changes when join fails.
func (s *Seats) Join(code string, join func(seat int) error) (int, error) {
	c := NormalCode(code)
	s.mu.Lock()
	defer s.mu.Unlock()
	seat := -1
	for i, st := range s.seats {
		// Every seat's code is compared, in constant time, whichever matches.
		if !st.taken && len(c) == len(st.code) && subtle.ConstantTimeCompare([]byte(c), []byte(st.code)) == 1 {
			seat = i
		}
	}
	if seat < 0 {
		if why, ok := s.retired[c]; ok && c != "" {
			return -1, why
		}
		return -1, ErrNoSuchCode
	}
	if err := join(seat); err != nil {
		return -1, err
	}
	s.seats[seat].taken = true
	if err := s.save(); err != nil {
		s.seats[seat].taken = false
		return -1, err
	}
	s.retire(s.seats[seat].code, ErrCodeUsed)
	s.seats[seat].code = ""
	return seat, nil
}

// Renew gives seat a new code. A taken seat is taken back: takeBack runs first (the seat's new
// password) and nothing changes if it fails. The old code is good no more either way.
func (s *Seats) Renew(seat int, takeBack func(seat int) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if seat < 0 || seat >= len(s.seats) {
		return fmt.Errorf("setup: no seat %d at this table", seat)
	}
	if s.seats[seat].taken {
		if err := takeBack(seat); err != nil {
			return err
		}
		s.seats[seat].taken = false
		if err := s.save(); err != nil {
			return err
		}
	}
	s.retire(s.seats[seat].code, ErrCodeRenewed)
	return s.newCode(seat)
}

func (s *Seats) newCode(seat int) error {
	c, err := random(codeAlphabet, codeLen)
	if err != nil {
		return err
	}
	s.version++
	s.seats[seat].code, s.seats[seat].version = c, s.version
	return nil
}

func (s *Seats) retire(code string, why error) {
	if code == "" {
		return
	}
	if _, ok := s.retired[code]; !ok {
		s.order = append(s.order, code)
	}
	s.retired[code] = why
	if len(s.order) > maxRetired {
		delete(s.retired, s.order[0])
		s.order = s.order[1:]
	}
}

// save keeps which seats are taken (the lock held).
func (s *Seats) save() error {
	var f seatsFile
	for i, st := range s.seats {
		if st.taken {
			f.Taken = append(f.Taken, i)
		}
	}
	b, err := yaml.Marshal(f)
	if err != nil {
		return fmt.Errorf("setup: taken seats: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(s.file), 0o700); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	head := "# The seats a phone has joined by its code; the set-up page takes them back.\n"
	if err := safefile.WriteFile(s.file, append([]byte(head), b...), 0o600); err != nil {
		return fmt.Errorf("setup: taken seats: %w", err)
	}
	return nil
}

// NormalCode is a code as typed (any case, spaces, dashes) in its stored form.
func NormalCode(typed string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(typed) {
		if strings.ContainsRune(codeAlphabet, r) {
			b.WriteRune(r)
		} else if r != ' ' && r != '-' {
			return "" // not a code at all
		}
	}
	if b.Len() != codeLen {
		return ""
	}
	return b.String()
}

// ShowCode is a code as shown: "ABC-DEF".
func ShowCode(code string) string {
	if len(code) != codeLen {
		return code
	}
	return code[:3] + "-" + code[3:]
}
