// Package wire is the protocol between the daemon and its camera worker (`siamesed-vision vision
// watch`): JSON lines, requests on the worker's stdin and replies on its stdout, one object a
// line (docs/vision.md, "The camera worker"). It is pure Go, so the daemon speaks it without
// linking OpenCV.
//
// The worker says hello once it is ready, then reports what it sees: seen and taken events and
// its status. In sim mode the daemon tells it what the simulated players' hands do (put, take,
// clear, lay) and the worker answers each request with the events its frames gave and then done,
// naming the request's line; a line it cannot read gets an error naming that line, and the
// worker carries on. In any mode the set-up page's camera section asks for pictures: the
// camera's latest frame (snapshot), or its top-down view through corners not saved yet
// (preview), each answered with a picture and then done.
package wire

import (
	"errors"
	"fmt"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/area"
)

// Version is the protocol's version, sent in hello. A change that an older reader would
// misread takes a new version.
const Version = 1

// MaxLine is the longest request line, and the longest reply line but a picture's, newline
// included.
const MaxLine = 64 << 10

// MaxPicture bounds a picture's JPEG, in bytes; MaxReplyLine, the longest reply line, holds one
// in base64.
const (
	MaxPicture   = 3 << 20
	MaxReplyLine = MaxLine + (MaxPicture+2)/3*4
)

// MaxFaces bounds the faces of one lay request: two full sets.
const MaxFaces = 304

// ErrSyntax is wrapped by every error about a line's content, for errors.Is.
var ErrSyntax = errors.New("wire: bad line")

// Op is what a request asks.
type Op string

// The requests.
const (
	// OpPut (sim): a hand lays Face in the discard area at At.
	OpPut Op = "put"
	// OpTake (sim): a hand takes a tile of Face from the discard area at At.
	OpTake Op = "take"
	// OpClear (sim): every tile leaves the discard area at At (the players push the tiles back
	// to the wall for the next game).
	OpClear Op = "clear"
	// OpLay (sim): Faces lie in the discard area already (a worker restarted during a game): the
	// worker lays them and reports nothing about them.
	OpLay Op = "lay"
	// OpPing: answered with done, in any mode.
	OpPing Op = "ping"
	// OpSnapshot: the camera's latest frame, whole, as a picture; then done.
	OpSnapshot Op = "snapshot"
	// OpPreview: the top-down view of the camera's latest frame through Area (corners not saved
	// yet), as a picture; then done.
	OpPreview Op = "preview"
	// OpCapture (set-up, enrolment): the camera's frames through Area, watched until they agree
	// (the area is still); with Empty, the still view is kept as the empty area and answered as
	// a picture; without, the one tile lying there alone is answered as a picture of its crop.
	// No tile, more than one, or a view that will not settle is an error saying so.
	OpCapture Op = "capture"
	// OpShow (sim, set-up): the simulated area shows Faces lying alone in it (none: empty), as a
	// player lays a tile to enrol; the game's watcher is not told. Then done.
	OpShow Op = "show"
	// OpCheck (set-up): the enrolment folder Dir (labels.csv, images/) checked with the model:
	// each crop as the model names it, and the faces it holds alike (checked); then done.
	OpCheck Op = "check"
)

// Request is one line from the daemon to the worker.
type Request struct {
	Op    Op
	Face  tile.Face   // put, take
	Faces []tile.Face // lay
	// At is when the hand moves: the daemon's clock, simulated in a soak. Every op but ping has
	// one; events report At plus the time the view took to settle.
	At time.Time
	// Area is the calibration a preview or capture warps with (vision/area; valid).
	Area area.Calibration
	// Empty (capture): keep the still view as the empty area, the reference tiles differ from.
	Empty bool
	// Dir (check): the enrolment folder, an absolute path on the worker's machine.
	Dir string
}

// Kind names a reply.
type Kind string

// The replies.
const (
	KindHello  Kind = "hello"  // ready: Version, Mode
	KindSeen   Kind = "seen"   // a tile arrived in the discard area and stayed
	KindTaken  Kind = "taken"  // a tile seen there left
	KindStatus Kind = "status" // Working, Problem, At
	KindDone   Kind = "done"   // the request on Line is answered
	KindError  Kind = "error"  // the request on Line (0: none) was not done: Error says why
	// KindPicture answers a snapshot or preview (the oldest request not yet done): Width x
	// Height pixels, JPEG.
	KindPicture Kind = "picture"
	// KindChecked answers a check: Crops, each enrolled crop as the model names it, and Alike,
	// the faces it holds alike.
	KindChecked Kind = "checked"
)

// The modes a worker says hello in.
const (
	ModeSim    = "sim"
	ModeCamera = "camera"
)

// Why a seen face is not known (classify.Reason's words).
const (
	WhyFar   = "far"   // like no enrolled face: ask which tile it is, or whether it is a tile
	WhyClose = "close" // as like Runner as Face: ask which of the two
)

// Reply is one line from the worker to the daemon.
type Reply struct {
	Kind Kind
	// Hello.
	Version int
	Mode    string
	// Seen and taken: the face as the camera named it when it arrived, whether it is sure
	// (Known; else Why is WhyFar or WhyClose), the margin over the runner-up face, and when
	// the view settled.
	Face       tile.Face
	Known      bool
	Confidence float32
	Why        string
	Runner     tile.Face // NoFace: none
	At         time.Time // also status
	// Status.
	Working bool
	Problem string
	// Done and error: the request's line, counted from 1 on the worker's stdin.
	Line  int
	Error string
	// Picture: its size in pixels and its JPEG (at most MaxPicture bytes).
	Width, Height int
	JPEG          []byte
	// Checked.
	Crops []Recognised
	Alike []Alike
}

// Recognised is one enrolled crop (Image, of Face) as the model names it (As, its nearest face)
// against the rest of the enrolment, and whether it is sure.
type Recognised struct {
	Image string    `json:"image"`
	Face  tile.Face `json:"face"`
	As    tile.Face `json:"as"`
	Known bool      `json:"known"`
}

// Alike is two enrolled faces the model holds alike: their closest crops, and how alike.
type Alike struct {
	A          tile.Face `json:"a"`
	B          tile.Face `json:"b"`
	ImageA     string    `json:"image_a"`
	ImageB     string    `json:"image_b"`
	Similarity float32   `json:"similarity"`
}

// IsEvent says whether r is a seen or taken event.
func (r Reply) IsEvent() bool { return r.Kind == KindSeen || r.Kind == KindTaken }

// LineError is a line that could not be read, with its number.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("wire: line %d: %v", e.Line, e.Err) }

func (e *LineError) Unwrap() error { return e.Err }

func bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrSyntax, fmt.Sprintf(format, a...))
}
