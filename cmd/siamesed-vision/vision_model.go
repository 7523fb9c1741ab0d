package main

import (
	"context"
	"fmt"
	"io"

	"github.com/siamesetable/siamesed/internal/userfile"

	"github.com/siamesetable/siamesed/vision/classify"
)

func init() {
	register("vision model", "check a tile model file the way the recogniser loads it, and say what would be used: vision model [--model FILE]", visionModel)
}

// visionModel checks a model (CheckONNX, then a load in a child process) and prints what the
// recogniser would fall back to if it is refused. It exits 1 when the model named is refused.
func visionModel(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("vision model", stderr)
	path := fs.String("model", "", `ONNX file; "" for the built-in model`)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: vision model takes --model only", errUsage)
	}
	name, data := classify.BuiltinModel, []byte(nil)
	if *path != "" {
		name = *path
		var err error
		if data, err = userfile.ReadFile(*path, "a model", classify.MaxModelBytes); err != nil {
			return err
		}
		if info, err := classify.CheckONNX(name, data); err == nil {
			fmt.Fprintf(stdout, "%s: ONNX IR %d, opset %d, input %q %v, outputs %v, %d weights, operators %v\n",
				name, info.IRVersion, info.Opset, info.Input, info.Shape, info.Outputs, info.Params, info.Ops)
		}
	}
	c, warnings := classify.Open(*path)
	defer c.Close()
	for _, w := range warnings {
		fmt.Fprintf(stdout, "refused: %v\n", w)
	}
	if len(warnings) == 0 {
		fmt.Fprintf(stdout, "%s: loads and runs; the recogniser uses it\n", name)
		return nil
	}
	return fmt.Errorf("%s refused (see above)", name)
}
