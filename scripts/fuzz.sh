#!/usr/bin/env bash
# Fuzzes what Obi reads from outside: the config file, komorebi's
# notifications and i3's IPC frames (targets in fuzz/, checks in
# fuzz/src/lib.rs), each for SECONDS (default 60), with libFuzzer through
# cargo-fuzz on the stable toolchain (coverage instrumentation, no
# sanitizer: the code under test is safe Rust). Seeds: the inputs kept in
# fuzz/regressions/ and, when ../shared is there, the real configs of its
# corpus and komorebi's reference notifications. Prints the executions of
# each target; an input that fails a check is left in
# target/fuzz/artifacts/TARGET/ and the script fails: fix the reader, then
# keep the input in fuzz/regressions/TARGET/, where the host's test
# `fuzz_regressions` replays it on every run.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
if [ $# -gt 0 ]; then targets=("$@"); else targets=(config komorebi_notification i3_ipc); fi
shared="$(cd .. && pwd)/shared"
work="$PWD/target/fuzz"

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
(cd fuzz && cargo fuzz build -O -s none --target-dir "$work")

seed() {
  local target=$1 corpus=$2
  cp fuzz/regressions/"$target"/* "$corpus"/
  if [ ! -d "$shared" ]; then
    echo "*** $shared is absent: $target is seeded with fuzz/regressions alone ***" >&2
    return
  fi
  case "$target" in
    config)
      cp "$shared"/corpus/*.json "$shared"/reference/komorebi.bar.example.json "$corpus"/ ;;
    komorebi_notification)
      split -l 1 "$shared"/reference/fixtures/notifications.README-HEAD.jsonl "$corpus"/readme-notification-
      python3 -c 'import json, sys; print(json.dumps({"event": {"type": "FocusWorkspaceNumber", "content": 0}, "state": json.load(open(sys.argv[1]))}))' \
        "$shared"/reference/fixtures/state.readme-2021-08.json > "$corpus"/readme-state ;;
  esac
}

failed=()
summary=()
for target in "${targets[@]}"; do
  corpus="$work/corpus/$target" artifacts="$work/artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  seed "$target" "$corpus"
  log="$work/$target.log"
  status=0
  (cd fuzz && cargo fuzz run -O -s none --target-dir "$work" "$target" "$corpus" -- \
    -max_total_time="$seconds" -artifact_prefix="$artifacts/" -print_final_stats=1) > "$log" 2>&1 || status=$?
  runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
  coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  summary+=("$(printf '%-22s %10s executions in %ss (%s/s), %s edges covered' \
    "$target" "${runs:-?}" "$seconds" "$(( ${runs:-0} / seconds ))" "${coverage:-?}")")
  if [ "$status" -ne 0 ]; then
    failed+=("$target")
    grep -E "panicked|ERROR|Test unit written" "$log" >&2 || tail -20 "$log" >&2
  fi
done
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "failing inputs for ${failed[*]} are in $work/artifacts/" >&2
  exit 1
fi
