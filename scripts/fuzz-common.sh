# What both fuzzing scripts need, sourced by fuzz-import.sh and fuzz-parser.sh: the
# repository root as working directory, and cargo-fuzz at the version of versions.env.
#
# cargo-fuzz needs nightly flags; RUSTC_BOOTSTRAP=1 lets the pinned stable toolchain
# accept them. The scripts run their targets with `-s none` (no sanitizer: the code
# fuzzed has no unsafe, and without AddressSanitizer a target runs more inputs per
# second) and `-a` (debug assertions, so an integer overflow panics as in tests).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=versions.env
source scripts/versions.env
export PATH="$HOME/.cargo/bin:$PATH" CARGO_INCREMENTAL=0 RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version 2>/dev/null | grep -q " $CARGO_FUZZ_VERSION\$"; then
  echo "== installing cargo-fuzz $CARGO_FUZZ_VERSION"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi
