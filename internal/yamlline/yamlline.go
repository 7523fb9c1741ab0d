// Package yamlline finds the line a YAML indentation mistake is really on. For a mis-indented
// line, yaml.v3 names the line where the enclosing block starts ("line 2: did not find expected
// '-' indicator" for a slip on line 4), which sends a person looking in the wrong place.
package yamlline

import (
	"bytes"
	"fmt"
	"strings"
)

// Error is a YAML mistake with the line it is on.
type Error struct {
	Line int    // 1-based
	Msg  string // what is wrong there
	Err  error  // the parser's own error
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }
func (e *Error) Unwrap() error { return e.Err }

// Explain returns err with the line of the first indentation mistake in data, when it finds one,
// else err in a configuration file's words (Plain). Call it only with an error the YAML parser
// gave for data.
func Explain(data []byte, err error) error {
	if err == nil {
		return nil
	}
	if e := Check(data); e != nil {
		e.Err = err
		return e
	}
	return Plain(err)
}

// Check finds the first line whose indentation fits no block above it: a key or item deeper
// than a line that opens nothing, or back out to a depth no enclosing block has, or indented
// with a tab. It blames only lines it is sure of: continuation lines of a plain or quoted
// scalar, block scalars and flow collections spread over lines are passed over.
func Check(data []byte) *Error {
	var levels []int // indentations of the open blocks
	opens := false   // the line before opens a block (ends with ":" or "- ")
	scalar := -1     // inside a block scalar (| or >) of a key at this indentation
	var carry lineState
	for i, raw := range bytes.Split(data, []byte("\n")) {
		line := strings.TrimRight(string(raw), " \r")
		content := strings.TrimLeft(line, " ")
		indent := len(line) - len(content)
		if carry.open() { // inside a quoted string or flow collection begun above
			carry = carry.scan(content)
			continue
		}
		if strings.TrimLeft(content, " \t") == "" || (scalar >= 0 && indent > scalar) {
			continue
		}
		scalar = -1
		if strings.HasPrefix(content, "\t") {
			if keyLine(strings.TrimLeft(content, " \t")) {
				return &Error{Line: i + 1, Msg: "a tab in the indentation (YAML indents with spaces only)"}
			}
			continue
		}
		if strings.HasPrefix(content, "#") || strings.HasPrefix(content, "---") || strings.HasPrefix(content, "...") || strings.HasPrefix(content, "%") {
			continue
		}
		if levels == nil {
			if indent > 0 {
				return nil // a document indented as a whole: not how config files are written
			}
			levels = []int{0}
		}
		top := levels[len(levels)-1]
		switch {
		case indent > top && !opens:
			if isKey(content) { // a plain scalar may run on over lines, but holds no "key: "
				return &Error{Line: i + 1, Msg: fmt.Sprintf("indented %d spaces, deeper than the line above allows (%d)", indent, top)}
			}
			return nil // the rest of a plain scalar from the line above: too loose to judge
		case indent > top:
			levels = append(levels, indent)
		case indent < top:
			for len(levels) > 1 && levels[len(levels)-1] > indent {
				levels = levels[:len(levels)-1]
			}
			if levels[len(levels)-1] != indent && keyLine(content) {
				return &Error{Line: i + 1, Msg: fmt.Sprintf("indented %d spaces, which lines up with no block above (%d)", indent, levels[len(levels)-1])}
			}
		}
		body := stripComment(content)
		for strings.HasPrefix(body, "- ") || body == "-" {
			// An item: a mapping in it continues at the column its content starts in; an empty
			// item opens a block at any deeper column.
			rest := strings.TrimLeft(strings.TrimPrefix(body, "-"), " ")
			indent += len(body) - len(rest)
			if rest != "" {
				levels = append(levels, indent)
			}
			body = rest
		}
		opens = body == "" || strings.HasSuffix(body, ":")
		if strings.HasSuffix(body, "|") || strings.HasSuffix(body, ">") || strings.HasSuffix(body, "|-") || strings.HasSuffix(body, ">-") {
			scalar = indent
		}
		carry = carry.scan(body)
	}
	return nil
}

// keyLine: a line that holds a mapping key, alone or as a sequence item ("- zone: in").
func keyLine(s string) bool {
	for strings.HasPrefix(s, "- ") {
		s = strings.TrimLeft(s[1:], " ")
	}
	return isKey(s)
}

// isKey: a line that starts with a mapping key ("name: a", "cells:").
func isKey(s string) bool {
	s = stripComment(s)
	if strings.HasPrefix(s, "\"") || strings.HasPrefix(s, "'") || strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") || strings.HasPrefix(s, "- ") {
		return false
	}
	k, _, ok := strings.Cut(s, ":")
	return ok && k != "" && !strings.ContainsAny(k, " \t") && (strings.HasSuffix(s, ":") || strings.Contains(s, ": "))
}

// lineState carries an open quote or flow collection from one line to the next.
type lineState struct {
	quote byte
	depth int
}

func (st lineState) open() bool { return st.quote != 0 || st.depth > 0 }

// scan follows quotes and brackets through one line's text.
func (st lineState) scan(s string) lineState {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case st.quote == '"' && c == '\\':
			i++
		case st.quote != 0:
			if c == st.quote {
				st.quote = 0
			}
		case c == '#' && (i == 0 || s[i-1] == ' '):
			return st
		case c == '"' || (c == '\'' && (i == 0 || strings.ContainsRune(" [{,:", rune(s[i-1])))):
			st.quote = c
		case c == '{' || c == '[':
			st.depth++
		case (c == '}' || c == ']') && st.depth > 0:
			st.depth--
		}
	}
	return st
}

// stripComment drops a trailing " # comment" outside quotes.
func stripComment(s string) string {
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#' && (i == 0 || s[i-1] == ' '):
			return strings.TrimRight(s[:i], " ")
		}
	}
	return s
}
