#!/usr/bin/env bash
# Build the sandbox image with no container registry: mmdebstrap makes a Debian rootfs with the
# toolchains from this machine's apt sources, and `docker import` turns it into an image.
# Same toolchains as ./Dockerfile (for users with a registry).  Usage: build-offline.sh [TAG]
set -euo pipefail
TAG=${1:-sejury-sandbox:1}
SUITE=${SEJURY_SANDBOX_SUITE:-bookworm}
command -v mmdebstrap >/dev/null || { echo "mmdebstrap is missing: apt-get install -y mmdebstrap" >&2; exit 2; }
command -v docker >/dev/null || { echo "docker is missing: apt-get install -y docker.io" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# python3 + pytest, node, a JDK, g++, go; coreutils gives `timeout`
mmdebstrap --quiet --variant=minbase \
  --include=python3,python3-pytest,nodejs,default-jdk-headless,g++,golang-go,ca-certificates,coreutils \
  --customize-hook='rm -rf "$1"/var/cache/apt/archives/*.deb "$1"/var/lib/apt/lists/*' \
  "$SUITE" "$tmp/rootfs.tar"
docker import \
  --change 'ENV PATH=/usr/lib/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV HOME=/tmp GOCACHE=/tmp/go-cache GOPATH=/tmp/go GOFLAGS=-mod=mod GO111MODULE=on GOTOOLCHAIN=local' \
  --change 'ENV PYTHONDONTWRITEBYTECODE=1 LANG=C.UTF-8' \
  --change 'LABEL org.sejury.sandbox=1' \
  --change 'WORKDIR /work' \
  --change 'USER 65534:65534' \
  --change 'CMD ["sleep", "infinity"]' \
  "$tmp/rootfs.tar" "$TAG" >/dev/null
echo "built $TAG"
