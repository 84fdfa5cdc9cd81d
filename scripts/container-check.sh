#!/usr/bin/env bash
# The image under a real container engine: Debian's podman (installed when missing) loads the
# built image (packages/mock/dist-image/reseller-mock.docker.tar, from `pnpm run build:image`) and
# serves its Docker-compatible API on a private socket, through which Testcontainers runs
# packages/mock/test/container (a namespace per test, the state in /data, a stop that exits 0).
# The podman settings these machines need (no rlimits, host networking on 127.0.0.1) are explained
# in docs/parallel-tests.md, "Testcontainers".
set -euo pipefail
cd "$(dirname "$0")/.."
pnpm() { npx -y pnpm@12.21.0 "$@"; }

archive=packages/mock/dist-image/reseller-mock.docker.tar
if [ ! -f "$archive" ]; then
  echo "$archive is missing: run pnpm run build:image first" >&2
  exit 1
fi
if ! command -v podman >/dev/null; then
  apt-get update && apt-get install -y podman
fi

work=$(mktemp -d)
service_pid=""
cleanup() {
  if [ -n "$service_pid" ]; then kill "$service_pid" 2>/dev/null || true; wait "$service_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# podman sets default rlimits on every container, which this sandbox refuses (setrlimit).
printf '[containers]\ndefault_ulimits = []\n' >"$work/containers.conf"
export CONTAINERS_CONF="$work/containers.conf"

podman load -q -i "$archive"

socket="$work/podman.sock"
podman system service --time=0 "unix://$socket" &
service_pid=$!
for _ in $(seq 300); do
  [ -S "$socket" ] && break
  if ! kill -0 "$service_pid" 2>/dev/null; then echo "podman system service ended before its socket" >&2; exit 1; fi
  sleep 0.1
done
[ -S "$socket" ] || { echo "podman's socket did not appear in 30 s" >&2; exit 1; }

export DOCKER_HOST="unix://$socket" TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1
export MOCK_IMAGE=${MOCK_IMAGE:-docker.io/library/reseller-mock:latest}
pnpm exec vitest run --config packages/mock/vitest.container.config.ts
