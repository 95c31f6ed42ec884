#!/usr/bin/env bash
# Fuzzes the bank file parsers with cargo-fuzz (libFuzzer), one target per format
# (backend/fuzz/fuzz_targets/{csv,ofx,qif,camt}.rs): arbitrary bytes must neither panic
# nor give rows or rejected lines outside the file; CSV must read the same with the
# layout it detected. Seeds: the fixtures in backend/tests/fixtures/import. A crash is
# saved under backend/fuzz/artifacts/<target>/ and replayed with
#   cd backend && RUSTC_BOOTSTRAP=1 cargo fuzz run -s none -a <target> fuzz/artifacts/<target>/<file>
#
#   bash scripts/fuzz-import.sh [SECONDS_PER_TARGET [TARGET...]]     (default 300 s, all four)
#
# As scripts/fuzz-parser.sh: RUSTC_BOOTSTRAP=1 for cargo-fuzz's nightly flags on the
# pinned stable toolchain, no sanitizer (the parsers have no unsafe code), debug
# assertions on (`-a`), so an integer overflow panics.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=versions.env
source scripts/versions.env
export PATH="$HOME/.cargo/bin:$PATH" CARGO_INCREMENTAL=0 RUSTC_BOOTSTRAP=1
seconds=${1:-300}
shift $(($# > 0 ? 1 : 0))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(csv ofx qif camt)

if ! cargo fuzz --version 2>/dev/null | grep -q " $CARGO_FUZZ_VERSION\$"; then
  echo "== installing cargo-fuzz $CARGO_FUZZ_VERSION"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi

fixtures=backend/tests/fixtures/import
for target in "${targets[@]}"; do
  seeds=backend/fuzz/corpus/$target
  mkdir -p "$seeds"
  case $target in
    csv) cp "$fixtures"/*.csv "$fixtures"/*.txt "$seeds"/ ;;
    ofx) cp "$fixtures"/*.ofx "$fixtures"/*.qfx "$seeds"/ ;;
    qif) cp "$fixtures"/*.qif "$seeds"/ ;;
    camt) cp "$fixtures"/*.xml "$seeds"/ ;;
    *) echo "unknown target $target (csv, ofx, qif, camt)" >&2; exit 2 ;;
  esac
done

cd backend
for target in "${targets[@]}"; do
  echo "== fuzzing $target for ${seconds}s"
  cargo fuzz run -s none -a "$target" -- -max_total_time="$seconds" -timeout=5 -max_len=65536 \
    -print_final_stats=1
done
