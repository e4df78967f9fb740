#!/usr/bin/env bash
# The test command (docs/contributing.md): static checks, then the fast tier, then the real tier.
#   bash scripts/test.sh [ARGS]       ruff, mypy, the tiers' check, the fast tier, then the real tier
#   bash scripts/test.sh fast [ARGS]  the fast tier only: unit and wiring tests on fakes
#   bash scripts/test.sh real [ARGS]  the real tier only: the embedded model, Docker, a browser, real servers
# ARGS go to pytest (each tier's run); a tier of which ARGS select no test is not a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${SEJURY_VENV:-.venv}
PY="$VENV/bin/python"

tier() {  # tier NAME [ARGS]: pytest on one tier
  local name=$1 rc=0
  shift
  echo "==> pytest: the $name tier"
  "$PY" -m pytest --tier "$name" "$@" || rc=$?
  if [ "$rc" = 5 ] && [ $# -gt 0 ]; then  # 5: no test collected, as ARGS asked
    rc=0
  fi
  return "$rc"
}

collect() {  # the test ids pytest collects with these options, sorted
  "$PY" -m pytest --collect-only -q -p no:cacheprovider "$@" | grep '::' | sort
}

check_tiers() {  # every test is in exactly one tier: fast and real are disjoint and make up the whole
  local dir all fast real
  dir=$(mktemp -d)
  collect >"$dir/all" & all=$!
  collect --tier fast >"$dir/fast" & fast=$!
  collect --tier real >"$dir/real" & real=$!
  wait "$all" && wait "$fast" && wait "$real"
  local both missing
  both=$(comm -12 "$dir/fast" "$dir/real")
  missing=$(sort "$dir/fast" "$dir/real" | comm -23 "$dir/all" -)
  echo "$(wc -l <"$dir/fast") fast + $(wc -l <"$dir/real") real = $(wc -l <"$dir/all") tests"
  rm -rf "$dir"
  if [ -n "$both" ] || [ -n "$missing" ]; then
    [ -z "$both" ] || printf 'in both tiers:\n%s\n' "$both"
    [ -z "$missing" ] || printf 'in no tier:\n%s\n' "$missing"
    return 1
  fi
}

case "${1:-}" in
  fast|real)
    name=$1
    shift
    tier "$name" "$@"
    exit
    ;;
esac
echo "==> ruff"
"$VENV/bin/ruff" check sejury tests
echo "==> mypy"
"$VENV/bin/mypy"
echo "==> tiers"
check_tiers
tier fast "$@"
tier real "$@"
