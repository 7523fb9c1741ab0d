package link

import (
	"strconv"
	"strings"
)

// Streams, consumers, subjects and inboxes: everything a permission names (package natsauth).
const (
	InStream     = "SIAMESE_DESK_IN"  // tables -> desk
	OutStream    = "SIAMESE_DESK_OUT" // desk -> tables (rulings)
	DeskConsumer = "desk"             // the desk's durable consumer on InStream
	DeskInbox    = "_INBOX.desk"      // the desk's reply subjects
	inPrefix     = "siamese.desk.in."
	outPrefix    = "siamese.desk.out."
	progress     = "siamese.desk.progress."
)

// InSubject is where table publishes messages of kind.
func InSubject(table int, kind string) string {
	return inPrefix + "t" + strconv.Itoa(table) + "." + kind
}

// OutSubject is where the desk's rulings for table go.
func OutSubject(table int) string { return outPrefix + "t" + strconv.Itoa(table) }

// ProgressSubject is where table says where it is.
func ProgressSubject(table int) string { return progress + "t" + strconv.Itoa(table) }

// TableConsumer is table's durable consumer on OutStream: its rulings.
func TableConsumer(table int) string { return "table-" + strconv.Itoa(table) }

// TableInbox is the prefix of table's reply subjects.
func TableInbox(table int) string { return "_INBOX.t" + strconv.Itoa(table) }

// Wildcards over every table, for the desk's permissions and subscriptions.
const (
	AnyInSubject       = inPrefix + "*.*"
	AnyOutSubject      = outPrefix + "*"
	AnyProgressSubject = progress + "*"
)

// FromIn is the table and kind an InSubject names; ok false when subject is not one.
func FromIn(subject string) (table int, kind string, ok bool) {
	rest, found := strings.CutPrefix(subject, inPrefix)
	if !found {
		return 0, "", false
	}
	t, kind, found := strings.Cut(rest, ".")
	if !found || kind == "" || strings.Contains(kind, ".") {
		return 0, "", false
	}
	if table, ok = tableToken(t); !ok {
		return 0, "", false
	}
	return table, kind, true
}

// FromProgress is the table a ProgressSubject names; ok false when subject is not one.
func FromProgress(subject string) (table int, ok bool) {
	rest, found := strings.CutPrefix(subject, progress)
	if !found {
		return 0, false
	}
	return tableToken(rest)
}

// tableToken reads "t<N>", N a table number written as InSubject writes it.
func tableToken(s string) (int, bool) {
	digits, found := strings.CutPrefix(s, "t")
	n, err := strconv.Atoi(digits)
	if !found || err != nil || n < 1 || strconv.Itoa(n) != digits {
		return 0, false
	}
	return n, true
}
