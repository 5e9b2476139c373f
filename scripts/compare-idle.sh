#!/usr/bin/env bash
# Idle cost of obi next to polybar, in one run: both show a clock with
# seconds on the same Xvfb (obi at the top, polybar at the bottom, each
# 1920x40, no window manager, no compositor), settle for 5 s, then the CPU
# time each uses over SECONDS of wall time is read from /proc/PID/stat, and
# their memory from /proc/PID/status.
# Usage: scripts/compare-idle.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
command -v polybar >/dev/null || { echo "polybar is not installed (apt install polybar)" >&2; exit 1; }

cargo build --release -q -p obi
work=$(mktemp -d)
display=":$(( 150 + RANDOM % 50 ))"
cat > "$work/komorebi.bar.json" <<'JSON'
{ "height": 40, "font_family": "DejaVu Sans", "font_size": 14,
  "left_widgets": [], "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour", "label_prefix": "None" } } ] }
JSON
cat > "$work/polybar.ini" <<'INI'
[bar/clock]
width = 1920
height = 40
bottom = true
background = #1e1e2e
foreground = #cdd6f4
font-0 = DejaVu Sans:size=14;3
modules-right = clock
padding-right = 1
[module/clock]
type = internal/date
interval = 1
time = %H:%M:%S
label = %time%
INI

Xvfb "$display" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $obi $polybar $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 1
DISPLAY="$display" OBI_LOG=warn ./target/release/obi --config "$work/komorebi.bar.json" &
obi=$!
DISPLAY="$display" polybar --config="$work/polybar.ini" --quiet clock >/dev/null 2>&1 &
polybar=$!
sleep 5

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
obi_before=$(ticks $obi); polybar_before=$(ticks $polybar)
sleep "$seconds"
obi_after=$(ticks $obi); polybar_after=$(ticks $polybar)
report() {
  local name=$1 pid=$2 used=$(( $4 - $3 ))
  local cpu=$(echo "scale=3; $used / $hz" | bc)
  local percent=$(echo "scale=3; 100 * $cpu / $seconds" | bc)
  local rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
  local anon=$(awk '/^RssAnon/ { print $2 }' "/proc/$pid/status")
  printf '%-8s %8ss CPU over %ss = %6s%% of one core   RSS %6d kB   RssAnon %6d kB\n' "$name" "$cpu" "$seconds" "$percent" "$rss" "$anon"
}
report obi $obi "$obi_before" "$obi_after"
report polybar $polybar "$polybar_before" "$polybar_after"
