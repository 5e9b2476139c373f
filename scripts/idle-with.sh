#!/usr/bin/env bash
# Whether an Obi key costs the idle bar anything: two release `obi`s, each
# on an Xvfb and a session bus of its own, with a sound server and a
# backlight folder both can read, show a clock with seconds; one config
# enables FEATURE, the other does not. `notifications`: obi owns
# org.freedesktop.Notifications on its bus. `osd`: obi follows the sound
# server and the backlight for on-screen displays. After 15 s of settling,
# each bar's CPU time and how often its threads ran (schedstat's run count:
# a feature that polled would run more) are summed over its threads across
# the same SECONDS of wall time; its threads are listed.
# Usage: scripts/idle-with.sh notifications|osd [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
feature="${1:?usage: scripts/idle-with.sh notifications|osd [SECONDS]}"
seconds="${2:-60}"
case "$feature" in notifications | osd) ;; *) echo "no such feature: $feature" >&2; exit 2 ;; esac
for tool in dbus-daemon pulseaudio Xvfb; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed" >&2; exit 1; }
done

cargo build --release -q -p obi
work=$(mktemp -d)
clock='"left_widgets": [ { "Time": { "enable": true, "format": { "Custom": "%H:%M:%S" } } } ], "right_widgets": []'
echo "{ \"height\": 40, \"font_size\": 14, $clock, \"$feature\": { \"enable\": true } }" > "$work/with.json"
echo "{ \"height\": 40, \"font_size\": 14, $clock }" > "$work/plain.json"
mkdir -p "$work/backlight/panel"
echo firmware > "$work/backlight/panel/type"
echo 100 > "$work/backlight/panel/max_brightness"
echo 50 > "$work/backlight/panel/actual_brightness"
base=$(( 150 + RANDOM % 50 ))
started=()
trap 'kill "${started[@]}" 2>/dev/null; rm -rf "$work"' EXIT

pulseaudio -n --daemonize=no --exit-idle-time=-1 \
  -L "module-native-protocol-unix socket=$work/pulse auth-anonymous=1" -L "module-null-sink sink_name=idle" \
  >/dev/null 2>&1 &
started+=($!)

# Starts Xvfb :$1 and a session bus, and on them obi with config $2; its pid.
start() {
  Xvfb ":$1" -screen 0 1920x1080x24 -nolisten tcp -noreset >/dev/null 2>&1 &
  started+=($!)
  local bus
  bus=$(dbus-daemon --session --fork --print-address=1 --print-pid=1)
  started+=("$(echo "$bus" | tail -1)")
  sleep 1
  DISPLAY=":$1" DBUS_SESSION_BUS_ADDRESS="$(echo "$bus" | head -1)" PULSE_SERVER="unix:$work/pulse" \
    OBI_BACKLIGHT_DIR="$work/backlight" target/release/obi --config "$2" >/dev/null 2>&1 &
  started+=($!)
  echo $! > "$work/pid-$1"
}

# CPU nanoseconds and runs of every thread of process $1.
sample() {
  cat /proc/"$1"/task/*/schedstat | awk '{ cpu += $1; runs += $3 } END { print cpu, runs }'
}

start "$base" "$work/with.json"
start "$(( base + 1 ))" "$work/plain.json"
with=$(cat "$work/pid-$base") plain=$(cat "$work/pid-$(( base + 1 ))")
sleep 15
read -r with_cpu with_runs < <(sample "$with")
read -r plain_cpu plain_runs < <(sample "$plain")
sleep "$seconds"
read -r with_cpu2 with_runs2 < <(sample "$with")
read -r plain_cpu2 plain_runs2 < <(sample "$plain")
report() { # name, cpu before, after, runs before, after, pid
  printf '%-28s %6d µs/s CPU  %5d runs in %d s  threads: %s\n' "$1" $(( ($3 - $2) / seconds / 1000 )) \
    $(( $5 - $4 )) "$seconds" "$(cat /proc/"$6"/task/*/comm | sort | uniq -c | sed 's/^ *\([0-9]*\) \(.*\)$/\2 ×\1/' | paste -sd ',')"
}
report "with $feature" "$with_cpu" "$with_cpu2" "$with_runs" "$with_runs2" "$with"
report "without" "$plain_cpu" "$plain_cpu2" "$plain_runs" "$plain_runs2" "$plain"
