package deploy

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// need finds a program a system test runs: missing, the test skips saying how to install it,
// or fails when SIAMESED_REQUIRE_SYSTEM_TESTS is set (scripts/test.sh sets it and installs it).
func need(t *testing.T, prog, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(prog)
	if err == nil {
		return p
	}
	if os.Getenv("SIAMESED_REQUIRE_SYSTEM_TESTS") != "" {
		t.Fatalf("%s is missing (apt-get install %s), and SIAMESED_REQUIRE_SYSTEM_TESTS is set", prog, pkg)
	}
	t.Skipf("%s is missing: apt-get install %s to run this test", prog, pkg)
	return ""
}

// buildArm64 runs scripts/build-arm64.sh into a temporary folder.
func buildArm64(t *testing.T, args ...string) string {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command("bash", append([]string{"../scripts/build-arm64.sh", "--out", out}, args...)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/build-arm64.sh %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return out
}

// elfOf checks that path is an arm64 Linux executable and returns it.
func elfOf(t *testing.T, path string) *elf.File {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if f.Machine != elf.EM_AARCH64 || f.Class != elf.ELFCLASS64 {
		t.Fatalf("%s is %v %v, not a 64-bit arm executable", path, f.Class, f.Machine)
	}
	return f
}

// TestArm64Siamesed: the one command builds siamesed for a Pi, static (no C library needed on
// the Pi), and the arm64 program, run under qemu-user (no binfmt_misc needed: qemu runs it
// directly), reports its platform and replays a recorded game exactly as this machine's build.
func TestArm64Siamesed(t *testing.T) {
	qemu := need(t, "qemu-aarch64-static", "qemu-user-static")
	bin := filepath.Join(buildArm64(t, "--no-vision"), "siamesed")
	f := elfOf(t, bin)
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s asks for a dynamic loader: it should be static (CGO_ENABLED=0)", bin)
		}
	}
	out, err := exec.Command(qemu, bin, "version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "linux/arm64") {
		t.Fatalf("qemu-aarch64-static siamesed version: %v\n%s", err, out)
	}
	t.Logf("arm64: %s", strings.TrimSpace(string(out)))

	replay := []string{"replay", "--json", "--rules", "siamese", "--card", "../engine/game/testdata/card.yaml",
		"../engine/game/testdata/scenarios/siamese-17-two-mahjonggs.jsonl"}
	arm, err := exec.Command(qemu, append([]string{bin}, replay...)...).Output()
	if err != nil {
		t.Fatalf("arm64 replay: %v", err)
	}
	native, err := exec.Command(buildSiamesed(t), replay...).Output()
	if err != nil {
		t.Fatalf("native replay: %v", err)
	}
	if len(arm) < 100 || string(arm) != string(native) {
		t.Errorf("the arm64 replay differs from this machine's:\n--- arm64\n%.2000s\n--- native\n%.2000s", arm, native)
	}
}

// TestArm64Vision: the one command also cross-compiles siamesed-vision with cgo against
// Debian's arm64 OpenCV: an arm64 program for the Pi's loader that needs OpenCV 4.6's libraries.
// It downloads the arm64 OpenCV packages (~36 MB, once) and compiles gocv's C++ for arm64 (about
// two minutes): it runs under scripts/test.sh (SIAMESED_REQUIRE_SYSTEM_TESTS) or with
// SIAMESED_TEST_ARM64_VISION=1. Running it under qemu needs every arm64 library OpenCV links
// (hundreds of packages, a Pi's root file system): only when SIAMESED_ARM64_ROOT names one.
func TestArm64Vision(t *testing.T) {
	if os.Getenv("SIAMESED_REQUIRE_SYSTEM_TESTS") == "" && os.Getenv("SIAMESED_TEST_ARM64_VISION") == "" {
		t.Skip("set SIAMESED_TEST_ARM64_VISION=1 to cross-build siamesed-vision for arm64 (downloads arm64 OpenCV, ~36 MB; about two minutes)")
	}
	need(t, "aarch64-linux-gnu-g++", "g++-aarch64-linux-gnu")
	bin := filepath.Join(buildArm64(t), "siamesed-vision")
	f := elfOf(t, bin)
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"libopencv_core.so.406", "libopencv_imgproc.so.406", "libopencv_videoio.so.406", "libc.so.6"} {
		if !slices.Contains(libs, want) {
			t.Errorf("siamesed-vision does not link %s: %v", want, libs)
		}
	}
	interp := ""
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b := make([]byte, p.Filesz)
			p.ReadAt(b, 0)
			interp = strings.TrimRight(string(b), "\x00")
		}
	}
	if interp != "/lib/ld-linux-aarch64.so.1" {
		t.Errorf("loader %q, want the Pi's /lib/ld-linux-aarch64.so.1", interp)
	}
	root := os.Getenv("SIAMESED_ARM64_ROOT")
	if root == "" {
		t.Log("not run under qemu: SIAMESED_ARM64_ROOT names no arm64 root file system with OpenCV's libraries")
		return
	}
	qemu := need(t, "qemu-aarch64-static", "qemu-user-static")
	cmd := exec.Command(qemu, "-L", root, bin, "help")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "vision watch") {
		t.Errorf("qemu-aarch64-static -L %s siamesed-vision help: %v\n%s", root, err, out)
	}
}
