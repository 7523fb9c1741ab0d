#!/usr/bin/env bash
# Runs every check CI runs: gofmt, go vet, staticcheck and all tests with the race detector.
# Installs what is missing first (see setup.sh). Extra arguments go to `go test`.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
need_pkg libopencv-dev pkg-config # gocv (vision/) links OpenCV; the daemon's camera: sim test builds siamesed-vision
need_pkg gstreamer1.0-plugins-base # vision/: videotestsrc, read through OpenCV's GStreamer backend, stands in for the Pi Camera Module
need_pkg mosquitto                 # mqtt/: tests against a real Mosquitto with deploy/'s files
need_pkg chromium                  # display/: the pages in a headless browser (chromedp)
need_pkg zbar-tools                # setup/: the seats' QR codes decoded as a phone would (zbarimg)
need_pkg nats-server               # deploy/: the tournament's NATS configs started by Debian's nats-server
need_pkg qemu-user-static systemd  # deploy/: the arm64 siamesed under qemu; systemd-analyze verify
need_pkg gcc-aarch64-linux-gnu g++-aarch64-linux-gnu # deploy/: siamesed-vision cross-built for a Pi
# Tests that need those programs fail, rather than skip, when they are missing; deploy/'s
# TestArm64Vision also runs (scripts/build-arm64.sh: adds dpkg's arm64 architecture, downloads
# the arm64 OpenCV packages once into ~/.cache/siamesed/arm64-sysroot).
export SIAMESED_REQUIRE_SYSTEM_TESTS=1

go mod download
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi
go vet ./...
# staticcheck, pinned: installed into the Go bin directory when missing.
staticcheck="$(go env GOPATH)/bin/staticcheck"
if ! "$staticcheck" -version 2>/dev/null | grep -q '(0.8.2)'; then
	go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
fi
"$staticcheck" ./...
# The property tests over random games and the comparisons with engine/card's oracles run a
# small share of their random cases under -race, where they are six to twenty-five times
# slower (fewerGames in engine/game, quickOracle in engine/card): their full counts run here,
# without the race detector, so that CI still checks every case.
go test -count=1 "$@" ./engine/game ./engine/card
# A package that hangs is stopped after 40 minutes with every goroutine's stack, naming its test
# (the slowest, daemon, took 10 minutes under -race beside two soaks on two cores, 19 before
# its simulated games were read on the racks' fast path, and ran past 25 minutes on a machine
# loaded four times over).
go test -race -count=1 -timeout 40m "$@" ./...
