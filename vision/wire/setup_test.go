package wire

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/area"
)

// The enrolment's requests and the check's answer read and write as their lines say them.
func TestSetupLines(t *testing.T) {
	a := area.Calibration{Corners: [4][2]float64{{102, 80}, {538.5, 76}, {560, 410}, {88, 418}}, Width: 640, Height: 480}
	for _, c := range []struct {
		line string
		want any
	}{
		{`{"op":"capture","corners":[[102,80],[538.5,76],[560,410],[88,418]],"width":640,"height":480,"empty":true}`, Request{Op: OpCapture, Area: a, Empty: true}},
		{`{"op":"capture","corners":[[102,80],[538.5,76],[560,410],[88,418]],"width":640,"height":480}`, Request{Op: OpCapture, Area: a}},
		{`{"op":"show","faces":["5D","J"]}`, Request{Op: OpShow, Faces: []tile.Face{tile.Dot5, tile.Joker}}},
		{`{"op":"show"}`, Request{Op: OpShow}},
		{`{"op":"check","dir":"/data/camera/enrolled"}`, Request{Op: OpCheck, Dir: "/data/camera/enrolled"}},
		{`{"kind":"checked","crops":[{"image":"01-5D.jpg","face":"5D","as":"5D","known":true}],"alike":[{"a":"F","b":"J","image_a":"02-F.jpg","image_b":"03-J.jpg","similarity":0.93}]}`,
			Reply{Kind: KindChecked, Runner: tile.NoFace, Crops: []Recognised{{Image: "01-5D.jpg", Face: tile.Dot5, As: tile.Dot5, Known: true}},
				Alike: []Alike{{A: tile.Flower, B: tile.Joker, ImageA: "02-F.jpg", ImageB: "03-J.jpg", Similarity: 0.93}}}},
	} {
		var got any
		var err error
		var back []byte
		if _, ok := c.want.(Request); ok {
			var q Request
			q, err = ParseRequest([]byte(c.line))
			got = q
			if err == nil {
				back, err = q.MarshalJSON()
			}
		} else {
			var r Reply
			r, err = ParseReply([]byte(c.line))
			got = r
			if err == nil {
				back, err = r.MarshalJSON()
			}
		}
		if err != nil {
			t.Errorf("%s: %v", c.line, err)
			continue
		}
		if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.line, got, c.want)
		}
		if string(back) != c.line {
			t.Errorf("%+v writes %s, want %s", got, back, c.line)
		}
	}
}

func TestBadSetupLinesSayWhy(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"op":"capture"}`, "capture: 0 corners"},
		{`{"op":"capture","corners":[[0,0],[10,0],[10,10],[0,10]],"width":64}`, "capture needs width and height"},
		{`{"op":"snapshot","empty":true}`, "snapshot takes no empty"},
		{`{"op":"put","face":"5D","faces":["5D"],"at":"2026-11-23T19:00:00Z"}`, "put takes no faces"},
		{`{"op":"show","faces":["5Q"]}`, `"5Q"`},
		{`{"op":"check"}`, `check: dir "": want the enrolment folder's absolute path`},
		{`{"op":"check","dir":"camera/enrolled"}`, "absolute path"},
		{`{"op":"ping","dir":"/x"}`, "ping takes no dir"},
		{`{"kind":"checked"}`, "checked needs crops"},
		{`{"kind":"checked","crops":[{"image":"","face":"5D","as":"5D","known":true}]}`, "crop 0"},
		{`{"kind":"checked","crops":[{"image":"a","face":"5D","as":"5D","known":true}],"alike":[{"a":"F","b":"J","image_a":"x","image_b":"y","similarity":3}]}`, "alike pair 0"},
		{`{"kind":"checked","crops":[{"image":"a","face":"5D","as":"5D","known":true}],"line":3}`, "checked takes no line"},
	} {
		var err error
		if strings.Contains(c.line, `"op"`) {
			_, err = ParseRequest([]byte(c.line))
		} else {
			_, err = ParseReply([]byte(c.line))
		}
		if err == nil || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an ErrSyntax saying %q", c.line, err, c.want)
		}
	}
}
