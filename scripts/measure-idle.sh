#!/usr/bin/env bash
# Idle cost of the bar: starts Xvfb, runs the release `obi` with the given
# config (default: the built-in one, which has a seconds clock), lets it settle,
# then reports the CPU time it used over SECONDS of wall time and its memory.
# Usage: scripts/measure-idle.sh [SECONDS] [CONFIG]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
config=("${2:+--config}" "${2:-}")
[ -n "${2:-}" ] || config=()

cargo build --release -q -p obi
display=":$(( 150 + RANDOM % 50 ))"
Xvfb "$display" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $obi $xvfb 2>/dev/null || true' EXIT
sleep 1
DISPLAY="$display" OBI_LOG=warn ./target/release/obi "${config[@]}" &
obi=$!
sleep 5

ticks() { awk '{ print $14 + $15 }' "/proc/$obi/stat"; }
hz=$(getconf CLK_TCK)
before=$(ticks)
sleep "$seconds"
after=$(ticks)
cpu_seconds=$(echo "scale=3; ($after - $before) / $hz" | bc)
percent=$(echo "scale=3; 100 * $cpu_seconds / $seconds" | bc)
echo "obi idle over ${seconds}s: ${cpu_seconds}s CPU = ${percent}% of one core"
grep -E '^(VmRSS|RssAnon|RssFile|Threads)' "/proc/$obi/status"
