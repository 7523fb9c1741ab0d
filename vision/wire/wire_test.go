package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/area"
)

var at = time.Date(2026, 11, 23, 19, 0, 0, 250_000_000, time.UTC)

func TestRequestLines(t *testing.T) {
	for _, c := range []struct {
		line string
		want Request
	}{
		{`{"op":"put","face":"5D","at":"2026-11-23T19:00:00.25Z"}`, Request{Op: OpPut, Face: tile.Dot5, At: at}},
		{`{"op":"take","face":"j","at":"2026-11-23T19:00:00.25Z"}`, Request{Op: OpTake, Face: tile.Joker, At: at}},
		{`{"op":"clear","at":"2026-11-23T19:00:00.25Z"}`, Request{Op: OpClear, At: at}},
		{`{"op":"lay","faces":["1B","F"],"at":"2026-11-23T19:00:00.25Z"}`, Request{Op: OpLay, Faces: []tile.Face{tile.Bam1, tile.Flower}, At: at}},
		{`{"op":"lay","at":"2026-11-23T19:00:00.25Z"}`, Request{Op: OpLay, At: at}},
		{`{"op":"ping"}`, Request{Op: OpPing}},
		{`{"op":"snapshot"}`, Request{Op: OpSnapshot}},
		{`{"op":"preview","corners":[[102,80],[538.5,76],[560,410],[88,418]],"width":640,"height":480}`,
			Request{Op: OpPreview, Area: area.Calibration{Corners: [4][2]float64{{102, 80}, {538.5, 76}, {560, 410}, {88, 418}}, Width: 640, Height: 480}}},
	} {
		got, err := ParseRequest([]byte(c.line))
		if err != nil {
			t.Errorf("%s: %v", c.line, err)
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) || !got.At.Equal(c.want.At) {
			t.Errorf("%s: got %+v, want %+v", c.line, got, c.want)
		}
		back, err := got.MarshalJSON()
		if err != nil || !strings.EqualFold(string(back), c.line) {
			t.Errorf("%+v writes %s (%v), want %s", got, back, err, c.line)
		}
	}
}

func TestBadRequestsSayWhy(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{``, "empty line"},
		{`put 5D`, "invalid character"},
		{`{"op":"jump","at":"2026-11-23T19:00:00Z"}`, `op "jump": want put, take, clear, lay, ping, snapshot, preview, capture, show or check`},
		{`{"op":"put","at":"2026-11-23T19:00:00Z"}`, "put needs a face"},
		{`{"op":"put","face":"5Q","at":"2026-11-23T19:00:00Z"}`, `"5Q" (want 1B..9B`},
		{`{"op":"put","face":"5D"}`, "put needs at"},
		{`{"op":"put","face":"5D","at":"yesterday"}`, `parsing time "yesterday"`},
		{`{"op":"put","face":"5D","at":"0001-01-01T00:00:00Z"}`, "at is zero"},
		{`{"op":"clear","face":"5D","at":"2026-11-23T19:00:00Z"}`, "clear takes no face"},
		{`{"op":"put","faces":["5D"],"face":"5D","at":"2026-11-23T19:00:00Z"}`, "put takes no faces"},
		{`{"op":"ping","at":"2026-11-23T19:00:00Z"}`, "ping takes no at"},
		{`{"op":"ping","colour":"red"}`, `unknown field "colour"`},
		{`{"op":"ping"} {"op":"ping"}`, "more than one JSON value"},
		{`{"op":"snapshot","at":"2026-11-23T19:00:00Z"}`, "snapshot takes no at"},
		{`{"op":"snapshot","width":640}`, "snapshot takes no corners, width or height"},
		{`{"op":"ping","corners":[[0,0]]}`, "ping takes no corners"},
		{`{"op":"preview","corners":[[10,10],[600,10],[600,400]],"width":640,"height":480}`, "3 corners: want 4"},
		{`{"op":"preview","corners":[[10,10],[600,10],[600,400],[10,400],[5,5]],"width":640,"height":480}`, "5 corners: want 4"},
		{`{"op":"preview","corners":[[10,10],[600,10],[600,400],[10]],"width":640,"height":480}`, "corner 3 has 1 numbers"},
		{`{"op":"preview","corners":[[10,10],[600,10],[600,400],[10,400]]}`, "preview needs width and height"},
		{`{"op":"preview","corners":[[10,10],[600,400],[600,10],[10,400]],"width":640,"height":480}`, "convex quadrilateral"},
		{`{"op":"preview","corners":[[-10,10],[600,10],[600,400],[10,400]],"width":640,"height":480}`, "corner 0 (-10,10) outside"},
		{`{"op":"preview","corners":[[10,10],[600,10],[600,400],[10,400]],"width":640,"height":9000}`, "height 9000 not in 16..8192"},
		{`{"op":"preview","corners":[[10,10],[600,10],[600,400],[10,400]],"width":640,"height":480,"at":"2026-11-23T19:00:00Z"}`, "preview takes no at"},
		{`{"op":"lay","faces":[` + strings.Repeat(`"1B",`, MaxFaces) + `"1B"],"at":"2026-11-23T19:00:00Z"}`, "305 faces, at most 304"},
	} {
		_, err := ParseRequest([]byte(c.line))
		if err == nil || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.60s: %v, want an ErrSyntax saying %q", c.line, err, c.want)
		}
	}
}

func TestReplyLines(t *testing.T) {
	for _, c := range []struct {
		line string
		want Reply
	}{
		{`{"kind":"hello","version":1,"mode":"sim"}`, Reply{Kind: KindHello, Version: 1, Mode: ModeSim}},
		{`{"kind":"seen","face":"5D","known":true,"confidence":0.92,"runner":"6D","at":"2026-11-23T19:00:00.25Z"}`,
			Reply{Kind: KindSeen, Face: tile.Dot5, Known: true, Confidence: 0.92, Runner: tile.Dot6, At: at}},
		{`{"kind":"taken","face":"J","known":false,"confidence":0.01,"why":"far","at":"2026-11-23T19:00:00.25Z"}`,
			Reply{Kind: KindTaken, Face: tile.Joker, Confidence: 0.01, Why: WhyFar, Runner: tile.NoFace, At: at}},
		{`{"kind":"status","working":false,"problem":"camera 0 gives no frames","at":"2026-11-23T19:00:00.25Z"}`,
			Reply{Kind: KindStatus, Problem: "camera 0 gives no frames", Runner: tile.NoFace, At: at}},
		{`{"kind":"status","working":true,"at":"2026-11-23T19:00:00.25Z"}`, Reply{Kind: KindStatus, Working: true, Runner: tile.NoFace, At: at}},
		{`{"kind":"done","line":7}`, Reply{Kind: KindDone, Line: 7, Runner: tile.NoFace}},
		{`{"kind":"error","line":3,"error":"no 5D lies in the discard area"}`, Reply{Kind: KindError, Line: 3, Error: "no 5D lies in the discard area", Runner: tile.NoFace}},
		{`{"kind":"picture","width":2,"height":1,"jpeg":"/9j/4AAQ"}`, Reply{Kind: KindPicture, Width: 2, Height: 1, JPEG: []byte{0xff, 0xd8, 0xff, 0xe0, 0, 0x10}, Runner: tile.NoFace}},
	} {
		got, err := ParseReply([]byte(c.line))
		if err != nil {
			t.Errorf("%s: %v", c.line, err)
			continue
		}
		if c.want.Kind == KindHello {
			c.want.Runner = tile.NoFace
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) || !got.At.Equal(c.want.At) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.line, got, c.want)
		}
		back, err := got.MarshalJSON()
		if err != nil || string(back) != c.line {
			t.Errorf("%+v writes %s (%v), want %s", got, back, err, c.line)
		}
	}
}

func TestBadRepliesSayWhy(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"kind":"hi"}`, `kind "hi"`},
		{`{"kind":"hello","version":1}`, "hello needs mode"},
		{`{"kind":"hello","version":1,"mode":"dream"}`, `mode "dream"`},
		{`{"kind":"seen","face":"5D","known":true,"confidence":0.9}`, "seen needs at"},
		{`{"kind":"seen","face":"5D","known":true,"confidence":0.9,"why":"far","at":"2026-11-23T19:00:00Z"}`, "a known face has no why"},
		{`{"kind":"seen","face":"5D","known":false,"confidence":0.9,"at":"2026-11-23T19:00:00Z"}`, `why "": a face not known is far or close`},
		{`{"kind":"seen","face":"5D","known":true,"confidence":7,"at":"2026-11-23T19:00:00Z"}`, "confidence 7 is outside"},
		{`{"kind":"seen","face":"5D","known":true,"confidence":1,"line":2,"at":"2026-11-23T19:00:00Z"}`, "seen takes no line"},
		{`{"kind":"status","working":true,"problem":"dark","at":"2026-11-23T19:00:00Z"}`, "only when, not working"},
		{`{"kind":"status","working":false,"at":"2026-11-23T19:00:00Z"}`, "only when, not working"},
		{`{"kind":"done"}`, "done needs line"},
		{`{"kind":"done","line":-2}`, "line -2"},
		{`{"kind":"error","line":2}`, "error needs error"},
		{`{"kind":"picture","width":2,"height":1}`, "picture needs jpeg"},
		{`{"kind":"picture","width":2,"jpeg":"/9j/4AAQ"}`, "picture needs height"},
		{`{"kind":"picture","width":2,"height":1,"line":4,"jpeg":"/9j/4AAQ"}`, "picture takes no line"},
		{`{"kind":"picture","width":20000,"height":1,"jpeg":"/9j/4AAQ"}`, "20000x1 pixels"},
		{`{"kind":"picture","width":2,"height":1,"jpeg":"iVBORw0K"}`, "does not begin as a JPEG does"},
		{`{"kind":"picture","width":2,"height":1,"jpeg":"not base64!"}`, "illegal base64"},
		{`{"kind":"done","line":1,"jpeg":"/9j/4AAQ"}`, "done takes no jpeg"},
	} {
		_, err := ParseReply([]byte(c.line))
		if err == nil || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an ErrSyntax saying %q", c.line, err, c.want)
		}
	}
}

// The reader names each bad line and reads on; a line too long is skipped whole.
func TestReaderNamesTheLineAndGoesOn(t *testing.T) {
	in := `{"op":"ping"}` + "\n" +
		"nonsense\n" +
		`{"op":"put","face":"5D","at":"2026-11-23T19:00:00Z"}` + "\r\n" +
		strings.Repeat("x", MaxLine+10) + "\n" +
		`{"op":"ping"}` // no newline at the end
	r := NewReader(strings.NewReader(in))
	var got []string
	for {
		q, err := r.Request()
		if errors.Is(err, io.EOF) {
			break
		}
		var le *LineError
		switch {
		case errors.As(err, &le):
			got = append(got, fmt.Sprintf("%d:error", le.Line))
		case err != nil:
			t.Fatal(err)
		default:
			got = append(got, fmt.Sprintf("%d:%s", r.Line(), q.Op))
		}
	}
	if want := "1:ping 2:error 3:put 4:error 5:ping"; strings.Join(got, " ") != want {
		t.Errorf("read %v, want %s", got, want)
	}
	_, err := NewReader(strings.NewReader("nonsense\n")).Request()
	if err == nil || !strings.HasPrefix(err.Error(), "wire: line 1: ") {
		t.Errorf("%v, want it to start with wire: line 1:", err)
	}
}

// Lines written from several goroutines never interleave.
func TestWriterKeepsLinesWhole(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 50 {
				if err := w.Reply(Reply{Kind: KindStatus, Working: i%2 == 0, Problem: map[bool]string{true: "", false: strings.Repeat("dark ", 40)}[i%2 == 0], At: at}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	r := NewReader(strings.NewReader(b.String()))
	for n := 0; ; n++ {
		if _, err := r.Reply(); err != nil {
			if !errors.Is(err, io.EOF) || n != 400 {
				t.Fatalf("after %d lines: %v", n, err)
			}
			break
		}
	}
	if err := w.Reply(Reply{Kind: KindDone}); err == nil {
		t.Error("a done with no line written")
	}
}

// The daemon imports this package: it must not bring OpenCV in.
func TestNoOpenCV(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Skipf("go list: %v: %s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "gocv.io/") || dep == "C" || dep == "runtime/cgo" {
			t.Errorf("wire depends on %s", dep)
		}
	}
	if len(out) == 0 {
		t.Fatal("go list printed nothing")
	}
}

func FuzzParseRequest(f *testing.F) {
	f.Add([]byte(`{"op":"put","face":"5D","at":"2026-11-23T19:00:00.25Z"}`))
	f.Add([]byte(`{"op":"lay","faces":["1B","F"],"at":"2026-11-23T19:00:00+01:00"}`))
	f.Add([]byte(`{"op":"ping"}`))
	f.Add([]byte(`{"op":"take","face":"0","at":"2026-11-23T19:00:00Z"}`))
	f.Add([]byte(`{"op":"snapshot"}`))
	f.Add([]byte(`{"op":"preview","corners":[[102,80],[538.5,76],[560,410],[88,418]],"width":640,"height":480}`))
	f.Add([]byte(`{"op":"preview","corners":[[1e-300,80],[538.5,76],[560,410]],"width":-1,"height":480}`))
	f.Add([]byte(`{"op":"capture","corners":[[102,80],[538.5,76],[560,410],[88,418]],"width":640,"height":480,"empty":true}`))
	f.Add([]byte(`{"op":"show","faces":["E","J"]}`))
	f.Add([]byte(`{"op":"check","dir":"/data/camera/enrolled"}`))
	f.Fuzz(func(t *testing.T, line []byte) { roundTrip(t, line, ParseRequest) })
}

func FuzzParseReply(f *testing.F) {
	f.Add([]byte(`{"kind":"hello","version":1,"mode":"sim"}`))
	f.Add([]byte(`{"kind":"seen","face":"5D","known":true,"confidence":0.92,"runner":"6D","at":"2026-11-23T19:00:00.25Z"}`))
	f.Add([]byte(`{"kind":"taken","face":"J","known":false,"confidence":0.01,"why":"close","runner":"F","at":"2026-11-23T19:00:00Z"}`))
	f.Add([]byte(`{"kind":"status","working":false,"problem":"no frames","at":"2026-11-23T19:00:00Z"}`))
	f.Add([]byte(`{"kind":"error","error":"x"}`))
	f.Add([]byte(`{"kind":"picture","width":2,"height":1,"jpeg":"/9j/4AAQ"}`))
	f.Add([]byte(`{"kind":"checked","crops":[{"image":"a.jpg","face":"5D","as":"6D","known":false}],"alike":[{"a":"F","b":"J","image_a":"x","image_b":"y","similarity":0.9}]}`))
	f.Fuzz(func(t *testing.T, line []byte) { roundTrip(t, line, ParseReply) })
}

// roundTrip: a line either is refused as ErrSyntax, or reads as a message that writes a line
// reading back as the same message.
func roundTrip[M json.Marshaler](t *testing.T, line []byte, parse func([]byte) (M, error)) {
	r, err := parse(line)
	if err != nil {
		if !errors.Is(err, ErrSyntax) {
			t.Fatalf("%q: %v is not an ErrSyntax", line, err)
		}
		return
	}
	b, err := r.MarshalJSON()
	if err != nil {
		t.Fatalf("%q read as %+v, which does not write: %v", line, r, err)
	}
	back, err := parse(b)
	if err != nil {
		t.Fatalf("%s does not read back: %v", b, err)
	}
	if b2, _ := back.MarshalJSON(); string(b2) != string(b) {
		t.Fatalf("%s reads back as %s", b, b2)
	}
}

// FuzzReader: any bytes read as lines never panic, and the line numbers go up one at a time.
func FuzzReader(f *testing.F) {
	f.Add([]byte("{\"op\":\"ping\"}\nx\n\n{\"op\":\"clear\",\"at\":\"2026-11-23T19:00:00Z\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(strings.NewReader(string(data)))
		for last := 0; ; {
			_, err := r.Request()
			if errors.Is(err, io.EOF) {
				return
			}
			var le *LineError
			if err != nil && !errors.As(err, &le) {
				t.Fatal(err)
			}
			if r.Line() != last+1 {
				t.Fatalf("line %d after %d", r.Line(), last)
			}
			last = r.Line()
		}
	})
}

// A picture's line is far longer than a request's: the reader takes it as a reply, and a
// request as long, or a reply past MaxReplyLine, is an error naming its line, read past.
func TestPictureLines(t *testing.T) {
	jpeg := append([]byte{0xff, 0xd8, 0xff}, make([]byte, 3*MaxLine)...)
	var b strings.Builder
	w := NewWriter(&b)
	if err := w.Reply(Reply{Kind: KindPicture, Width: 640, Height: 480, JPEG: jpeg}); err != nil {
		t.Fatal(err)
	}
	if err := w.Reply(Reply{Kind: KindPicture, Width: 640, Height: 480, JPEG: make([]byte, MaxPicture+1)}); err == nil {
		t.Fatal("a picture past MaxPicture was written")
	}
	b.WriteString(`{"kind":"picture","width":1,"height":1,"jpeg":"` + strings.Repeat("A", MaxReplyLine) + "\"}\n")
	if err := w.Reply(Reply{Kind: KindDone, Line: 1}); err != nil {
		t.Fatal(err)
	}
	r := NewReader(strings.NewReader(b.String()))
	got, err := r.Reply()
	if err != nil || got.Kind != KindPicture || !slices.Equal(got.JPEG, jpeg) {
		t.Fatalf("the picture: %v %v (%d bytes)", got.Kind, err, len(got.JPEG))
	}
	var le *LineError
	if _, err := r.Reply(); !errors.As(err, &le) || le.Line != 2 || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("a reply past MaxReplyLine: %v", err)
	}
	if got, err := r.Reply(); err != nil || got.Kind != KindDone || r.Line() != 3 {
		t.Fatalf("after it: %+v %v at line %d", got, err, r.Line())
	}
	if _, err := NewReader(strings.NewReader(b.String())).Request(); !errors.As(err, &le) || le.Line != 1 || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("a picture's line read as a request: %v", err)
	}
}
