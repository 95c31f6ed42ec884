#!/usr/bin/env bash
# Lighthouse (mobile, its default simulated slow 4G and CPU) on the sign-in page, the
# chat page and a conversation of 9 answers, against the release build: performance,
# accessibility, total byte weight, time to interactive. Prints the figures.
#
#   bash scripts/lighthouse.sh [--no-build]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
export CARGO_INCREMENTAL=0
if [ "${1:-}" != "--no-build" ]; then
  step "building Sou as serve.sh does (cargo leptos build --release --precompress)"
  cargo leptos build --release --precompress
fi
if ! command -v chromium >/dev/null; then
  step "installing chromium (apt)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ ! -f "target/lighthouse/node_modules/lighthouse/package.json" ] ||
  ! grep -q "\"version\": \"$LIGHTHOUSE_VERSION\"" target/lighthouse/node_modules/lighthouse/package.json; then
  step "installing lighthouse $LIGHTHOUSE_VERSION (npm, under target/lighthouse)"
  mkdir -p target/lighthouse
  npm install --prefix target/lighthouse --no-audit --no-fund --no-save "lighthouse@$LIGHTHOUSE_VERSION" >/dev/null
fi
step "Lighthouse, mobile"
node scripts/bundle/lighthouse.mjs target/release/sou target/site target/lighthouse
