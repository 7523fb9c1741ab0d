package classify

import (
	"errors"
	"fmt"
	"path/filepath"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/labels"
	"github.com/siamesetable/siamesed/vision/source"
)

// ReadCrop reads the image of item from dir/images as BGR.
func ReadCrop(dir string, it labels.Item) (gocv.Mat, error) {
	p := filepath.Join(dir, labels.ImageDir, it.Image)
	m, err := source.ReadImage(p)
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("classify: %w", err)
	}
	return m, nil
}

// EnrolDir enrols every item of a folder with the photos-dev layout (labels.csv, images/).
func (c *Classifier) EnrolDir(dir string, items []labels.Item) error {
	var unreadable []error
	for _, it := range items {
		m, err := ReadCrop(dir, it)
		if err != nil {
			unreadable = append(unreadable, err) // every one is named before giving up
			continue
		}
		err = c.Enrol(it.Tile, m)
		m.Close()
		if err != nil {
			return fmt.Errorf("classify: %s: %w", it.Image, err)
		}
	}
	if len(unreadable) > 0 {
		return fmt.Errorf("classify: %d of %d images cannot be read: %w", len(unreadable), len(items), errors.Join(unreadable...))
	}
	return nil
}
