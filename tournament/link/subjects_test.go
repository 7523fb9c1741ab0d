package link

import (
	"strings"
	"testing"
)

// TestFromSubjects: a subject names its table (and kind) only when it is one InSubject or
// ProgressSubject writes; anything else is not a table's.
func TestFromSubjects(t *testing.T) {
	for _, c := range []struct {
		subject string
		table   int
		kind    string
	}{
		{InSubject(3, "result"), 3, "result"}, {InSubject(120, "sign"), 120, "sign"},
		{"siamese.desk.in.t03.result", 0, ""}, {"siamese.desk.in.t0.result", 0, ""}, {"siamese.desk.in.t-1.result", 0, ""},
		{"siamese.desk.in.t3", 0, ""}, {"siamese.desk.in.t3.result.x", 0, ""}, {"siamese.desk.in.3.result", 0, ""},
		{"siamese.desk.in.t3.", 0, ""}, {OutSubject(3), 0, ""}, {"", 0, ""},
	} {
		table, kind, ok := FromIn(c.subject)
		if table != c.table || kind != c.kind || ok != (c.table > 0) {
			t.Errorf("FromIn(%q) = %d %q %v, want %d %q", c.subject, table, kind, ok, c.table, c.kind)
		}
	}
	for subject, want := range map[string]int{ProgressSubject(7): 7, "siamese.desk.progress.t7.x": 0, "siamese.desk.progress.7": 0, InSubject(7, "result"): 0} {
		if got, ok := FromProgress(subject); got != want || ok != (want > 0) {
			t.Errorf("FromProgress(%q) = %d %v, want %d", subject, got, ok, want)
		}
	}
}

// FuzzFromIn: what FromIn reads from a subject, InSubject writes back as that subject.
func FuzzFromIn(f *testing.F) {
	f.Add(InSubject(3, "result"))
	f.Add("siamese.desk.in.t+1.sign")
	f.Add(ProgressSubject(2))
	f.Fuzz(func(t *testing.T, subject string) {
		if table, kind, ok := FromIn(subject); ok && (InSubject(table, kind) != subject || strings.Contains(kind, ".")) {
			t.Errorf("FromIn(%q) = %d %q", subject, table, kind)
		}
		if table, ok := FromProgress(subject); ok && ProgressSubject(table) != subject {
			t.Errorf("FromProgress(%q) = %d", subject, table)
		}
	})
}
