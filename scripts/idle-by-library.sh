#!/usr/bin/env bash
# Where the idle bar's CPU goes, by library: runs the release `obi` with the
# bars bench's five widgets (Cpu, Memory, Storage each second, Date, Time)
# on an Xvfb of its own, lets it settle, samples it with `perf record -e
# cpu-clock` over SECONDS, and prints each thread's and each library's
# share, then the part that is the GL stack's below femtovg: Mesa's
# llvmpipe rasterising and running the shaders it compiled (swrast_dri.so,
# libgallium, libLLVM, [JIT]) and the GL and EGL dispatch libraries.
# Usage: scripts/idle-by-library.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
command -v perf >/dev/null || { echo "perf is not installed (apt install linux-perf)" >&2; exit 1; }

cargo build --release -q -p obi
work=$(mktemp -d)
cat > "$work/komorebi.bar.json" <<'JSON'
{ "height": 40, "font_family": "DejaVu Sans", "font_size": 14, "left_widgets": [], "right_widgets": [
    { "Cpu": { "enable": true, "data_refresh_interval": 1 } },
    { "Memory": { "enable": true, "data_refresh_interval": 1 } },
    { "Storage": { "enable": true, "data_refresh_interval": 1 } },
    { "Date": { "enable": true, "format": "DayDateMonthYear" } },
    { "Time": { "enable": true, "format": "TwentyFourHour" } } ] }
JSON
display=":$(( 150 + RANDOM % 50 ))"
Xvfb "$display" -screen 0 1920x1080x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xvfb=$!
obi=""
trap '[ -z "$obi" ] || { kill $obi; wait $obi; } 2>/dev/null; kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
sleep 1
DISPLAY="$display" OBI_LOG=warn ./target/release/obi --config "$work/komorebi.bar.json" &
obi=$!
sleep 20

perf record -q -e cpu-clock -F 10000 -p "$obi" -o "$work/idle.perf" -- sleep "$seconds" 2>/dev/null
perf report -i "$work/idle.perf" --sort comm,dso --stdio 2>/dev/null | grep -v '^#' | grep -v '^$' | head -20
samples=$(perf script -i "$work/idle.perf" 2>/dev/null | wc -l)
gl=$(perf report -i "$work/idle.perf" --sort dso --stdio 2>/dev/null |
    awk '/swrast_dri|libgallium|libLLVM|\[JIT\]|libGLdispatch|libglapi|libEGL|libGLX/ { sub("%", "", $1); share += $1 }
         END { print share + 0 }')
echo "$samples samples (one per 100 µs of CPU): $(( samples * 100 / seconds )) µs/s; the GL stack's share: ${gl}%"
