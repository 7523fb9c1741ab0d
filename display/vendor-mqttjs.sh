#!/usr/bin/env bash
# Bundles mqtt.js's browser build into static/vendor/ (run by `go generate ./display/`).
# It needs npm and the network; building and CI need neither, as the bundle is committed.
# MQTTJS_VERSION pins the version; THIRD_PARTY.md records it with its license.
set -euo pipefail
cd "$(dirname "$0")"
version="${MQTTJS_VERSION:-5.16.0}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund "mqtt@$version" >/dev/null)
cp "$tmp/node_modules/mqtt/dist/mqtt.min.js" static/vendor/mqtt.min.js
cp "$tmp/node_modules/mqtt/LICENSE.md" static/vendor/mqtt.LICENSE.md
echo "mqtt.js $version bundled into static/vendor/mqtt.min.js"
