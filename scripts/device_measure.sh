#!/usr/bin/env bash
# What to measure on a lent GPU: the reference submission through `ranked`,
# and the harness floor (a no-op submission) with the leaderboard method. Writes logs and
# CSVs under $OUT (device tool) or ./build/device, and prints a short table last.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-build/device}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
python3 -c "import yaml" 2>/dev/null || python3 -m pip install -q --no-index --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader 2>/dev/null | tee "$out/gpu.txt"
start=$(date +%s)
python3 eval/run.py ranked --submission examples/reference_submission.py --csv "$out/ranked_reference.csv" \
  > "$out/ranked_reference.log" 2>&1
echo "ranked exit status $? in $(( $(date +%s) - start )) s" | tee -a "$out/ranked_reference.log"
python3 -m eval.floor --method leaderboard > "$out/floor_leaderboard.txt" 2>&1
python3 -m eval.floor --method events > "$out/floor_events.txt" 2>&1
sed -n '/leaderboard · timing/,/^$/p' "$out/ranked_reference.log"
tail -n 4 "$out/ranked_reference.log"
tail -n 1 "$out/floor_leaderboard.txt" "$out/floor_events.txt"
