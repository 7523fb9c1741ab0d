package source

import (
	"fmt"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/internal/userfile"
)

// MaxImageBytes bounds an image file: a 12-megapixel photo as PNG is about 30 MB.
const MaxImageBytes = 64 << 20

// ReadImage reads an image file as BGR through userfile (a regular file, at most
// MaxImageBytes), so that a wrong path is an error naming it, never OpenCV reading /dev/zero.
func ReadImage(path string) (gocv.Mat, error) {
	data, err := userfile.ReadFile(path, "an image", MaxImageBytes)
	if err != nil {
		return gocv.Mat{}, err
	}
	m, err := gocv.IMDecode(data, gocv.IMReadColor)
	if err != nil || m.Empty() {
		m.Close()
		return gocv.Mat{}, fmt.Errorf("%s: not an image OpenCV can read", path)
	}
	return m, nil
}
