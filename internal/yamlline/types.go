package yamlline

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// FieldErrors are yaml.v3's unmarshal errors said in a configuration file's words: yaml.v3
// names Go types ("line 1: field tabel not found in type daemon.Config"), which tell a person
// editing a YAML file nothing.
type FieldErrors struct {
	Lines []string // "line 1: unknown field "tabel""
	Err   *yaml.TypeError
}

func (e *FieldErrors) Error() string { return strings.Join(e.Lines, "\n") }
func (e *FieldErrors) Unwrap() error { return e.Err }

var (
	unknownField = regexp.MustCompile(`^(line \d+): field (.+) not found in type \S+$`)
	fieldTwice   = regexp.MustCompile(`^(line \d+): field (.+) already set in type \S+$`)
	cannotRead   = regexp.MustCompile("^(line \\d+): cannot unmarshal !!(\\w+)(?: `(.*)`)? into (\\S+)$")
)

// Plain rewrites the type errors in err in a configuration file's words; any other error is
// returned as it was.
func Plain(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err
	}
	out := &FieldErrors{Err: te}
	for _, e := range te.Errors {
		out.Lines = append(out.Lines, plainLine(e))
	}
	return out
}

func plainLine(e string) string {
	if m := unknownField.FindStringSubmatch(e); m != nil {
		return fmt.Sprintf("%s: unknown field %q", m[1], m[2])
	}
	if m := fieldTwice.FindStringSubmatch(e); m != nil {
		return fmt.Sprintf("%s: field %q given twice", m[1], m[2])
	}
	if m := cannotRead.FindStringSubmatch(e); m != nil {
		return fmt.Sprintf("%s: %s where %s belongs", m[1], valueWords(m[2], m[3]), typeWords(m[4]))
	}
	return e
}

// valueWords names a YAML value by its tag: !!str `abc` is "abc", !!seq a list.
func valueWords(tag, value string) string {
	switch tag {
	case "seq":
		return "a list"
	case "map":
		return "a mapping (key: value lines)"
	case "null":
		return "nothing"
	}
	if value == "" {
		return "a " + tag
	}
	return fmt.Sprintf("%q", value)
}

// typeWords names what a Go type holds, as a YAML file would say it.
func typeWords(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map["):
		return "a mapping (key: value lines)"
	case strings.HasSuffix(goType, "Duration"):
		return "a duration (like 300ms or 5s)"
	case strings.HasPrefix(goType, "int") || strings.HasPrefix(goType, "uint"):
		return "a whole number"
	case strings.HasPrefix(goType, "float"):
		return "a number"
	}
	switch goType {
	case "bool":
		return "true or false"
	case "string":
		return "text"
	}
	return "a mapping of fields" // a struct
}
