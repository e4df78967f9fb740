#!/usr/bin/env bash
# The test command (docs/contributing.md): static checks, then the fast tier, then the real tier.
#   bash scripts/test.sh [ARGS]       ruff, mypy, the tiers' check, the fast tier, then the real tier
#   bash scripts/test.sh fast [ARGS]  the fast tier only: unit and wiring tests on fakes
#   bash scripts/test.sh real [ARGS]  the real tier only: the embedded model, Docker, a browser, real servers
# ARGS go to pytest (each run of a tier; -n 0 runs it in one process); a run of which ARGS select no
# test is not a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${SEJURY_VENV:-.venv}
PY="$VENV/bin/python"

tier() {  # tier NAME [ARGS]: pytest on one tier
  local name=$1 rc=0
  shift
  USER_ARGS=$#
  if [ "$name" = fast ]; then
    # a worker per core (pytest-xdist), the tests spread one by one
    run "the fast tier" --tier fast -n auto --dist load "$@" || rc=$?
  else
    # the tests that do not use the embedded model on a worker per core, each module's tests on one
    # worker (tests/conftest.py's groups); then those on the model, one at a time and alone: the
    # model's threads slow down several-fold beside other work (docs/results/2026-11-27-ci-workers.md)
    # (both run, and the tier fails if either does)
    run "the real tier without the embedded model" --tier real --embedded skip -n auto --dist loadgroup "$@" || rc=$?
    run "the real tier on the embedded model" --tier real --embedded only "$@" || rc=$?
  fi
  return "$rc"
}

run() {  # run TITLE [PYTEST ARGS]: the user's ARGS (last) may select no test, not a failure then
  local title=$1 rc=0
  shift
  echo "==> pytest: $title"
  "$PY" -m pytest "$@" || rc=$?
  if [ "$rc" = 5 ] && [ "$USER_ARGS" -gt 0 ]; then  # 5: no test collected, as ARGS asked
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
