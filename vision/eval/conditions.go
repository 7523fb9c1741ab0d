package eval

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/detect"
	"github.com/siamesetable/siamesed/vision/labels"
)

// Condition is one way a real table's crop differs from a clean photo: applied to the photo at
// the extractor's crop size (detect.CropW x CropH), it returns a new crop.
type Condition struct {
	Name  string
	apply func(m gocv.Mat, rng *rand.Rand) gocv.Mat
}

// Conditions are the ones measured: cuts (loose: table around the tile, tight: into the face,
// off-centre: the cut moved a tenth of the tile), light (dim, uneven), blur, and all together.
var Conditions = []Condition{
	{"plain", func(m gocv.Mat, _ *rand.Rand) gocv.Mat { return m.Clone() }},
	{"loose 20%", func(m gocv.Mat, rng *rand.Rand) gocv.Mat { return window(m, rng, 1.4, 0, 0) }},
	{"tight 15%", func(m gocv.Mat, rng *rand.Rand) gocv.Mat { return window(m, rng, 0.85, 0, 0) }},
	{"off-centre 10%", func(m gocv.Mat, rng *rand.Rand) gocv.Mat { return offCentre(m, rng, 0.1) }},
	{"dim (x0.35)", func(m gocv.Mat, rng *rand.Rand) gocv.Mat { return light(m, 0.35, 0.35, rng) }},
	{"uneven light (1 to 0.3)", func(m gocv.Mat, rng *rand.Rand) gocv.Mat { return light(m, 1, 0.3, rng) }},
	{"blur (sigma 1.5)", func(m gocv.Mat, _ *rand.Rand) gocv.Mat { return blur(m, 1.5) }},
	{"all of them", func(m gocv.Mat, rng *rand.Rand) gocv.Mat {
		a := offCentre(m, rng, 0.1)
		defer a.Close()
		b := window(a, rng, 1.2, 0, 0)
		defer b.Close()
		c := light(b, 0.6, 0.3, rng)
		defer c.Close()
		return blur(c, 1.2)
	}},
}

// tables are felt, wood and dark cloth colours (BGR) put around a loose or off-centre cut.
var tables = []color.RGBA{{40, 110, 30, 0}, {30, 70, 120, 0}, {110, 60, 20, 0}, {50, 50, 50, 0}}

// window cuts a window of zoom times the crop's size (above 1: the table shows around it),
// centred, moved by dx, dy of its size, and scales it back to the crop's size.
func window(m gocv.Mat, rng *rand.Rand, zoom, dx, dy float64) gocv.Mat {
	w, h := m.Cols(), m.Rows()
	pad := int(math.Ceil(max(zoom-1, 0)*float64(max(w, h)))) + int(math.Ceil(math.Max(math.Abs(dx), math.Abs(dy))*float64(max(w, h)))) + 2
	big := gocv.NewMat()
	defer big.Close()
	gocv.CopyMakeBorder(m, &big, pad, pad, pad, pad, gocv.BorderConstant, tables[rng.IntN(len(tables))])
	ww, wh := int(float64(w)*zoom), int(float64(h)*zoom)
	x0 := pad + (w-ww)/2 + int(dx*float64(w))
	y0 := pad + (h-wh)/2 + int(dy*float64(h))
	win := big.Region(image.Rect(x0, y0, x0+ww, y0+wh))
	defer win.Close()
	out := gocv.NewMat()
	gocv.Resize(win, &out, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	return out
}

// offCentre moves the cut by share of the tile's width and height, each way at random.
func offCentre(m gocv.Mat, rng *rand.Rand, share float64) gocv.Mat {
	sx, sy := float64(1-2*rng.IntN(2)), float64(1-2*rng.IntN(2))
	return window(m, rng, 1, sx*share, sy*share)
}

// light scales brightness from near (at one side) to far (at the other, in a random direction),
// with a little sensor noise.
func light(m gocv.Mat, near, far float64, rng *rand.Rand) gocv.Mat {
	out := m.Clone()
	a := rng.Float64() * 2 * math.Pi
	w, h := out.Cols(), out.Rows()
	for y := range h {
		for x := range w {
			u := 0.5 + (float64(x)/float64(w)-0.5)*math.Cos(a) + (float64(y)/float64(h)-0.5)*math.Sin(a)
			k := near + (far-near)*math.Min(1, math.Max(0, u))
			for c := range 3 {
				v := float64(out.GetUCharAt(y, x*3+c))*k + rng.NormFloat64()*2
				out.SetUCharAt(y, x*3+c, uint8(math.Min(255, math.Max(0, v))))
			}
		}
	}
	return out
}

func blur(m gocv.Mat, sigma float64) gocv.Mat {
	out := gocv.NewMat()
	gocv.GaussianBlur(m, &out, image.Pt(0, 0), sigma, sigma, gocv.BorderReplicate)
	return out
}

// ConditionResult is the accuracy under one condition, every test crop at every rotation.
type ConditionResult struct {
	Condition string  `json:"condition"`
	Accuracy  float64 `json:"accuracy"`  // top-1
	Worst     float64 `json:"worst_rot"` // top-1 at the worst of the four rotations
	Known     float64 `json:"known"`     // share answered (not turned into a question)
	KnownAcc  float64 `json:"known_accuracy"`
	N         int     `json:"n"`
}

// RunConditions classifies every test item of dir under each condition, at every rotation. The
// photo is first brought to the extractor's crop size; with centre, each crop then goes through
// detect.Centre as the extractor's crops do. seed fixes the random parts.
func RunConditions(c *classify.Classifier, dir string, test []labels.Item, centre bool, seed uint64) ([]ConditionResult, error) {
	var out []ConditionResult
	for ci, cond := range Conditions {
		rng := rand.New(rand.NewPCG(seed, uint64(ci)))
		var right, known, knownRight int
		perRot := map[int]int{}
		for _, it := range test {
			m, err := classify.ReadCrop(dir, it)
			if err != nil {
				return nil, fmt.Errorf("eval: %w", err)
			}
			small := gocv.NewMat()
			gocv.Resize(m, &small, image.Pt(detect.CropW, detect.CropH), 0, 0, gocv.InterpolationArea)
			m.Close()
			crop := cond.apply(small, rng)
			small.Close()
			if centre {
				cc := detect.Centre(crop)
				crop.Close()
				crop = cc
			}
			for _, deg := range Rotations {
				r, err := classifyTurned(c, crop, deg)
				if err != nil {
					crop.Close()
					return nil, fmt.Errorf("eval: %s: %s: %w", cond.Name, it.Image, err)
				}
				ok := r.Face == it.Tile
				if ok {
					right++
					perRot[deg]++
				}
				if r.Known {
					known++
					if ok {
						knownRight++
					}
				}
			}
			crop.Close()
		}
		n := len(test) * len(Rotations)
		res := ConditionResult{Condition: cond.Name, N: n, Worst: 1}
		if n > 0 {
			res.Accuracy, res.Known = float64(right)/float64(n), float64(known)/float64(n)
			for _, deg := range Rotations {
				res.Worst = min(res.Worst, float64(perRot[deg])/float64(len(test)))
			}
		}
		if known > 0 {
			res.KnownAcc = float64(knownRight) / float64(known)
		}
		out = append(out, res)
	}
	return out, nil
}

// classifyTurned classifies crop turned deg degrees clockwise.
func classifyTurned(c *classify.Classifier, crop gocv.Mat, deg int) (classify.Result, error) {
	if deg == 0 {
		return c.Classify(crop)
	}
	rot := gocv.NewMat()
	defer rot.Close()
	gocv.Rotate(crop, &rot, rotFlag(deg))
	return c.Classify(rot)
}
