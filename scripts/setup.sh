# Installs whatever Sou's build needs and is missing. Sourced by serve.sh and test.sh;
# safe to run any number of times. Needs: rustup, cargo, npm (and apt for the tests).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=versions.env
source scripts/versions.env
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n== [%s] %s\n' "$(date -u +%T)" "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! cargo leptos --version 2>/dev/null | grep -q "$CARGO_LEPTOS_VERSION"; then
  step "installing cargo-leptos $CARGO_LEPTOS_VERSION (about 20 minutes on 2 cores)"
  cargo install cargo-leptos --version "$CARGO_LEPTOS_VERSION" --locked
fi

wasm_bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -q " $wasm_bindgen_version\$"; then
  step "installing wasm-bindgen-cli $wasm_bindgen_version (matches Cargo.lock)"
  cargo install wasm-bindgen-cli --version "=$wasm_bindgen_version"
fi

if ! wasm-opt --version 2>/dev/null | grep -q "version $BINARYEN_VERSION"; then
  step "installing binaryen $BINARYEN_VERSION (wasm-opt)"
  npm install -g "binaryen@$BINARYEN_VERSION" --no-audit --no-fund
fi
