#!/usr/bin/env bash
# examples/python-pytest against the binary: pytest with 4 xdist workers, one server, a namespace
# per test. Installs Debian's python3-pytest and python3-pytest-xdist when missing (no pip).
# Run after `pnpm run build:binary`; MOCK_BIN names another server.
set -euo pipefail
cd "$(dirname "$0")/.."
python=/usr/bin/python3
if ! [ -x "$python" ] || ! "$python" -c 'import pytest, xdist' 2>/dev/null; then
  apt-get update && apt-get install -y python3 python3-pytest python3-pytest-xdist
fi
export MOCK_BIN=${MOCK_BIN:-$PWD/packages/mock/dist-bin/reseller-mock}
cd examples/python-pytest
exec "$python" -m pytest -n 4 -p no:cacheprovider "$@"
