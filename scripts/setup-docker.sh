#!/usr/bin/env bash
# The Docker sandbox: install the engine (Debian's docker.io) and mmdebstrap if missing, start
# dockerd if no engine answers, and build the sandbox images from the machine's apt sources (the base
# one, and the scientific one for library-heavy Python, which adds five wheels from PyPI) if they are
# not there.
# Needs root (as on this project's machines).  Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${SEJURY_VENV:-.venv}
if ! command -v dockerd >/dev/null || ! command -v mmdebstrap >/dev/null; then
  echo "==> installing docker.io and mmdebstrap"
  # one apt at a time: scripts/setup.sh may be installing Debian's packages beside this
  flock /tmp/sejury-apt.lock bash -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io mmdebstrap >/dev/null"
fi
if ! docker info >/dev/null 2>&1; then
  echo "==> starting dockerd"
  (dockerd >/tmp/sejury-dockerd.log 2>&1 &)
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || { echo "dockerd did not start; see /tmp/sejury-dockerd.log" >&2; exit 1; }
fi
image() { "$VENV/bin/python" -c "from sejury.paths import sandbox_image; print(sandbox_image('$1'))"; }
if ! docker image inspect "$(image base)" >/dev/null 2>&1; then
  echo "==> building the sandbox image offline (about 1-2 minutes, 1.3 GB)"
  "$VENV/bin/sejury" sandbox build
fi
if ! docker image inspect "$(image scientific)" >/dev/null 2>&1; then
  echo "==> building the scientific sandbox image (library-heavy Python: numpy, pandas, ...)"
  "$VENV/bin/sejury" sandbox build --profile scientific
fi
"$VENV/bin/sejury" sandbox check
