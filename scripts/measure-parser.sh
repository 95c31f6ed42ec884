#!/usr/bin/env bash
# Measures the intent parser where users meet it. Prints figures; fails only if the
# browser build links `regex` or the measuring crate, or if a step fails.
#
#   bash scripts/measure-parser.sh [all|time|size]     (default all)
#
# time: parse time per corpus message in headless Chromium (agent/web-bench built for
#       wasm32 like the app: profile wasm-release, then wasm-opt -Oz), against a
#       tokenising baseline timed in the same run; then the same harness natively, and
#       the agent crate's own benchmark (cargo bench -p agent --bench parse). ~5 min.
# size: the shipped bundle (cargo leptos build --release, ~10 min on 2 cores): its size
#       raw and gzip -9, and the bytes of the `agent` crate in it (twiggy).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
export CARGO_INCREMENTAL=0
what=${1:-all}
case "$what" in all | time | size) ;; *) echo "usage: $0 [all|time|size]" >&2; exit 2 ;; esac
# The flags cargo-leptos 0.3 gives wasm-opt for a release build.
wasm_opt_flags=(-Oz --enable-bulk-memory --enable-nontrapping-float-to-int)

measure_time() {
  if ! command -v chromium >/dev/null; then
    step "installing chromium (apt)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
  if [ ! -d end2end/node_modules/@playwright/test ]; then
    step "installing end2end npm packages"
    (cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
  fi

  step "building agent/web-bench for the browser (wasm-release, wasm-bindgen, wasm-opt)"
  cargo build -p parser-web-bench --lib --target wasm32-unknown-unknown --profile wasm-release --locked
  rm -rf target/parser-web-bench
  wasm-bindgen --target web --out-dir target/parser-web-bench \
    target/wasm32-unknown-unknown/wasm-release/parser_web_bench.wasm
  wasm-opt "${wasm_opt_flags[@]}" target/parser-web-bench/parser_web_bench_bg.wasm \
    -o target/parser-web-bench/parser_web_bench_bg.wasm

  step "parse time in headless Chromium"
  node end2end/parser-bench.mjs

  step "the same harness natively (release)"
  cargo run -q -p parser-web-bench --release --bin native --locked

  step "native: cargo bench -p agent --bench parse (no follow-up contexts, one date)"
  cargo bench -q -p agent --bench parse --locked
}

# Shallow sizes of every item of a wasm file, as "bytes<TAB>name" (names need the file's
# name section; without it functions are "code[N]").
items() {
  # CSV: Name,ShallowSize,ShallowSizePercent,RetainedSize,RetainedSizePercent; only the
  # name (quoted) can hold commas.
  twiggy top -n 1000000 -f csv "$1" |
    awk -F, 'NR > 1 {
      size = $(NF - 3); name = $0; sub(/(,[^,]*){4}$/, "", name)
      if (name ~ /^".*"$/) { name = substr(name, 2, length(name) - 2); gsub(/""/, "\"", name) }
      print size "\t" name
    }'
}

# Items whose name mentions one of the crates: `agent::…`, `agent[hash]::…`, also as a
# type parameter (drop_in_place<agent::plan::ToolCall>, Vec<agent::text::Token>::push).
mentioning() {
  awk -F'\t' -v crates="$1" '$2 ~ ("(^|[^A-Za-z0-9_])(" crates ")(\\[[0-9a-f]+\\])?::")'
}

# Items defined in the crate: the path or the impl's self type starts with it.
defined_in() {
  awk -F'\t' -v crate="$1" '$2 ~ ("^<?" crate "(\\[[0-9a-f]+\\])?::")'
}

sum() {
  awk -F'\t' '{ n++; bytes += $1 } END { printf "%d items, %d bytes", n, bytes }'
}

share() {
  awk -F'\t' -v total="$1" '{ bytes += $1 } END { printf "%.1f%%", 100 * bytes / total }'
}

measure_size() {
  if ! twiggy --version 2>/dev/null | grep -q " $TWIGGY_VERSION\$"; then
    step "installing twiggy $TWIGGY_VERSION"
    cargo install twiggy --version "$TWIGGY_VERSION" --locked
  fi

  step "the measuring crate is not in the browser build"
  if cargo tree -p app --target wasm32-unknown-unknown --no-default-features --features hydrate \
    -e normal --prefix none --locked | grep -q '^parser-web-bench '; then
    echo "FAIL: the app's browser build depends on parser-web-bench" >&2
    exit 1
  fi
  echo "ok: app (hydrate) does not depend on parser-web-bench"

  step "building the site as serve.sh does (cargo leptos build --release --precompress)"
  cargo leptos build --release --precompress

  local app=target/front/wasm32-unknown-unknown/wasm-release/app.wasm
  # The build hashes file names (sou.<hash>.wasm); its hashes are in hash.txt.
  local shipped
  shipped=target/site/pkg/sou.$(awk '$1 == "wasm:" { print $2 }' target/release/hash.txt).wasm
  local out=target/parser-size
  rm -rf "$out" && mkdir -p "$out"

  # cargo-leptos runs wasm-bindgen, then wasm-opt without -g, which drops the name
  # section: the shipped file names no function. app.wasm, before both, keeps its names.
  # Rebuild the shipped file from it the same way but with -g (names kept), and check
  # that it equals the shipped file once the names are stripped.
  step "the shipped bundle rebuilt with names (wasm-bindgen, wasm-opt -g)"
  wasm-bindgen --target=web --out-name=sou --out-dir="$out" "$app"
  wasm-opt "${wasm_opt_flags[@]}" -g "$out/sou_bg.wasm" -o "$out/sou-named.wasm"
  wasm-opt --strip-debug "$out/sou-named.wasm" -o "$out/sou-stripped.wasm"
  items "$shipped" >"$out/shipped.tsv"
  items "$out/sou-named.wasm" >"$out/named.tsv"
  items "$app" >"$out/app.tsv"
  local raw gz stripped app_raw
  raw=$(wc -c <"$shipped")
  gz=$(gzip -9 -c "$shipped" | wc -c)
  stripped=$(wc -c <"$out/sou-stripped.wasm")
  app_raw=$(wc -c <"$app")
  echo "names: shipped file $(grep -c 'function names' "$out/shipped.tsv" || true) name section(s)," \
    "$(grep -c $'\tcode\\[' "$out/shipped.tsv" || true) unnamed functions;" \
    "app.wasm $(grep -c 'function names' "$out/app.tsv" || true) name section(s)"
  echo "rebuilt with names: $(wc -c <"$out/sou-named.wasm") bytes, $stripped without them, shipped $raw"
  if [ "$stripped" != "$raw" ]; then
    echo "note: the rebuild differs from the shipped file by $((stripped - raw)) bytes" >&2
  fi

  step "browser bundle: the agent crate's share"
  echo "shipped $shipped: $raw bytes raw, $gz bytes gzip -9"
  echo "shipped, items mentioning agent::   $(mentioning agent <"$out/named.tsv" | sum)," \
    "$(mentioning agent <"$out/named.tsv" | share "$raw") of $raw"
  echo "shipped, items defined in agent:    $(defined_in agent <"$out/named.tsv" | sum)," \
    "$(defined_in agent <"$out/named.tsv" | share "$raw") of $raw"
  echo "  of which serde (de)serialisation:  $(mentioning agent <"$out/named.tsv" | grep -F serde | sum)"
  echo "  the rest by agent module: $(mentioning agent <"$out/named.tsv" | grep -vF serde | awk -F'\t' '
    { name = $2; sub(/^<?agent::/, "", name); split(name, part, "::")
      module = $2 ~ /^<?agent::/ ? part[1] : "generic"; bytes[module] += $1 }
    END { for (m in bytes) print bytes[m] " " m }' | sort -nr | awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }')"
  echo "app.wasm (before wasm-bindgen and wasm-opt, $app_raw bytes with names):" \
    "items mentioning agent:: $(mentioning agent <"$out/app.tsv" | sum)"
  echo "top 10 agent items, shipped (shallow bytes):"
  mentioning agent <"$out/named.tsv" | sort -t$'\t' -k1,1nr | head -10 |
    awk -F'\t' '{ name = $2; gsub(/::h[0-9a-f]{16}$/, "", name); printf "  %7d  %s\n", $1, substr(name, 1, 100) }'

  step "no regex and no measuring code in the browser build"
  local bad
  bad=$(cat "$out/named.tsv" "$out/app.tsv" | mentioning 'regex|regex_automata|regex_syntax|parser_web_bench' | head -5)
  if [ -n "$bad" ]; then
    echo "FAIL: the browser build links regex or parser-web-bench:" >&2
    printf '  %s\n' "$bad" >&2
    exit 1
  fi
  if [ "$(mentioning 'core|alloc|std' <"$out/app.tsv" | wc -l)" -lt 100 ]; then
    echo "FAIL: app.wasm has no usable function names, the regex check proves nothing" >&2
    exit 1
  fi
  echo "ok: no regex::, regex_automata::, regex_syntax:: or parser_web_bench:: among" \
    "$(wc -l <"$out/app.tsv") items of app.wasm and $(wc -l <"$out/named.tsv") of the shipped rebuild"
}

case "$what" in
  time) measure_time ;;
  size) measure_size ;;
  all)
    measure_time
    measure_size
    ;;
esac
