#!/usr/bin/env bash
# Runs the daemon on its embedded default (configs/sim.yaml): a simulated table where virtual
# players play whole games, tracked from the simulated racks and camera, journaled and recorded
# under the data directory (~/.local/state/siamesed, or --data DIR), and shown on
# http://127.0.0.1:8080. Ctrl-C stops it; nothing recorded is lost. Installs what is missing first.
# Arguments go to `siamesed run` (e.g. --config FILE --data DIR); `scripts/run.sh -- TOOL ARGS`
# runs another siamesed command instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
if [ "${1:-}" = "--" ]; then shift; exec bin/siamesed "$@"; fi
exec bin/siamesed run "$@"
