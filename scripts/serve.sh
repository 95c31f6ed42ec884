#!/usr/bin/env bash
# Builds Sou (server in release, browser bundle in the size-optimised wasm-release
# profile) and serves it on http://127.0.0.1:3000 (SOU_ADDR to change).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cargo leptos build --release --precompress
export LEPTOS_SITE_ROOT=target/site LEPTOS_SITE_PKG_DIR=pkg LEPTOS_OUTPUT_NAME=sou LEPTOS_ENV=PROD
exec target/release/sou
