package classify

import (
	"slices"
	"testing"
)

// A window's output size, against sizes PyTorch gives for the same layers: with ceil_mode a
// pool keeps the last, partial window, except one that would start in the end padding.
func TestWindowSize(t *testing.T) {
	for _, c := range []struct {
		in, kernel, stride, pad, ceil, want int64
	}{
		{8, 2, 2, 0, 0, 4},
		{8, 2, 2, 0, 1, 4}, // even: ceil_mode changes nothing
		{7, 2, 2, 0, 0, 3},
		{7, 2, 2, 0, 1, 4}, // the last column alone
		{6, 3, 2, 1, 1, 4},
		{5, 2, 2, 1, 1, 3}, // a fourth window would start in the padding
		{20, 3, 1, 1, 0, 20},
		{5, 3, 3, 0, 1, 2},
	} {
		n := node{attrs: map[string]attr{
			"strides":   {ints: []int64{c.stride, c.stride}},
			"pads":      {ints: []int64{c.pad, c.pad, c.pad, c.pad}},
			"ceil_mode": {i: c.ceil},
		}}
		got, err := window(n, []int64{4, c.in, c.in}, 4, []int64{c.kernel, c.kernel})
		if want := []int64{4, c.want, c.want}; err != nil || !slices.Equal(got, want) {
			t.Errorf("%+v: %v, %v; want %v", c, got, err, want)
		}
	}
	n := node{attrs: map[string]attr{"strides": {ints: []int64{1, 1}}}}
	if got, err := window(n, []int64{1, 2, 2}, 1, []int64{3, 3}); err == nil {
		t.Errorf("a 3x3 window on a 2x2 image: %v, want an error", got)
	}
}
