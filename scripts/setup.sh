#!/usr/bin/env bash
# Installs what the project needs and is missing, on Debian (bookworm) as root or with sudo.
# Sourced by build.sh and test.sh; safe to run again: it installs only what is missing.
# Callers ask for OpenCV with `need_pkg libopencv-dev pkg-config`: gocv (vision/, the siamesed binary)
# links Debian bookworm's OpenCV 4.6 through cgo; the first install takes a few minutes.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi
_apt_updated=0

# need_pkg PKG... installs the Debian packages that are not installed yet (apt-get update once).
need_pkg() {
	local missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ $_apt_updated = 0 ]; then
		echo "setup: apt-get update" >&2
		$SUDO apt-get update -qq
		_apt_updated=1
	fi
	echo "setup: installing ${missing[*]}" >&2
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# need_go makes a Go toolchain new enough for go.mod available on PATH. Debian's golang-go is
# older than go.mod asks for; from Go 1.21 on, the go command fetches the toolchain go.mod names
# from the module proxy by itself (GOTOOLCHAIN=auto), so any Go >= 1.21 will do.
need_go() {
	export PATH="$PATH:/usr/local/go/bin:$HOME/go/bin"
	if ! command -v go >/dev/null 2>&1; then
		need_pkg golang-go ca-certificates git gcc
		export GOTOOLCHAIN=auto
	fi
	command -v gcc >/dev/null 2>&1 || need_pkg gcc libc6-dev
}

need_go
