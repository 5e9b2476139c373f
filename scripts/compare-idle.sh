#!/usr/bin/env bash
# Idle cost of obi next to polybar, in one run: both show a clock with
# seconds on the same Xvfb (obi at the top, polybar at the bottom, each
# 1920x40, no window manager, no compositor), settle for 5 s, then the CPU
# time each uses over SECONDS of wall time is summed over its threads from
# /proc/PID/task/*/schedstat (nanoseconds), and their memory is read from
# /proc/PID/status.
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

# Threads that exit in between are not counted; neither bar starts or ends any while idle.
cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{ sum += $1 } END { print sum }'; }
obi_before=$(cpu_ns $obi); polybar_before=$(cpu_ns $polybar)
sleep "$seconds"
obi_after=$(cpu_ns $obi); polybar_after=$(cpu_ns $polybar)
report() {
  local name=$1 pid=$2 used=$(( $4 - $3 ))
  local ms=$(echo "scale=1; $used / 1000000" | bc)
  local per_second=$(echo "scale=0; $used / 1000 / $seconds" | bc)
  local percent=$(echo "scale=3; $used / 10000000 / $seconds" | bc)
  local rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
  local anon=$(awk '/^RssAnon/ { print $2 }' "/proc/$pid/status")
  printf '%-8s %7s ms CPU over %ss = %4s µs/s = %5s%% of one core   RSS %6d kB   RssAnon %6d kB\n' \
    "$name" "$ms" "$seconds" "$per_second" "$percent" "$rss" "$anon"
}
report obi $obi "$obi_before" "$obi_after"
report polybar $polybar "$polybar_before" "$polybar_after"
