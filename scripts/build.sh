#!/usr/bin/env bash
# Builds bin/siamesed (pure Go: the daemon and every tool) and bin/siamesed-vision (the camera's
# commands and worker, linked with OpenCV), installing what is missing first (see setup.sh).
# For a Raspberry Pi from an amd64 machine: scripts/build-arm64.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
need_pkg libopencv-dev pkg-config # siamesed-vision links Debian's OpenCV 4.6 through gocv
mkdir -p bin
ver=$(git describe --tags --always --dirty 2>/dev/null || echo dev) # siamesed version
CGO_ENABLED=0 go build -ldflags "-X main.version=$ver" -o bin/siamesed ./cmd/siamesed
go build -o bin/siamesed-vision ./cmd/siamesed-vision
