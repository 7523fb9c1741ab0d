package watch

import (
	"fmt"
	"image"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/calib"
	"github.com/siamesetable/siamesed/vision/wire"
)

// The set-up page's pictures: the camera's latest frame (snapshot), and the top-down view of
// it through corners the owner is still placing (preview), warped by vision/calib as the
// worker warps with the saved calibration.

// LatestFrame copies the camera's latest frame into dst.
type LatestFrame func(dst *gocv.Mat) error

// PictureOps answer snapshot and preview requests with a picture of latest's frame.
func PictureOps(latest LatestFrame) Ops {
	h := func(q wire.Request) ([]wire.Reply, error) {
		rep, err := picture(latest, q)
		if err != nil {
			return nil, err
		}
		return []wire.Reply{rep}, nil
	}
	return Ops{wire.OpSnapshot: h, wire.OpPreview: h}
}

// with is ops and more's handlers together (more's win for an op in both).
func (ops Ops) with(more Ops) Ops {
	out := Ops{}
	for op, h := range ops {
		out[op] = h
	}
	for op, h := range more {
		out[op] = h
	}
	return out
}

// picture is the snapshot or preview q asks for.
func picture(latest LatestFrame, q wire.Request) (wire.Reply, error) {
	frame := gocv.NewMat()
	defer frame.Close()
	if err := latest(&frame); err != nil {
		return wire.Reply{}, err
	}
	if q.Op == wire.OpSnapshot {
		return encodePicture(frame)
	}
	if err := inFrame(q.Area, frame); err != nil {
		return wire.Reply{}, err
	}
	warper, err := calib.NewWarper(q.Area)
	if err != nil {
		return wire.Reply{}, err
	}
	defer warper.Close()
	view := gocv.NewMat()
	defer view.Close()
	warper.WarpTo(frame, &view, previewSize(q.Area.Size()))
	return encodePicture(view)
}

// maxPreview bounds a preview's longer side: it is for the eye, and a view of 8192 pixels a
// side would take the worker some 200 MB.
const maxPreview = 1600

// previewSize is the view's size, scaled down to maxPreview if larger.
func previewSize(view image.Point) image.Point {
	long := max(view.X, view.Y)
	if long <= maxPreview {
		return view
	}
	return image.Pt(max(1, view.X*maxPreview/long), max(1, view.Y*maxPreview/long))
}

// encodePicture is m as a JPEG picture, at a lower quality if it would not fit a reply.
func encodePicture(m gocv.Mat) (wire.Reply, error) {
	for _, quality := range []int{85, 60, 35} {
		buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, m, []int{gocv.IMWriteJpegQuality, quality})
		if err != nil {
			return wire.Reply{}, fmt.Errorf("encoding a picture: %w", err)
		}
		b := append([]byte(nil), buf.GetBytes()...)
		buf.Close()
		if len(b) <= wire.MaxPicture {
			return wire.Reply{Kind: wire.KindPicture, Width: m.Cols(), Height: m.Rows(), JPEG: b}, nil
		}
	}
	return wire.Reply{}, fmt.Errorf("a %dx%d picture does not fit in %d bytes", m.Cols(), m.Rows(), wire.MaxPicture)
}
