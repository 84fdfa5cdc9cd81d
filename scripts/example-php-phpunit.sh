#!/usr/bin/env bash
# examples/php-phpunit against the binary: 4 concurrent PHPUnit processes, one server, a namespace
# per test. Installs Debian's php-cli and phpunit when missing. Run after `pnpm run build:binary`;
# MOCK_BIN names another server.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v php >/dev/null || ! command -v phpunit >/dev/null; then
  apt-get update && apt-get install -y php-cli phpunit
fi
export MOCK_BIN=${MOCK_BIN:-$PWD/packages/mock/dist-bin/reseller-mock}
exec bash examples/php-phpunit/run-tests.sh
