#!/usr/bin/env bash
# Whether the notification server costs the idle bar anything: two release
# `obi`s, each on an Xvfb and a session bus of its own, show a clock with
# seconds; one config enables `notifications` (obi then owns
# org.freedesktop.Notifications on its bus), the other does not. After 15 s
# of settling, each bar's CPU time and how often its threads ran (schedstat's
# run count: a server that polled would run more) are summed over its
# threads across the same SECONDS of wall time; its threads are listed.
# Usage: scripts/idle-with-notifications.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
command -v dbus-daemon >/dev/null || { echo "dbus-daemon is not installed (apt install dbus)" >&2; exit 1; }

cargo build --release -q -p obi
work=$(mktemp -d)
clock='"left_widgets": [ { "Time": { "enable": true, "format": { "Custom": "%H:%M:%S" } } } ], "right_widgets": []'
echo "{ \"height\": 40, \"font_size\": 14, $clock, \"notifications\": { \"enable\": true } }" > "$work/serving.json"
echo "{ \"height\": 40, \"font_size\": 14, $clock }" > "$work/plain.json"
base=$(( 150 + RANDOM % 50 ))
started=()
trap 'kill "${started[@]}" 2>/dev/null; rm -rf "$work"' EXIT

# Starts Xvfb :$1 and a session bus, and on them obi with config $2; its pid.
start() {
  Xvfb ":$1" -screen 0 1920x1080x24 -nolisten tcp -noreset >/dev/null 2>&1 &
  started+=($!)
  local bus
  bus=$(dbus-daemon --session --fork --print-address=1 --print-pid=1)
  started+=("$(echo "$bus" | tail -1)")
  sleep 1
  DISPLAY=":$1" DBUS_SESSION_BUS_ADDRESS="$(echo "$bus" | head -1)" \
    target/release/obi --config "$2" >/dev/null 2>&1 &
  started+=($!)
  echo $! > "$work/pid-$1"
}

# CPU nanoseconds and runs of every thread of process $1.
sample() {
  cat /proc/"$1"/task/*/schedstat | awk '{ cpu += $1; runs += $3 } END { print cpu, runs }'
}

start "$base" "$work/serving.json"
start "$(( base + 1 ))" "$work/plain.json"
serving=$(cat "$work/pid-$base") plain=$(cat "$work/pid-$(( base + 1 ))")
sleep 15
read -r serving_cpu serving_runs < <(sample "$serving")
read -r plain_cpu plain_runs < <(sample "$plain")
sleep "$seconds"
read -r serving_cpu2 serving_runs2 < <(sample "$serving")
read -r plain_cpu2 plain_runs2 < <(sample "$plain")
report() { # name, cpu before, after, runs before, after, pid
  printf '%-28s %6d µs/s CPU  %5d runs in %d s  threads: %s\n' "$1" $(( ($3 - $2) / seconds / 1000 )) \
    $(( $5 - $4 )) "$seconds" "$(cat /proc/"$6"/task/*/comm | sort | uniq -c | sed 's/^ *\([0-9]*\) \(.*\)$/\2 ×\1/' | paste -sd ',')"
}
report "with the notification server" "$serving_cpu" "$serving_cpu2" "$serving_runs" "$serving_runs2" "$serving"
report "without" "$plain_cpu" "$plain_cpu2" "$plain_runs" "$plain_runs2" "$plain"
