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
	"time"

	"github.com/siamesetable/siamesed/internal/safefile"
	"github.com/siamesetable/siamesed/internal/userfile"
	"github.com/siamesetable/siamesed/vision/labels"
	"gopkg.in/yaml.v3"
)

// The Faces check ticks only once Check has passed on the enrolment as it stands: a passed
// check records the enrolment's fingerprint (labels.csv and every crop it names, by content)
// in the set-up folder; a crop added, retaken or removed, on the page or by hand, changes the
// fingerprint, and the enrolment must be checked again.

// FacesCheckedFile is where the last passed check of the enrolment is recorded.
func FacesCheckedFile(dataDir string) string {
	return filepath.Join(Dir(dataDir), "faces-checked.yaml")
}

// facesChecked is the record of a passed check.
type facesChecked struct {
	Dir         string    `yaml:"dir"`
	Fingerprint string    `yaml:"fingerprint"` // Enrolment.Fingerprint when checked
	Crops       int       `yaml:"crops"`
	Checked     time.Time `yaml:"checked"`
}

// Fingerprint is a digest of the enrolment as saved: labels.csv and each crop it names, by
// name and content. Any change to the faces enrolled changes it.
func (e Enrolment) Fingerprint() (string, error) {
	h := sha256.New()
	csv, err := os.ReadFile(filepath.Join(e.Dir, labels.FileName))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("setup: the enrolment: %w", err)
	}
	fmt.Fprintf(h, "%s %d\n", labels.FileName, len(csv))
	h.Write(csv)
	for _, it := range e.Items {
		b, err := os.ReadFile(filepath.Join(e.Dir, labels.ImageDir, it.Image))
		if err != nil {
			return "", fmt.Errorf("setup: the enrolment: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n", it.Image, len(b))
		h.Write(b)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// recordChecked records that the enrolment whose fingerprint is fp passed the check.
func (s *Server) recordChecked(e Enrolment, fp string) error {
	b, err := yaml.Marshal(facesChecked{Dir: e.Dir, Fingerprint: fp, Crops: len(e.Items), Checked: s.o.Now().UTC()})
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	if err := os.MkdirAll(Dir(s.o.DataDir), 0o700); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	b = append([]byte("# The enrolment that passed the set-up page's Check: another needs checking again.\n"), b...)
	if err := safefile.WriteFile(FacesCheckedFile(s.o.DataDir), b, 0o644); err != nil {
		return fmt.Errorf("setup: recording the check: %w", err)
	}
	return nil
}

// forgetChecked drops the record of a passed check: the enrolment failed its last one.
func (s *Server) forgetChecked() error {
	if err := os.Remove(FacesCheckedFile(s.o.DataDir)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("setup: %w", err)
	}
	return nil
}

// checkedNow says whether e, as it stands, passed the last check, and if not, why.
func (s *Server) checkedNow(e Enrolment) (bool, string) {
	file := FacesCheckedFile(s.o.DataDir)
	b, err := userfile.ReadFile(file, "the record of the faces checked", 16<<10)
	if errors.Is(err, fs.ErrNotExist) {
		return false, "every face is enrolled but not checked: press Check in the Camera section"
	}
	if err != nil {
		return false, fmt.Sprintf("the record of the last check cannot be read (%v): press Check in the Camera section", err)
	}
	var rec facesChecked
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&rec); err != nil {
		return false, fmt.Sprintf("the record of the last check, %s, is not one (%v): press Check in the Camera section", file, err)
	}
	fp, err := e.Fingerprint()
	if err != nil {
		return false, err.Error()
	}
	if rec.Dir != e.Dir || rec.Fingerprint != fp {
		return false, "the faces enrolled changed since they were last checked: press Check in the Camera section"
	}
	return true, ""
}
