#!/usr/bin/env bash
# Cross-builds the programs for a Raspberry Pi 4 or 5 (arm64, Raspberry Pi OS bookworm) on an
# amd64 Debian bookworm machine, installing what is missing first (see setup.sh):
#   scripts/build-arm64.sh [--no-vision] [--out DIR]        (default DIR: bin/arm64)
# DIR/siamesed is pure Go (CGO_ENABLED=0, static). DIR/siamesed-vision links Debian's arm64
# OpenCV 4.6 through cgo with gcc-aarch64-linux-gnu. libopencv-dev:arm64 does not install beside
# the amd64 libopencv-dev the tests need (apt removes the one to install the other), so the
# arm64 OpenCV packages are downloaded (apt-get download, ~36 MB) and unpacked into a sysroot,
# $SIAMESED_ARM64_SYSROOT or ~/.cache/siamesed/arm64-sysroot, kept for the next build. Only
# OpenCV's own libraries are there, so the link leaves their dependencies to the Pi
# (--allow-shlib-undefined); the Pi has them through libopencv-dev (deploy/install.sh).
# Copy DIR/* to the Pi's bin/ and run deploy/install.sh there, or install.sh --bin DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
out=bin/arm64 vision=1
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--no-vision) vision=0; shift ;;
	*) echo "build-arm64: unknown argument $1" >&2; exit 2 ;;
	esac
done
mkdir -p "$out"
ver=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
ldflags="-X main.version=$ver"

CGO_ENABLED=0 GOOS=linux GOARCH=arm64 go build -trimpath -ldflags "$ldflags" -o "$out/siamesed" ./cmd/siamesed
echo "build-arm64: $out/siamesed" >&2
[ $vision = 1 ] || exit 0

need_pkg gcc-aarch64-linux-gnu g++-aarch64-linux-gnu pkg-config
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "build-arm64: dpkg --add-architecture arm64" >&2
	$SUDO dpkg --add-architecture arm64
	$SUDO apt-get update -qq
fi
if dpkg-query -W -f='${Status}' libopencv-dev:arm64 2>/dev/null | grep -q "install ok installed"; then
	sysroot="" # installed for arm64 on this machine (then the amd64 one is not)
else
	sysroot=${SIAMESED_ARM64_SYSROOT:-$HOME/.cache/siamesed/arm64-sysroot}
	pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
		--no-replaces --no-enhances libopencv-dev:arm64 | grep -E '^libopencv' | sort -u)
	if [ -z "$pkgs" ]; then
		$SUDO apt-get update -qq
		pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
			--no-replaces --no-enhances libopencv-dev:arm64 | grep -E '^libopencv' | sort -u)
	fi
	want=$(apt-cache policy $pkgs | grep -E '^[^ ]|Candidate:')
	if [ "$(cat "$sysroot/.packages" 2>/dev/null)" != "$want" ]; then
		echo "build-arm64: unpacking arm64 OpenCV into $sysroot" >&2
		dl=$(mktemp -d)
		# apt-get download as root warns that it runs unsandboxed: that warning is dropped.
		(cd "$dl" && apt-get download -qq $pkgs 2>&1 | grep -v "unsandboxed" >&2) || true
		got=$(find "$dl" -name '*.deb' | wc -l)
		if [ "$got" != "$(echo "$pkgs" | wc -w)" ]; then
			echo "build-arm64: downloaded $got of $(echo "$pkgs" | wc -w) arm64 OpenCV packages (is the Debian mirror reachable? apt-get update?)" >&2
			exit 1
		fi
		rm -rf "$sysroot" && mkdir -p "$sysroot"
		for d in "$dl"/*.deb; do dpkg-deb -x "$d" "$sysroot"; done
		rm -rf "$dl"
		echo "$want" >"$sysroot/.packages"
	fi
fi
lib=$sysroot/usr/lib/aarch64-linux-gnu
CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++ \
	PKG_CONFIG_LIBDIR=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$sysroot \
	CGO_CPPFLAGS="-isystem $sysroot/usr/include/aarch64-linux-gnu/opencv4" \
	CGO_LDFLAGS="-Wl,--allow-shlib-undefined -Wl,-rpath-link,$lib" \
	go build -trimpath -ldflags "$ldflags" -o "$out/siamesed-vision" ./cmd/siamesed-vision
echo "build-arm64: $out/siamesed-vision" >&2
