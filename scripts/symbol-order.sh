#!/usr/bin/env bash
# Writes host/link/symbol-order.txt, the order in which an optimised build
# (the release's artifacts, `cargo install`) lays out the functions a
# running bar executes, so that they share pages.
# Left in the compiler's order, the code a bar runs is spread thinly over
# the binary's 24 MB of text, and since the kernel maps the 64 KB around
# every page a process touches of a file in the page cache
# ("fault-around"), about 4.7 MB of code run kept 11.5 MB of the binary's
# text resident in the bars bench's plain bar; listed first, 5.4 MB.
#
# How: `obi` as the release's artifacts have it is copied to a file of its
# own and run once to fill the component cache; then, dropped from the
# page cache and run again with read-ahead off on its disk, it reads only
# the pages it executes, and fault-around finds nothing more to map. After
# SECONDS (default 10) the pages it holds are read from /proc/PID/pagemap.
# Every function on those pages is listed, except one of more than two
# pages none of whose pages that ran is its own alone (it shares them with
# functions that ran): first those every scenario ran, then those fewer
# did, each group in the order the build has now. The scenarios, each on
# Xvfb: the bars bench's five widgets; the same beside Chinese, Japanese,
# Korean and emoji; the default config on i3 with a session bus.
#
# Symbol names carry hashes of the toolchain and the dependencies, so run
# it again after updating either: a name the linker no longer finds is
# passed over, so a stale list costs memory, not the build. Needs root, for
# the disk's read-ahead setting, which it puts back on exit.
# Usage: sudo scripts/symbol-order.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
[ "$(id -u)" -eq 0 ] || { echo "needs root: it turns the disk's read-ahead off while it measures" >&2; exit 1; }
for tool in Xvfb i3 dbus-run-session nm python3; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed" >&2; exit 1; }
done

# As `cargo xtask dist` builds it, the package alone: the features other
# packages turn on (the workspace's default members) change symbol names.
cargo build --profile packaged -q --package obi --bin obi
# On disk, not in a tmpfs: its pages must leave the page cache.
work="$PWD/target/symbol-order"
rm -rf "$work" && mkdir -p "$work"
cp target/packaged/obi "$work/obi"
device=$(stat -c '%d' "$work/obi")
read_ahead="/sys/dev/block/$((device >> 8)):$((device & 255))"
[ -e "$read_ahead/queue" ] || read_ahead="$read_ahead/.."
read_ahead="$read_ahead/queue/read_ahead_kb"
was=$(cat "$read_ahead")
display=$(( 150 + RANDOM % 50 ))
# Read without read-ahead, the libraries and fonts the runs mapped are left
# in the page cache in pieces, and any process mapping them then holds less
# of them than usual (fault-around maps only cached pages), which would
# flatter the next measure of memory: they are read whole again.
cleanup() {
  echo "$was" > "$read_ahead"
  [ ! -f "$work/mapped" ] || sort -u "$work/mapped" | xargs -r -d '\n' cat > /dev/null 2>&1 || true
  kill "$xvfb" 2>/dev/null || true
  rm -rf "$work"
}
Xvfb ":$display" -noreset -screen 0 1920x1080x24 >/dev/null 2>&1 &
xvfb=$!
trap cleanup EXIT
echo 0 > "$read_ahead"
sleep 1

five='{ "Cpu": { "enable": true, "data_refresh_interval": 1 } },
  { "Memory": { "enable": true, "data_refresh_interval": 1 } },
  { "Storage": { "enable": true, "data_refresh_interval": 1 } },
  { "Date": { "enable": true, "format": "DayDateMonthYear" } },
  { "Time": { "enable": true, "format": "TwentyFourHour" } }'
custom() { echo "{ \"Custom\": { \"enable\": true, \"exec\": \"printf '$1'\", \"interval\": \"once\" } }"; }
cat > "$work/five.json" <<JSON
{ "height": 40, "font_family": "DejaVu Sans", "font_size": 14, "left_widgets": [], "right_widgets": [ $five ] }
JSON
cat > "$work/scripts.json" <<JSON
{ "height": 40, "font_family": "DejaVu Sans", "font_size": 14,
  "left_widgets": [ $(custom '1: 日本語  2: 中文  3: 한국어'), $(custom '東京 — 北京 — 서울 👍🏽 ❤️ 🎵 🇯🇵') ],
  "right_widgets": [ $five ] }
JSON

# Runs obi with ARGS for $seconds from a cold page cache, its widgets
# already compiled (the cache filled by a run before), and appends the
# pages it then holds, a file of them per run in $work/pages.
run() {
  start "$@"
  sleep 3
  stop
  python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$work/obi"
  start "$@"
  sleep "$seconds"
  runs=$((runs + 1))
  local pid
  pid=$(pgrep -n -f "^$work/obi")
  awk '$6 ~ /^\// { print $6 }' "/proc/$pid/maps" >> "$work/mapped"
  python3 - "$pid" "$work/obi" > "$work/pages.$runs" <<'PY'
import struct, sys
pid, binary = sys.argv[1], sys.argv[2]
maps = [line.split() for line in open(f"/proc/{pid}/maps")]
maps = [m for m in maps if len(m) >= 6 and m[5] == binary]
base = min(int(m[0].split("-")[0], 16) for m in maps if int(m[2], 16) == 0)
with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
    for m in maps:
        start, end = (int(x, 16) for x in m[0].split("-"))
        pagemap.seek(start // 4096 * 8)
        entries = pagemap.read((end - start) // 4096 * 8)
        for i in range((end - start) // 4096):
            if struct.unpack_from("<Q", entries, i * 8)[0] >> 63:
                print(f"{start - base + i * 4096:x}")
PY
  stop
}
start() {
  DISPLAY=":$display" HOME="$work" OBI_CACHE_DIR="$work/cache" "$@" > "$work/log" 2>&1 &
  started=$!
  sleep 0.5
  pgrep -f "^$work/obi" > /dev/null || { echo "obi did not start:" >&2; cat "$work/log" >&2; exit 1; }
}
stop() {
  pkill -f "^$work/obi" || true
  wait "$started" 2>/dev/null || true
}
runs=0
run "$work/obi" --tiler none --config "$work/five.json"
run "$work/obi" --tiler none --config "$work/scripts.json"
DISPLAY=":$display" i3 -c /dev/null > /dev/null 2>&1 &
i3=$!
sleep 1
run dbus-run-session -- "$work/obi"
kill "$i3"

nm --defined-only -S -n "$work/obi" > "$work/functions"
python3 - "$work/functions" "$work"/pages.* > host/link/symbol-order.txt <<'PY'
import sys
runs = [{int(line, 16) // 4096 for line in open(path)} for path in sys.argv[2:]]
functions = []
for line in open(sys.argv[1]):
    fields = line.split()
    if len(fields) == 4 and fields[2] in "tTwW":
        functions.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
# Which functions lie on each page, to tell a page a function has alone.
on_page = {}
for start, size, _ in functions:
    for page in range(start // 4096, (start + max(size, 1) - 1) // 4096 + 1):
        on_page[page] = on_page.get(page, 0) + 1
# Each function that ran, with the number of runs it ran in.
listed = []
for start, size, name in functions:
    pages = range(start // 4096, (start + max(size, 1) - 1) // 4096 + 1)
    ran_in = [run for run in runs if any(page in run for page in pages)]
    if not ran_in:
        continue
    ran = {page for run in ran_in for page in pages if page in run}
    if len(pages) <= 2 or any(on_page[page] == 1 for page in ran):
        listed.append((-len(ran_in), start, name))
print("# The functions a running bar executes, in this order at the start of the")
print("# release build's text, what every scenario runs first; written by")
print("# scripts/symbol-order.sh, read by host/build.rs.")
for _, _, name in sorted(listed):
    print(name)
PY
echo "$(grep -vc '^#' host/link/symbol-order.txt) functions listed in host/link/symbol-order.txt"
