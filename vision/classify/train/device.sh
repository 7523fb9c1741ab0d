#!/usr/bin/env bash
# Trains the tile network's recipes side by side on a machine with a GPU and many cores. Each
# recipe is trained up to three times: on photos-dev's training third and sets F,H (to measure sets B
# and C with), on it and B,C (to measure F and H with), and on it and all four sets (to ship).
# Each run's weights and faces weights (.npz; exported to ONNX afterwards with Debian's torch,
# README.md "Retrain on a GPU machine") and its log go into OUT/<recipe><seed>-<sets>.tgz as soon as it
# ends, so that runs cut off by a time limit lose only themselves.
#
#   device.sh DATA OUT RECIPE...   RECIPE: name:epochs:set-repeats:margin[:seed[:sets/sets...]]
#
# e.g. a:40:6:0.25 (seed 1, all three), or b:40:8:0.3:2:FH/BC (seed 2, the two fair runs only).
#
# DATA holds photos-dev, photos-sets and faces (`siamesed-vision vision art --out DATA/faces`).
# Later recipes run at lower priority, so the first ends first. WORKERS (default 2) processes
# augment each run's crops; PYTHON and DEVICE (default cuda) name the interpreter and torch device.
set -euo pipefail
data=$(realpath "$1") out=$(realpath -m "$2")
shift 2
cd "$(dirname "$0")"
# Every recipe is checked before any run starts: a typo found later would waste the runs before it.
for recipe in "$@"; do
	IFS=: read -r name epochs repeats margin seed splits <<<"$recipe"
	if ! [[ $name =~ ^[a-z0-9]+$ && $epochs =~ ^[0-9]+$ && $repeats =~ ^[0-9]+$ && $margin =~ ^[0-9.]+$ &&
		${seed:-1} =~ ^[0-9]+$ && ${splits:-FH} =~ ^[BCFH]+(/[BCFH]+)*$ ]]; then
		echo "device.sh: recipe \"$recipe\": want name:epochs:set-repeats:margin[:seed[:sets/sets...]], e.g. b:40:8:0.3:2:FH/BC" >&2
		exit 2
	fi
done
mkdir -p "$out"
work=$(mktemp -d)
python=${PYTHON:-python3}
"$python" -c 'import torch, cv2, onnx; print("torch", torch.__version__, "cuda", torch.cuda.is_available(), "cv2", cv2.__version__, "onnx", onnx.__version__)'
nproc
workers=${WORKERS:-2}
pids=()
priority=0
for recipe in "$@"; do
	IFS=: read -r name epochs repeats margin seed splits <<<"$recipe"
	seed=${seed:-1} splits=${splits:-FH/BC/BCFH}
	for letters in ${splits//\// }; do
		sets=$(echo "$letters" | sed 's/./&,/g; s/,$//')
		tag="$name$seed-$letters"
		others=$(echo B,C,F,H | tr , '\n' | grep -vxF -f <(echo "$sets" | tr , '\n') | paste -sd, || true)
		(
			nice -n "$priority" "$python" train.py --photos "$data/photos-dev" --list train-photos.csv \
				--faces "$data/faces" --sets "$data/photos-sets" --train-sets "$sets" --epochs "$epochs" \
				--set-repeats "$repeats" --margin "$margin" --seed "$seed" --device "${DEVICE:-cuda}" --workers "$workers" \
				--threads 1 --weights-out "$work/$tag.npz" &&
				nice -n "$priority" "$python" head.py --weights "$work/$tag.npz" --photos "$data/photos-dev" \
				--list train-photos.csv --faces "$data/faces" --sets "$data/photos-sets" --train-sets "$sets" \
				${others:+--test-sets "$others"} --threads 1 --workers "$workers" --faces-out "$work/$tag-faces.npz"
		) >"$work/$tag.log" 2>&1 && tar -C "$work" -czf "$out/$tag.tgz" "$tag.npz" "$tag-faces.npz" "$tag.log" &
		pids+=($!)
	done
	priority=$((priority + 10))
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
tail -n 3 "$work"/*.log | tee "$out/summary.log"
exit $status
