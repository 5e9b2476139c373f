#!/usr/bin/env bash
# The C compiler `cargo check --target aarch64-apple-darwin` runs for build
# scripts that compile C (wasmtime's helpers): the host's cc without the
# Apple-only flags. A check links nothing, so the objects are never used;
# what is checked is the Rust code for macOS.
kept=()
while [ $# -gt 0 ]; do
  case "$1" in
    -arch|-isysroot) shift ;;
    -mmacosx-version-min=*|--target=*) ;;
    *) kept+=("$1") ;;
  esac
  shift
done
exec cc "${kept[@]}"
