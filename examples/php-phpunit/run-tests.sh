#!/usr/bin/env bash
# The PHPUnit tests as 4 concurrent PHPUnit processes (PHPUNIT_PROCESSES=N for another number) against one reseller-mock, each test in a
# namespace of its own (tests/MockTestCase.php). Uses the server at RESELLER_MOCK_URL when it is
# set; else starts the binary (MOCK_BIN, default: the repository's build, then `reseller-mock` on
# PATH) on a free port and stops it at the end. Exits non-zero when a process fails.
set -euo pipefail
cd "$(dirname "$0")"

processes=${PHPUNIT_PROCESSES:-4}
started_pid=""
workdir=$(mktemp -d)
cleanup() {
  if [ -n "$started_pid" ] && kill -0 "$started_pid" 2>/dev/null; then kill -KILL "$started_pid"; fi
  rm -rf "$workdir"
}
trap cleanup EXIT

if [ -z "${RESELLER_MOCK_URL:-}" ]; then
  bin=${MOCK_BIN:-../../packages/mock/dist-bin/reseller-mock}
  [ -x "$bin" ] || bin=$(command -v reseller-mock || true)
  if [ -z "$bin" ]; then
    echo "no reseller-mock: set MOCK_BIN to the binary (docs/without-node.md)" >&2
    exit 1
  fi
  # The server reads RESELLER_MOCK_* as its own settings: it gets none of the test's.
  env -u RESELLER_MOCK_URL "$bin" --port 0 --quiet >"$workdir/mock.out" 2>"$workdir/mock.err" &
  started_pid=$!
  # Wait for the ready line; give up when the server ends first or after 30 s.
  for _ in $(seq 300); do
    RESELLER_MOCK_URL=$(grep -o 'listening on http://[^ ]*' "$workdir/mock.out" | head -1 | cut -d' ' -f3 || true)
    [ -n "$RESELLER_MOCK_URL" ] && break
    if ! kill -0 "$started_pid" 2>/dev/null; then
      echo "reseller-mock ended before it was ready:" >&2; cat "$workdir/mock.err" >&2; exit 1
    fi
    sleep 0.1
  done
  if [ -z "$RESELLER_MOCK_URL" ]; then echo "reseller-mock printed no ready line in 30 s" >&2; exit 1; fi
  export RESELLER_MOCK_URL
  echo "reseller-mock at $RESELLER_MOCK_URL"
fi

# One test class per process, all at the same time: tests/*Test.php dealt out round-robin.
mapfile -t files < <(ls tests/*Test.php)
pids=()
for ((p = 0; p < processes; p++)); do
  mine=()
  for ((i = p; i < ${#files[@]}; i += processes)); do mine+=("${files[$i]}"); done
  [ ${#mine[@]} -gt 0 ] || continue
  (
    status=0
    for file in "${mine[@]}"; do phpunit --configuration phpunit.xml "$file" || status=1; done
    exit $status
  ) >"$workdir/process-$p.log" 2>&1 &
  pids+=($!)
done

failed=0
for p in "${!pids[@]}"; do
  if wait "${pids[$p]}"; then result=passed; else result=FAILED; failed=1; fi
  echo "--- PHPUnit process $((p + 1)) of ${#pids[@]}: $result"
  cat "$workdir/process-$p.log"
done

if [ -n "$started_pid" ]; then
  kill -TERM "$started_pid"
  if wait "$started_pid"; then echo "reseller-mock stopped (exit 0)"; else
    echo "reseller-mock exited with $? on SIGTERM" >&2; failed=1
  fi
  started_pid=""
fi
exit $failed
