#!/usr/bin/env bash
# What a browser downloads to open Sou's pages, as the server sends them, and the chat
# page's first load (JS + WASM) beside a stock Leptos counter built with the same
# profile, in one run. Fails when the chat page is over its budget (300 KB as served,
# 2.5x the counter; see scripts/bundle/measure.mjs) or a form page loads browser code.
#
#   bash scripts/bundle.sh [--no-build]     (~12 min on 2 cores with the builds)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
export CARGO_INCREMENTAL=0
# The flags cargo-leptos 0.3 gives wasm-opt for a release build.
wasm_opt_flags=(-Oz --enable-bulk-memory --enable-nontrapping-float-to-int)

if [ "${1:-}" != "--no-build" ]; then
  step "building Sou as serve.sh does (cargo leptos build --release --precompress)"
  cargo leptos build --release --precompress
fi

step "building the stock counter the same way (wasm-release, wasm-bindgen, wasm-opt)"
work=target/bundle-baseline
mkdir -p "$work/counter"
cp scripts/bundle/counter/Cargo.toml scripts/bundle/counter/lib.rs "$work/counter/"
# Sou's versions of Leptos and wasm-bindgen (cargo drops the entries it does not need).
cp Cargo.lock "$work/counter/Cargo.lock"
CARGO_TARGET_DIR="$work/target" cargo build --manifest-path "$work/counter/Cargo.toml" \
  --lib --target wasm32-unknown-unknown --profile wasm-release
rm -rf "$work/pkg"
wasm-bindgen --target web --out-name counter --out-dir "$work/pkg" \
  "$work/target/wasm32-unknown-unknown/wasm-release/counter.wasm"
wasm-opt "${wasm_opt_flags[@]}" "$work/pkg/counter_bg.wasm" -o "$work/pkg/counter_bg.wasm"

step "what each page downloads, served by Sou"
node scripts/bundle/measure.mjs target/release/sou target/site "$work/pkg"
