#!/usr/bin/env bash
# Fuzzes the bank file readers with cargo-fuzz (libFuzzer): `formats`
# (backend/fuzz/fuzz_targets/formats.rs) reads arbitrary bytes as every format of the
# list, which must neither panic nor give rows or rejected lines outside the file; `csv`
# also checks that a CSV file reads the same with the layout it detected. Seeds: the fixtures in backend/tests/fixtures/import. A crash is
# saved under backend/fuzz/artifacts/<target>/ and replayed with
#   cd backend && RUSTC_BOOTSTRAP=1 cargo fuzz run -s none -a <target> fuzz/artifacts/<target>/<file>
#
#   bash scripts/fuzz-import.sh [SECONDS_PER_TARGET [TARGET...]]     (default 300 s, both)
#
# cargo-fuzz and its flags: scripts/fuzz-common.sh.
set -euo pipefail
# shellcheck source=fuzz-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/fuzz-common.sh"
seconds=${1:-300}
shift $(($# > 0 ? 1 : 0))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(formats csv)

fixtures=backend/tests/fixtures/import
for target in "${targets[@]}"; do
  seeds=backend/fuzz/corpus/$target
  mkdir -p "$seeds"
  case $target in
    csv) cp "$fixtures"/*.csv "$fixtures"/*.txt "$seeds"/ ;;
    formats) find "$fixtures" -maxdepth 1 -type f -exec cp {} "$seeds"/ \; ;;
    *) echo "unknown target $target (formats, csv)" >&2; exit 2 ;;
  esac
done

cd backend
for target in "${targets[@]}"; do
  echo "== fuzzing $target for ${seconds}s"
  cargo fuzz run -s none -a "$target" -- -max_total_time="$seconds" -timeout=5 -max_len=65536 \
    -print_final_stats=1
done
