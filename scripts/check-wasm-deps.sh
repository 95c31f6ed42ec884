#!/usr/bin/env bash
# The browser bundle (app with `hydrate`, for wasm32) must not depend on server crates.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
forbidden='^(sqlx|sqlx-core|sqlx-sqlite|libsqlite3-sys|tokio|mio|reqwest|hyper|axum|backend|leptos_axum)$'
tree=$(cargo tree -p app --target wasm32-unknown-unknown --no-default-features --features hydrate \
  -e normal --prefix none --locked | awk '{print $1}' | sort -u)
if [ -z "$tree" ]; then
  echo "cargo tree printed nothing" >&2
  exit 1
fi
found=$(printf '%s\n' "$tree" | grep -E "$forbidden" || true)
if [ -n "$found" ]; then
  echo "the browser bundle depends on server crates:" >&2
  printf '  %s\n' $found >&2
  exit 1
fi
echo "ok: $(printf '%s\n' "$tree" | wc -l) crates in the browser build, none of sqlx, tokio, mio, reqwest, hyper, axum, backend"
