#!/usr/bin/env bash
# Fuzzes the intent parser with cargo-fuzz (libFuzzer): arbitrary bytes as messages and
# follow-ups must neither panic nor give an outcome that does not survive JSON
# (agent/fuzz/fuzz_targets/parse.rs). Seeds: the corpus messages. A crash is saved under
# agent/fuzz/artifacts/parse/ and replayed with
#   cd agent && RUSTC_BOOTSTRAP=1 cargo fuzz run -s none -a parse fuzz/artifacts/parse/<file>
#
#   bash scripts/fuzz-parser.sh [SECONDS [LIBFUZZER_FLAGS...]]      (default 600 s)
#
# libFuzzer lengthens inputs gradually (10 minutes reach about 300 bytes); add
# -len_control=0 to try long inputs at once (messages over 500 characters are refused).
#
# cargo-fuzz and its flags (`agent` forbids unsafe code): scripts/fuzz-common.sh.
set -euo pipefail
# shellcheck source=fuzz-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/fuzz-common.sh"
seconds=${1:-600}
shift $(($# > 0 ? 1 : 0))

seeds=agent/fuzz/corpus/parse
mkdir -p "$seeds"
if [ -z "$(ls -A "$seeds")" ]; then
  # One seed per corpus message; a follow-up is seeded as "previous message\nfollow-up".
  n=0 previous=
  while IFS= read -r line; do
    case "$line" in '' | '#'* | 'today '*) continue ;; esac
    message=${line%=>*}
    message=${message%"${message##*[![:space:]]}"}
    n=$((n + 1))
    if [ "${message#+ }" != "$message" ]; then
      printf '%s\n%s' "$previous" "${message#+ }" >"$seeds/seed-$n"
    else
      printf '%s' "$message" >"$seeds/seed-$n"
    fi
    previous=${message#+ }
  done <agent/tests/corpus.txt
  echo "== seeded $n inputs from agent/tests/corpus.txt"
fi

echo "== fuzzing the parser for ${seconds}s"
cd agent
exec cargo fuzz run -s none -a parse -- -max_total_time="$seconds" -timeout=5 -print_final_stats=1 "$@"
