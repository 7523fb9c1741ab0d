package setup

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	qrcode "github.com/skip2/go-qrcode"
)

// svgModules reads the dark modules back out of QRSVG's drawing.
func svgModules(t *testing.T, svg []byte) (int, map[[2]int]bool) {
	t.Helper()
	m := regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`).FindSubmatch(svg)
	if m == nil {
		t.Fatalf("no viewBox: %.200s", svg)
	}
	n, _ := strconv.Atoi(string(m[1]))
	dark := map[[2]int]bool{}
	for _, sq := range regexp.MustCompile(`M(\d+) (\d+)h1v1h-1z`).FindAllSubmatch(svg, -1) {
		x, _ := strconv.Atoi(string(sq[1]))
		y, _ := strconv.Atoi(string(sq[2]))
		dark[[2]int{x, y}] = true
	}
	return n, dark
}

// TestQRSVG: the drawing holds exactly the code's modules; decoded (by zbarimg, where it is
// installed) it is the text it was made from.
func TestQRSVG(t *testing.T) {
	const url = "http://table.local:8080/join.html#ABCDEF"
	svg, err := QRSVG(url)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := qrcode.New(url, qrcode.Medium)
	bits := q.Bitmap()
	n, dark := svgModules(t, svg)
	if n != len(bits) {
		t.Fatalf("%d modules a side, want %d", n, len(bits))
	}
	img := image.NewGray(image.Rect(0, 0, n*8, n*8))
	for y := range n {
		for x := range n {
			if dark[[2]int{x, y}] != bits[y][x] {
				t.Fatalf("module %d,%d drawn %v, want %v", x, y, dark[[2]int{x, y}], bits[y][x])
			}
			c := color.Gray{255}
			if dark[[2]int{x, y}] {
				c = color.Gray{0}
			}
			for i := range 64 {
				img.SetGray(x*8+i%8, y*8+i/8, c)
			}
		}
	}
	if got := DecodeQR(t, img); got != "" && got != url {
		t.Fatalf("decoded %q, want %q", got, url)
	}
}

// DecodeQR reads a QR code in img with zbarimg ("" when it is not installed and system tests
// are not required).
func DecodeQR(t *testing.T, img image.Image) string {
	t.Helper()
	bin, err := exec.LookPath("zbarimg")
	if err != nil {
		if os.Getenv("SIAMESED_REQUIRE_SYSTEM_TESTS") != "" {
			t.Fatal("zbarimg is not installed and SIAMESED_REQUIRE_SYSTEM_TESTS is set: run scripts/test.sh, which installs zbar-tools")
		}
		t.Log("zbarimg is not installed (zbar-tools): the code is not decoded")
		return ""
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "qr.png")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--quiet", "--raw", path).Output()
	if err != nil {
		t.Fatalf("zbarimg: %v", err)
	}
	return strings.TrimSpace(string(out))
}
