// Package enroll keeps the map from RFID tag UID to tile face. The file is rewritten atomically
// after every tag, so enrolment can stop at any moment and resume without losing a tag.
package enroll

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/siamesetable/siamesed/internal/userfile"

	"github.com/siamesetable/siamesed/internal/safefile"

	"github.com/siamesetable/siamesed/engine/tile"
	"gopkg.in/yaml.v3"
)

// Errors for errors.Is.
var (
	ErrDuplicate = errors.New("enroll: tag already enrolled")
	ErrFull      = errors.New("enroll: every tile of that face is already enrolled")
)

// Store is the enrolment of one tile set, backed by a YAML file of `UID: face` lines.
type Store struct {
	path string
	set  tile.Set
	mu   sync.Mutex
	tags map[string]tile.Face
	have tile.Counts
}

// MaxFileBytes bounds an enrolment file (a 304-tile set's is about 10 KB).
const MaxFileBytes = 4 << 20

// Open loads path (a missing file is an empty enrolment) for set.
func Open(path string, set tile.Set) (*Store, error) {
	s := &Store{path: path, set: set, tags: map[string]tile.Face{}}
	b, err := userfile.ReadFile(path, "a tag enrolment", MaxFileBytes)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("enroll: %w", err)
	}
	tags, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("enroll: %s: %w", path, err)
	}
	for uid, f := range tags {
		if s.have[f] >= set.Count[f] {
			return nil, fmt.Errorf("enroll: %s: more %s tiles than the set has (%d)", path, f, set.Count[f])
		}
		s.tags[uid] = f
		s.have[f]++
	}
	return s, nil
}

// Parse reads an enrolment file: a YAML map of UID to face notation.
func Parse(b []byte) (map[string]tile.Face, error) {
	var raw map[string]string
	if err := yaml.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("enroll: %w", err)
	}
	out := make(map[string]tile.Face, len(raw))
	for uid, fs := range raw {
		u, err := NormalUID(uid)
		if err != nil {
			return nil, err
		}
		f, err := tile.Parse(fs)
		if err != nil {
			return nil, fmt.Errorf("enroll: tag %s: %w", uid, err)
		}
		if _, dup := out[u]; dup {
			return nil, fmt.Errorf("enroll: tag %s listed twice", u)
		}
		out[u] = f
	}
	return out, nil
}

// NormalUID upper-cases a UID and checks it is 4 to 10 hex bytes separated by colons.
func NormalUID(uid string) (string, error) {
	u := strings.ToUpper(strings.TrimSpace(uid))
	parts := strings.Split(u, ":")
	if len(parts) < 4 || len(parts) > 10 {
		return "", fmt.Errorf("enroll: UID %q: want 4 to 10 hex bytes like DE:AD:BE:EF", uid)
	}
	for _, p := range parts {
		if len(p) != 2 || strings.Trim(p, "0123456789ABCDEF") != "" {
			return "", fmt.Errorf("enroll: UID %q: %q is not a hex byte", uid, p)
		}
	}
	return u, nil
}

// Face implements rack.Enrolment.
func (s *Store) Face(uid string) (tile.Face, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.tags[uid]
	return f, ok
}

// Progress is how many tiles are enrolled, of how many in the set.
func (s *Store) Progress() (done, total int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tags), s.set.Count.Total()
}

// Next is the first face (in canonical order) still missing tiles, or NoFace when complete.
func (s *Store) Next() tile.Face {
	s.mu.Lock()
	defer s.mu.Unlock()
	for f := tile.Face(0); f < tile.NumFaces; f++ {
		if s.have[f] < s.set.Count[f] {
			return f
		}
	}
	return tile.NoFace
}

// Add enrols uid as face and saves the file before returning. It rejects a tag already enrolled
// and a face whose tiles are all enrolled.
func (s *Store) Add(uid string, f tile.Face) error {
	u, err := NormalUID(uid)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.tags[u]; ok {
		return fmt.Errorf("%w: %s is %s", ErrDuplicate, u, old)
	}
	if f >= tile.NumFaces || s.have[f] >= s.set.Count[f] {
		return fmt.Errorf("%w: %s", ErrFull, f)
	}
	s.tags[u] = f
	s.have[f]++
	if err := s.saveLocked(); err != nil {
		delete(s.tags, u)
		s.have[f]--
		return err
	}
	return nil
}

func (s *Store) saveLocked() error {
	uids := make([]string, 0, len(s.tags))
	for u := range s.tags {
		uids = append(uids, u)
	}
	slices.SortFunc(uids, func(a, b string) int {
		if c := int(s.tags[a]) - int(s.tags[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var b strings.Builder
	b.WriteString("# Tag UID -> tile face. Written by `siamesed enroll tags`.\n")
	for _, u := range uids {
		fmt.Fprintf(&b, "%q: %s\n", u, s.tags[u])
	}
	if err := safefile.WriteFile(s.path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("enroll: saving: %w", err)
	}
	return nil
}

// ErrNotEnrolled is Remove's error for a tag the enrolment does not hold.
var ErrNotEnrolled = errors.New("enroll: tag not enrolled")

// Remove forgets uid (a tile enrolled as the wrong face) and saves the file before returning;
// on an error nothing changes.
func (s *Store) Remove(uid string) error {
	u, err := NormalUID(uid)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.tags[u]
	if !ok {
		return fmt.Errorf("%w: %s", ErrNotEnrolled, u)
	}
	delete(s.tags, u)
	s.have[f]--
	if err := s.saveLocked(); err != nil {
		s.tags[u] = f
		s.have[f]++
		return err
	}
	return nil
}
