#!/usr/bin/env bash
# The compiler launcher of setup.sh's llama-server build (CMAKE_<LANG>_COMPILER_LAUNCHER): it runs the
# compile command it is given, with one change.  A file outside llama.cpp's kernels (ggml/src/) and
# model code (src/) -- the server's HTTP, JSON and chat-template code (tools/server/, common/,
# vendor/) and the multimodal library the server links but a text model never calls (tools/mtmd/) --
# is compiled at -O0 instead of -O3.  Those files are ~70 % of the build's CPU (measured on 2 cores:
# common/ 200 s, src/ 108 s, tools/server/ 97 s, tools/mtmd/ 97 s, ggml/ 64 s, vendor/ 22 s), and
# most of it is the optimiser; what the model computes stays at -O3.  Measured: the build 322 s ->
# 242 s, the same replies, ~15 ms more per request (docs/results/2026-11-28-server-build.md).
src=
prev=
for arg in "$@"; do
  [ "$prev" = -c ] && src=$arg
  prev=$arg
done
case "$src" in
  */ggml/src/* | */llama.cpp/src/*) exec "$@" ;;
esac
args=()
for arg in "$@"; do
  case $arg in
    -O1 | -O2 | -O3 | -Os | -Ofast) args+=(-O0) ;;
    *) args+=("$arg") ;;
  esac
done
exec "${args[@]}"
