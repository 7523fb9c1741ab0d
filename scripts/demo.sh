#!/usr/bin/env bash
# Shows siamesed's tools on real input: the example
# card checked, a match, Siamese advice and which tile to throw, a replayed game, scans of the
# simulated racks (above and below the drivers), and the vision evaluations when ../shared/data is
# there. The card and replay commands here are run by the tests (cmd/siamesed/docs_test.go).
# Installs what is missing first (see setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
card=configs/cards/example.yaml
set -x
bin/siamesed card check "$card"
bin/siamesed card match --card "$card" F F F 2B 0 2B 6B 2C 0 2C 6C GD GD J
bin/siamesed card advise --card "$card" --top 3 \
	--tiles "1B 1B 1B 3B 3B 5B 5B 5B 5B 7B 7B 9B 9B N N N E E W W W S S 5C 5C 5C J"
bin/siamesed card advise --card "$card" --discards \
	--tiles "1B 1B 1B 3B 3B 5B 5B 5B 5B 7B 7B 9B 9B N N N E E W W W S S 5C 5C 5C J 2D"
bin/siamesed replay --rules siamese --card engine/game/testdata/card.yaml \
	engine/game/testdata/scenarios/siamese-17-two-mahjonggs.jsonl
bin/siamesed hw scan --profile configs/hw/sim.yaml --for 2s
bin/siamesed hw scan --profile configs/hw/sim-pn532.yaml # the real drivers on emulated chips
# Vision, when the shared data sits next to the repository: detection and classification on
# synthetic frames, then the recogniser enrolled on half of the real photos and tested on the rest.
if [ -d ../shared/data/tile-art/png ]; then
	bin/siamesed vision eval --synthetic ../shared/data/tile-art/png --frames 5
fi
if [ -f ../shared/data/photos-dev/labels.csv ]; then
	bin/siamesed vision eval --enroll ../shared/data/photos-dev --split 0.5 --seed 1
fi
