#!/usr/bin/env bash
# The test command: static checks, then every test, the real embedded-model ones included.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${SEJURY_VENV:-.venv}
echo "==> ruff"
"$VENV/bin/ruff" check sejury tests
echo "==> mypy"
"$VENV/bin/mypy"
echo "==> pytest"
exec "$VENV/bin/python" -m pytest "$@"
