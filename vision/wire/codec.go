package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/area"
)

// requestJSON is a request as it stands on the line.
type requestJSON struct {
	Op    Op          `json:"op"`
	Face  *tile.Face  `json:"face,omitempty"`
	Faces []tile.Face `json:"faces,omitempty"`
	At    *time.Time  `json:"at,omitempty"`
	// Preview: a list, not an array, so that three corners are refused rather than read as four.
	Corners [][]float64 `json:"corners,omitempty"`
	Width   int         `json:"width,omitempty"`
	Height  int         `json:"height,omitempty"`
	Empty   bool        `json:"empty,omitempty"`
	Dir     string      `json:"dir,omitempty"`
}

// replyJSON is a reply as it stands on the line.
type replyJSON struct {
	Kind       Kind         `json:"kind"`
	Version    int          `json:"version,omitempty"`
	Mode       string       `json:"mode,omitempty"`
	Face       *tile.Face   `json:"face,omitempty"`
	Known      *bool        `json:"known,omitempty"`
	Confidence *float32     `json:"confidence,omitempty"`
	Why        string       `json:"why,omitempty"`
	Runner     *tile.Face   `json:"runner,omitempty"`
	Working    *bool        `json:"working,omitempty"`
	Problem    string       `json:"problem,omitempty"`
	Line       int          `json:"line,omitempty"`
	Error      string       `json:"error,omitempty"`
	At         *time.Time   `json:"at,omitempty"`
	Width      int          `json:"width,omitempty"`
	Height     int          `json:"height,omitempty"`
	JPEG       []byte       `json:"jpeg,omitempty"`
	Crops      []Recognised `json:"crops,omitempty"`
	Alike      []Alike      `json:"alike,omitempty"`
}

// MarshalJSON writes the request as its line says it (without the newline).
func (r Request) MarshalJSON() ([]byte, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	j := requestJSON{Op: r.Op}
	switch r.Op {
	case OpPut, OpTake:
		j.Face = &r.Face
	case OpLay, OpShow:
		j.Faces = r.Faces
	case OpCheck:
		j.Dir = r.Dir
	}
	if warps(r.Op) {
		for _, c := range r.Area.Corners {
			j.Corners = append(j.Corners, []float64{c[0], c[1]})
		}
		j.Width, j.Height = r.Area.Width, r.Area.Height
		j.Empty = r.Empty
	}
	if timed(r.Op) {
		j.At = &r.At
	}
	return json.Marshal(j)
}

// ParseRequest reads one request line (without its newline).
func ParseRequest(line []byte) (Request, error) {
	var j requestJSON
	if err := strict(line, &j); err != nil {
		return Request{}, err
	}
	r := Request{Op: j.Op, Faces: j.Faces, Empty: j.Empty, Dir: j.Dir}
	if j.Face != nil {
		r.Face = *j.Face
	}
	if j.At != nil {
		r.At = *j.At
	}
	if err := readArea(&r, j); err != nil {
		return Request{}, err
	}
	switch {
	case (r.Op == OpPut || r.Op == OpTake) != (j.Face != nil):
		if j.Face == nil {
			return Request{}, bad("%s needs a face", r.Op)
		}
		return Request{}, bad("%s takes no face", orUnknown(r.Op))
	case r.Op != OpLay && r.Op != OpShow && j.Faces != nil:
		return Request{}, bad("%s takes no faces", orUnknown(r.Op))
	case r.Op != OpCapture && j.Empty:
		return Request{}, bad("%s takes no empty", orUnknown(r.Op))
	case timed(r.Op) && j.At == nil:
		return Request{}, bad("%s needs at, the time of the move (RFC 3339)", r.Op)
	case !timed(r.Op) && validOp(r.Op) && j.At != nil:
		return Request{}, bad("%s takes no at", r.Op)
	}
	return r, r.check()
}

// timed says whether op moves tiles, and so says when.
func timed(op Op) bool {
	switch op {
	case OpPut, OpTake, OpClear, OpLay:
		return true
	}
	return false
}

func (r Request) check() error {
	if !validOp(r.Op) {
		return bad("op %q: want put, take, clear, lay, ping, snapshot, preview, capture, show or check", r.Op)
	}
	if warps(r.Op) {
		if err := r.Area.Validate(); err != nil {
			return bad("%s: %v", r.Op, err)
		}
	} else if r.Area != (area.Calibration{}) {
		return bad("%s takes no corners", r.Op)
	}
	if (r.Op == OpPut || r.Op == OpTake) && r.Face >= tile.NumFaces {
		return bad("%s: no such face %d", r.Op, r.Face)
	}
	if len(r.Faces) > MaxFaces {
		return bad("%s: %d faces, at most %d", r.Op, len(r.Faces), MaxFaces)
	}
	for _, f := range r.Faces {
		if f >= tile.NumFaces {
			return bad("%s: no such face %d", r.Op, f)
		}
	}
	if err := r.checkSetup(); err != nil {
		return err
	}
	if timed(r.Op) && r.At.IsZero() {
		return bad("%s: at is zero", r.Op)
	}
	if !timed(r.Op) && !r.At.IsZero() {
		return bad("%s takes no at", r.Op)
	}
	return nil
}

func validOp(op Op) bool {
	switch op {
	case OpPut, OpTake, OpClear, OpLay, OpPing, OpSnapshot, OpPreview, OpCapture, OpShow, OpCheck:
		return true
	}
	return false
}

func orUnknown(op Op) Op {
	if validOp(op) {
		return op
	}
	return Op(fmt.Sprintf("op %q", op))
}

// MarshalJSON writes the reply as its line says it (without the newline).
func (r Reply) MarshalJSON() ([]byte, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	j := replyJSON{Kind: r.Kind}
	switch r.Kind {
	case KindHello:
		j.Version, j.Mode = r.Version, r.Mode
	case KindSeen, KindTaken:
		j.Face, j.Known, j.Confidence, j.Why, j.At = &r.Face, &r.Known, &r.Confidence, r.Why, &r.At
		if r.Runner != tile.NoFace {
			j.Runner = &r.Runner
		}
	case KindStatus:
		j.Working, j.Problem, j.At = &r.Working, r.Problem, &r.At
	case KindDone:
		j.Line = r.Line
	case KindError:
		j.Line, j.Error = r.Line, r.Error
	case KindPicture:
		j.Width, j.Height, j.JPEG = r.Width, r.Height, r.JPEG
	case KindChecked:
		j.Crops, j.Alike = r.Crops, r.Alike
	}
	return json.Marshal(j)
}

// ParseReply reads one reply line (without its newline).
func ParseReply(line []byte) (Reply, error) {
	var j replyJSON
	if err := strict(line, &j); err != nil {
		return Reply{}, err
	}
	r := Reply{Kind: j.Kind, Version: j.Version, Mode: j.Mode, Why: j.Why, Problem: j.Problem, Line: j.Line, Error: j.Error, Runner: tile.NoFace,
		Width: j.Width, Height: j.Height, JPEG: j.JPEG, Crops: j.Crops, Alike: j.Alike}
	has := map[string]bool{"version": j.Version != 0, "mode": j.Mode != "", "face": j.Face != nil, "known": j.Known != nil,
		"confidence": j.Confidence != nil, "why": j.Why != "", "runner": j.Runner != nil, "working": j.Working != nil,
		"problem": j.Problem != "", "line": j.Line != 0, "error": j.Error != "", "at": j.At != nil,
		"width": j.Width != 0, "height": j.Height != 0, "jpeg": len(j.JPEG) > 0, "crops": j.Crops != nil, "alike": j.Alike != nil}
	var need, may []string
	switch r.Kind {
	case KindHello:
		need = []string{"version", "mode"}
	case KindSeen, KindTaken:
		need, may = []string{"face", "known", "confidence", "at"}, []string{"why", "runner"}
	case KindStatus:
		need, may = []string{"working", "at"}, []string{"problem"}
	case KindDone:
		need = []string{"line"}
	case KindError:
		need, may = []string{"error"}, []string{"line"}
	case KindPicture:
		need = []string{"width", "height", "jpeg"}
	case KindChecked:
		need, may = []string{"crops"}, []string{"alike"}
	default:
		return Reply{}, bad("kind %q: want hello, seen, taken, status, done, error, picture or checked", r.Kind)
	}
	for _, f := range need {
		if !has[f] {
			return Reply{}, bad("%s needs %s", r.Kind, f)
		}
		delete(has, f)
	}
	for _, f := range may {
		delete(has, f)
	}
	for _, f := range sortedTrue(has) {
		return Reply{}, bad("%s takes no %s", r.Kind, f)
	}
	if j.Face != nil {
		r.Face = *j.Face
	}
	if j.Known != nil {
		r.Known = *j.Known
	}
	if j.Confidence != nil {
		r.Confidence = *j.Confidence
	}
	if j.Runner != nil {
		r.Runner = *j.Runner
	}
	if j.Working != nil {
		r.Working = *j.Working
	}
	if j.At != nil {
		r.At = *j.At
	}
	return r, r.check()
}

func (r Reply) check() error {
	switch r.Kind {
	case KindHello:
		if r.Version < 1 || (r.Mode != ModeSim && r.Mode != ModeCamera) {
			return bad("hello: version %d, mode %q: want a version from 1 and mode sim or camera", r.Version, r.Mode)
		}
	case KindSeen, KindTaken:
		if r.Face >= tile.NumFaces || (r.Runner >= tile.NumFaces && r.Runner != tile.NoFace) {
			return bad("%s: no such face", r.Kind)
		}
		if math.IsNaN(float64(r.Confidence)) || r.Confidence < -1 || r.Confidence > 1 {
			return bad("%s: confidence %v is outside -1 to 1", r.Kind, r.Confidence)
		}
		switch {
		case r.Known && r.Why != "":
			return bad("%s: a known face has no why (%q)", r.Kind, r.Why)
		case !r.Known && r.Why != WhyFar && r.Why != WhyClose:
			return bad("%s: why %q: a face not known is %s or %s", r.Kind, r.Why, WhyFar, WhyClose)
		}
		if r.At.IsZero() {
			return bad("%s: at is zero", r.Kind)
		}
	case KindStatus:
		if r.At.IsZero() {
			return bad("status: at is zero")
		}
		if r.Working != (r.Problem == "") {
			return bad("status: working %v with problem %q: a problem is said when, and only when, not working", r.Working, r.Problem)
		}
	case KindDone:
		if r.Line < 1 {
			return bad("done: line %d: want the request's line, from 1", r.Line)
		}
	case KindError:
		if r.Line < 0 || r.Error == "" {
			return bad("error: line %d, error %q: want a line from 0 and what went wrong", r.Line, r.Error)
		}
	case KindPicture:
		if r.Width < 1 || r.Height < 1 || r.Width > 1<<14 || r.Height > 1<<14 {
			return bad("picture: %dx%d pixels: want 1 to 16384 each way", r.Width, r.Height)
		}
		if len(r.JPEG) > MaxPicture {
			return bad("picture: %d bytes, at most %d", len(r.JPEG), MaxPicture)
		}
		if !bytes.HasPrefix(r.JPEG, []byte{0xff, 0xd8, 0xff}) {
			return bad("picture: its jpeg does not begin as a JPEG does")
		}
	case KindChecked:
		return r.checkChecked()
	default:
		return bad("kind %q: want hello, seen, taken, status, done, error, picture or checked", r.Kind)
	}
	return nil
}

// strict decodes exactly one JSON object with no unknown fields.
func strict(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return bad("empty line")
		}
		return fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return bad("more than one JSON value on the line")
	}
	return nil
}

func sortedTrue(m map[string]bool) []string {
	var out []string
	for k, v := range m {
		if v {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
