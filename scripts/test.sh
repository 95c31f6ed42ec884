#!/usr/bin/env bash
# Runs every test of Sou: unit, corpus and property tests, backend against SQLite,
# server routes in-process, lints for each build, the browser bundle's dependency
# check, and the end-to-end tests in Debian Chromium (JavaScript off and hydrated).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
# Incremental caches only help edit-compile loops; here they would double the disk used.
export CARGO_INCREMENTAL=0

# Browser tests need Debian's Chromium and the sqlite3 command (for expected sums).
if ! command -v chromium >/dev/null || ! command -v sqlite3 >/dev/null; then
  step "installing chromium and sqlite3 (apt)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver sqlite3 >/dev/null
fi
if [ ! -d end2end/node_modules/@playwright/test ]; then
  step "installing end2end npm packages"
  (cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi

step "formatting (cargo fmt --check)"
cargo fmt --all -- --check

step "the browser bundle's dependencies contain no server crate"
bash scripts/check-wasm-deps.sh

mkdir -p target
step "cargo test (agent corpus, backend on SQLite, server routes)"
cargo test --workspace --locked 2>&1 | tee target/cargo-test.log
# The browser's agent (no writes, no dataset questions: recognised and sent).
cargo test -p agent --lib --no-default-features --locked 2>&1 | tee -a target/cargo-test.log
# The parser's numbers, printed: coverage and precision at high and at medium confidence,
# and what the out-of-domain requests got.
cargo test -p agent --locked --test it -- --nocapture --test-threads=1 corpus::corpus out_of_domain 2>/dev/null |
  grep -oE '(corpus|out of domain): .*'

step "clippy: server build (ssr), browser build (hydrate, wasm32), agent and its browser bench on wasm32"
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo clippy -p app --lib --no-default-features --features hydrate --target wasm32-unknown-unknown --locked -- -D warnings
cargo clippy -p agent -p parser-web-bench --lib --target wasm32-unknown-unknown --locked -- -D warnings
# The browser's agent: without the server's features.
cargo clippy -p agent --lib --no-default-features --target wasm32-unknown-unknown --locked -- -D warnings
# Each of the agent's features alone compiles, warning-free (one may need another).
for feature in writes datasets asides shorthand readings activity; do
  cargo clippy -p agent --lib --no-default-features --features "$feature" --locked -- -D warnings
done

# The browser's files as serve.sh builds them (wasm-release bundle, hashed names,
# precompressed): the bundle's budget is checked on them.
step "building the browser's bundle as serve.sh does (wasm-release)"
cargo leptos build --release --precompress --frontend-only
# The server the end-to-end tests start is the `sou` that `cargo test` built above for
# the server's own tests (target/debug/sou: the same code, unoptimised, with debug
# assertions on), so the suite does not compile the whole server a second time. It
# finds the bundle's hashed names in hash.txt beside itself.
cp target/release/hash.txt target/debug/hash.txt

step "end-to-end tests in Chromium"
(cd end2end && SOU_E2E_BIN="$PWD/../target/debug/sou" npx playwright test) 2>&1 | tee target/e2e.log

# One closing line for whoever reads the log.
passed=$(( $(grep -Eo 'test result: ok\. [0-9]+ passed' target/cargo-test.log | awk '{s+=$4} END {print s+0}') \
         + $(grep -Eo '^ *[0-9]+ passed' target/e2e.log | awk '{s+=$1} END {print s+0}') ))
echo "$passed passed, 0 failed"
