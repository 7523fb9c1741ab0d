package classify

import "fmt"

// Open returns a classifier on the first of these that loads: the network in the ONNX file at
// path (when path is not ""), the built-in network, the hand-made features. A model refused on the
// way is not fatal: each refusal comes back in warnings, saying which model was refused, why, and
// what is used instead, so a damaged file leaves the table working. The features need no model
// and always load. Use NewNet to get an error instead.
func Open(path string) (c *Classifier, warnings []error) {
	if path != "" {
		c, err := NewNet(path)
		if err == nil {
			return c, nil
		}
		warnings = append(warnings, fmt.Errorf("classify: model %s refused, using the built-in network instead: %w", path, err))
	}
	c, err := NewNet("")
	if err == nil {
		return c, warnings
	}
	warnings = append(warnings, fmt.Errorf("classify: built-in model refused, using the hand-made features instead (far less accurate): %w", err))
	return New(), warnings
}
