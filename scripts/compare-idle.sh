#!/usr/bin/env bash
# Idle cost of obi next to polybar, in one run: both show a clock with
# seconds on a 1920x40 bar, each on an Xvfb of its own (1920x1080, no window
# manager, no compositor), so that the X server's work for each bar can be
# told apart: polybar draws through the server (cairo with XRender), obi
# draws itself and puts the changed pixels into its window. After a minute of
# settling, the CPU time of each bar and of its server over the same
# SECONDS of wall time is summed over their threads from
# /proc/PID/task/*/schedstat (nanoseconds); memory from /proc/PID/status.
# Usage: scripts/compare-idle.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
command -v polybar >/dev/null || { echo "polybar is not installed (apt install polybar)" >&2; exit 1; }

cargo build --release -q -p obi
work=$(mktemp -d)
base=$(( 150 + RANDOM % 50 ))
cat > "$work/komorebi.bar.json" <<'JSON'
{ "height": 40, "font_family": "DejaVu Sans", "font_size": 14,
  "left_widgets": [], "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour", "label_prefix": "None" } } ] }
JSON
cat > "$work/polybar.ini" <<'INI'
[bar/clock]
width = 1920
height = 40
bottom = false
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

Xvfb ":$base" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
obi_server=$!
Xvfb ":$(( base + 1 ))" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
polybar_server=$!
obi="" polybar=""
trap 'kill $obi $polybar $obi_server $polybar_server 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 1
DISPLAY=":$base" OBI_LOG=warn ./target/release/obi --config "$work/komorebi.bar.json" &
obi=$!
DISPLAY=":$(( base + 1 ))" polybar --config="$work/polybar.ini" --quiet clock >/dev/null 2>&1 &
polybar=$!
# A minute of settling: by then each bar has drawn every second's label once.
sleep 65

# Threads that exit in between are not counted; neither bar starts or ends any while idle.
cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{ sum += $1 } END { print sum }'; }
pids=($obi $obi_server $polybar $polybar_server)
before=(); for pid in "${pids[@]}"; do before+=("$(cpu_ns "$pid")"); done
sleep "$seconds"
used=(); for i in "${!pids[@]}"; do used+=($(( $(cpu_ns "${pids[$i]}") - ${before[$i]} ))); done
per_second() { echo $(( $1 / 1000 / seconds )); }
report() {
  local name=$1 pid=$2 bar=$3 server=$4
  local rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
  local anon=$(awk '/^RssAnon/ { print $2 }' "/proc/$pid/status")
  printf '%-8s bar %4s µs/s + its X server %4s µs/s = %4s µs/s (%5s%% of one core)   RSS %6d kB   RssAnon %6d kB\n' \
    "$name" "$(per_second "$bar")" "$(per_second "$server")" "$(per_second $(( bar + server )))" \
    "$(echo "scale=3; ($bar + $server) / 10000000 / $seconds" | bc)" "$rss" "$anon"
}
echo "CPU over ${seconds}s of a seconds clock:"
report obi $obi "${used[0]}" "${used[1]}"
report polybar $polybar "${used[2]}" "${used[3]}"
