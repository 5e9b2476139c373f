#!/usr/bin/env bash
# Whether an Obi key or widget costs the idle bar anything: two release
# `obi`s, each on an Xvfb and a session bus of its own, with a sound server
# and a backlight folder both can read, show a clock with seconds; one config
# enables FEATURE, the other does not. `notifications`: obi owns
# org.freedesktop.Notifications on its bus. `osd`: obi follows the sound
# server and the backlight for on-screen displays. `wifi`, `bluetooth`: a
# Wifi or Bluetooth widget beside the clock, following python3-dbusmock's
# NetworkManager (a Wi-Fi device, three networks) or BlueZ (an adapter, a
# paired device with its battery) on a private system bus both bars have.
# `streams`: Volume with its microphone and Privacy, following the sound
# server's streams while an application plays. `profiles`: both bars show
# a battery (a folder laid out as the kernel's), and only the first's
# system bus has dbusmock's power-profiles-daemon, which its Battery
# follows for the popup's profiles. After 15 s of settling,
# each bar's CPU time and how often its threads ran (schedstat's run count:
# a feature that polled would run more) are summed over its threads across
# the same SECONDS of wall time; its memory (RSS, private) and threads are
# listed.
# Usage: scripts/idle-with.sh notifications|osd|wifi|bluetooth|streams|profiles [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
feature="${1:?usage: scripts/idle-with.sh notifications|osd|wifi|bluetooth|streams|profiles [SECONDS]}"
seconds="${2:-60}"
clock='{ "Time": { "enable": true, "format": { "Custom": "%H:%M:%S" } } }'
plain='"right_widgets": [], '
case "$feature" in
  notifications | osd) added="\"$feature\": { \"enable\": true }, \"right_widgets\": [], " ;;
  wifi) added='"right_widgets": [ { "Wifi": { "enable": true } } ], ' ;;
  bluetooth) added='"right_widgets": [ { "Bluetooth": { "enable": true } } ], ' ;;
  streams) added='"right_widgets": [ { "Volume": { "enable": true, "microphone": true } }, { "Privacy": { "enable": true } } ], ' ;;
  profiles) added='"right_widgets": [ { "Battery": { "enable": true } } ], ' plain="$added" ;;
  *) echo "no such feature: $feature" >&2; exit 2 ;;
esac
python=/usr/bin/python3 # Debian's, with dbus-python and dbusmock
for tool in dbus-daemon pulseaudio pacat Xvfb "$python"; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed" >&2; exit 1; }
done

cargo build --release -q -p obi
obi="${CARGO_TARGET_DIR:-target}/release/obi"
work=$(mktemp -d)
echo "{ \"height\": 40, \"font_size\": 14, $added\"left_widgets\": [ $clock ] }" > "$work/with.json"
echo "{ \"height\": 40, \"font_size\": 14, $plain\"left_widgets\": [ $clock ] }" > "$work/plain.json"
mkdir -p "$work/power/BAT0"
echo Battery > "$work/power/BAT0/type"
echo 60 > "$work/power/BAT0/capacity"
echo Discharging > "$work/power/BAT0/status"
mkdir -p "$work/backlight/panel"
echo firmware > "$work/backlight/panel/type"
echo 100 > "$work/backlight/panel/max_brightness"
echo 50 > "$work/backlight/panel/actual_brightness"
base=$(( 150 + RANDOM % 50 ))
started=()
trap 'kill "${started[@]}" 2>/dev/null; rm -rf "$work"' EXIT

pulseaudio -n --daemonize=no --exit-idle-time=-1 \
  -L "module-native-protocol-unix socket=$work/pulse auth-anonymous=1" -L "module-null-sink sink_name=idle" \
  -L "module-null-source source_name=mic" >/dev/null 2>&1 &
started+=($!)
until [ -S "$work/pulse" ]; do sleep 0.1; done
system_bus=$(dbus-daemon --session --fork --print-address=1 --print-pid=1)
started+=("$(echo "$system_bus" | tail -1)")
system_bus=$(echo "$system_bus" | head -1)
# The second bar's: the same, but for `profiles`, one without the daemon.
plain_system_bus="$system_bus"

# Runs Python code $1 against the system bus, `mock(name, path)` at hand.
on_system_bus() {
  "$python" -c "import dbus, time
bus = dbus.bus.BusConnection('$system_bus')
def mock(name, path):
    return dbus.Interface(bus.get_object(name, path), 'org.freedesktop.DBus.Mock')
$1"
}

# Starts dbusmock's template $1 on the system bus; returns once it owns $2.
simulate() {
  DBUS_SYSTEM_BUS_ADDRESS="$system_bus" "$python" -m dbusmock --system --template "$1" >/dev/null 2>&1 &
  started+=($!)
  on_system_bus "while not bus.name_has_owner('$2'): time.sleep(0.05)"
}

case "$feature" in
  wifi)
    simulate networkmanager org.freedesktop.NetworkManager
    on_system_bus "nm = mock('org.freedesktop.NetworkManager', '/org/freedesktop')
device = nm.AddWiFiDevice('wlan0', 'wlan0', dbus.UInt32(100))
for number, (name, ssid, strength) in enumerate((('home', 'Home', 75), ('cafe', 'Café', 55), ('next', 'Next', 20))):
    nm.AddAccessPoint(device, name, ssid, '00:11:22:33:44:0%d' % number, dbus.UInt32(2), dbus.UInt32(2437),
                      dbus.UInt32(54000), dbus.Byte(strength), dbus.UInt32(0x100))
nm.AddWiFiConnection(device, 'home', 'Home', 'wpa-psk')"
    ;;
  bluetooth)
    simulate bluez5 org.bluez
    on_system_bus "bluez = dbus.Interface(bus.get_object('org.bluez', '/'), 'org.bluez.Mock')
bluez.AddAdapter('hci0', 'idle')
path = bluez.AddDevice('hci0', '11:22:33:44:55:66', 'Headphones')
bluez.PairDevice('hci0', '11:22:33:44:55:66', 2360324)
mock('org.bluez', path).AddProperties('org.bluez.Battery1', {'Percentage': dbus.Byte(80)})"
    ;;
  profiles)
    simulate power_profiles_daemon net.hadess.PowerProfiles
    plain_system_bus=$(dbus-daemon --session --fork --print-address=1 --print-pid=1)
    started+=("$(echo "$plain_system_bus" | tail -1)")
    plain_system_bus=$(echo "$plain_system_bus" | head -1)
    ;;
  streams)
    PULSE_SERVER="unix:$work/pulse" pacat --playback --raw --property=application.name=Music /dev/zero \
      >/dev/null 2>&1 &
    started+=($!)
    ;;
esac

# Starts Xvfb :$1 and a session bus, and on them obi with config $2 and
# the system bus $3; its pid.
start() {
  Xvfb ":$1" -screen 0 1920x1080x24 -nolisten tcp -noreset >/dev/null 2>&1 &
  started+=($!)
  local bus
  bus=$(dbus-daemon --session --fork --print-address=1 --print-pid=1)
  started+=("$(echo "$bus" | tail -1)")
  sleep 1
  DISPLAY=":$1" DBUS_SESSION_BUS_ADDRESS="$(echo "$bus" | head -1)" DBUS_SYSTEM_BUS_ADDRESS="$3" \
    PULSE_SERVER="unix:$work/pulse" OBI_BACKLIGHT_DIR="$work/backlight" OBI_POWER_SUPPLY_DIR="$work/power" \
    "$obi" --config "$2" >/dev/null 2>&1 &
  started+=($!)
  echo $! > "$work/pid-$1"
}

# CPU nanoseconds and runs of every thread of process $1.
sample() {
  cat /proc/"$1"/task/*/schedstat | awk '{ cpu += $1; runs += $3 } END { print cpu, runs }'
}

start "$base" "$work/with.json" "$system_bus"
start "$(( base + 1 ))" "$work/plain.json" "$plain_system_bus"
with=$(cat "$work/pid-$base") plain=$(cat "$work/pid-$(( base + 1 ))")
sleep 15
read -r with_cpu with_runs < <(sample "$with")
read -r plain_cpu plain_runs < <(sample "$plain")
sleep "$seconds"
read -r with_cpu2 with_runs2 < <(sample "$with")
read -r plain_cpu2 plain_runs2 < <(sample "$plain")
report() { # name, cpu before, after, runs before, after, pid
  printf '%-28s %6d µs/s CPU  %5d runs in %d s  %s  threads: %s\n' "$1" $(( ($3 - $2) / seconds / 1000 )) \
    $(( $5 - $4 )) "$seconds" "$(awk '/^(VmRSS|RssAnon)/ { printf "%s %.1f MB  ", $1, $2 / 1024 }' /proc/"$6"/status)" \
    "$(cat /proc/"$6"/task/*/comm | sort | uniq -c | sed 's/^ *\([0-9]*\) \(.*\)$/\2 ×\1/' | paste -sd ',')"
}
report "with $feature" "$with_cpu" "$with_cpu2" "$with_runs" "$with_runs2" "$with"
report "without" "$plain_cpu" "$plain_cpu2" "$plain_runs" "$plain_runs2" "$plain"
