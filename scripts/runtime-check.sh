#!/usr/bin/env bash
# Cross-runtime check of @reseller-api/sdk/webhooks: the packed SDK under Node, Bun and Deno.
#
# Builds the SDK, packs it with pnpm, and installs the tarball with plain npm into a fresh project
# together with bun@1.4.5 and deno@2.9.6 (exact versions), whose binaries come from their npm
# platform packages (@oven/bun-<platform>, @deno/<platform>) and nothing else. Then runs one plain
# ES module, scripts/runtime/vectors.mjs, over the shared vectors
# (packages/sdk/test/fixtures/webhook-vectors.json) under:
#   - Node 24 (the workspace's node_modules/.bin/node),
#   - Bun (node_modules/.bin/bun of the project),
#   - Deno (node_modules/.bin/deno, node_modules resolution, read access to the project only).
# Each run checks the package specifier, as that runtime resolves it, and the default Web Crypto
# file imported by its path. It prints which entry the specifier resolved to (the `node`
# condition's node:crypto file, or the default Web Crypto file), and fails if that is not the
# node:crypto file that docs/webhooks.md says all three pick. Where unprivileged user namespaces are available (unshare -rn), the
# three runs have no network at all. Needs only the npm registry. Exits non-zero on the first
# failure; prints one PASS line per check. RUNTIME_CHECK_KEEP=1 keeps the temp project.
set -euo pipefail

# shellcheck source=lib/pack-check.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/pack-check.sh"
FIXTURES="$ROOT/scripts/runtime"
VECTORS="$ROOT/packages/sdk/test/fixtures/webhook-vectors.json"
BUN_VERSION=1.4.5
DENO_VERSION=2.9.6

workdir runtime "${RUNTIME_CHECK_KEEP:-}"
# Bun and Deno keep their caches inside the temp dir, not in $HOME.
export DENO_DIR="$WORK/deno-dir" DENO_NO_UPDATE_CHECK=1 BUN_RUNTIME_TRANSPILER_CACHE_PATH=0 NO_COLOR=1

build_and_pack @reseller-api/sdk
SDK_TGZ=$(ls "$PACKS"/reseller-api-sdk-*.tgz)
pass "pack: $(basename "$SDK_TGZ")"

step "npm install into a fresh project: the SDK tarball, bun@$BUN_VERSION, deno@$DENO_VERSION"
cp "$FIXTURES/vectors.mjs" "$VECTORS" "$APP/"
# A package.json also tells Deno to resolve npm packages from this node_modules.
cat >"$APP/package.json" <<'EOF'
{ "name": "reseller-api-runtime-check", "version": "0.0.0", "private": true, "type": "module" }
EOF
# Both runtimes ship their binary in an optional platform package, which a postinstall script puts
# in place: insist on optional dependencies and scripts, whatever an npmrc says.
(cd "$APP" && npm install --no-audit --no-fund --loglevel=error --save-exact \
  --include=optional --ignore-scripts=false \
  "$SDK_TGZ" "bun@$BUN_VERSION" "deno@$DENO_VERSION") >"$WORK/install.log" 2>&1 || {
  cat "$WORK/install.log" >&2
  fail "npm install"
}
pass "npm install: $(basename "$SDK_TGZ"), bun@$BUN_VERSION, deno@$DENO_VERSION (registry $(npm config get registry 2>/dev/null))"

step "the binaries: from the npm platform packages, nothing else"
BUN="$APP/node_modules/.bin/bun"
DENO="$APP/node_modules/.bin/deno"
# Where each binary came from, according to npm's lockfile and the installed tree: exactly one
# platform package each, at the pinned version and with its registry integrity.
"$NODE" - "$APP" "$BUN_VERSION" "$DENO_VERSION" >"$WORK/platform" <<'EOF' || fail "platform packages"
const { readFileSync, existsSync } = require('node:fs')
const [app, bunVersion, denoVersion] = process.argv.slice(2)
const lock = JSON.parse(readFileSync(`${app}/package-lock.json`, 'utf8'))
const manifest = JSON.parse(readFileSync(`${app}/package.json`, 'utf8'))
const problems = []
if (manifest.dependencies.bun !== bunVersion) problems.push(`package.json pins bun "${manifest.dependencies.bun}"`)
if (manifest.dependencies.deno !== denoVersion) problems.push(`package.json pins deno "${manifest.dependencies.deno}"`)
const installed = (scope, version) =>
  Object.entries(lock.packages)
    .filter(([path]) => path.startsWith(`node_modules/${scope}/`))
    .filter(([path]) => existsSync(`${app}/${path}/package.json`))
    .map(([path, entry]) => {
      if (entry.version !== version) problems.push(`${path} is ${entry.version}, expected ${version}`)
      if (!/^sha512-/.test(entry.integrity ?? '')) problems.push(`${path} has no registry integrity`)
      return path.slice('node_modules/'.length)
    })
const bun = installed('@oven', bunVersion)
const deno = installed('@deno', denoVersion)
if (bun.length !== 1) problems.push(`expected one @oven/bun-* platform package, found [${bun}]`)
if (deno.length !== 1) problems.push(`expected one @deno/* platform package, found [${deno}]`)
if (problems.length > 0) {
  console.error(problems.join('\n'))
  process.exit(1)
}
console.log(`${bun[0]} ${deno[0]}`)
EOF
read -r BUN_PKG DENO_PKG <"$WORK/platform"
is_elf() { [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }
# Bun: npm unpacks a placeholder bin/bun.exe; bun's postinstall moves the platform package's
# binary over it (its fallbacks would `npm install` or fetch that same package from the npm
# registry, and say so: none of them may have run).
BUN_REAL=$(readlink -f "$BUN")
[ "$BUN_REAL" = "$APP/node_modules/bun/bin/bun.exe" ] || fail "node_modules/.bin/bun points to $BUN_REAL"
is_elf "$BUN_REAL" || fail "bun: $BUN_REAL is still the placeholder (did bun's postinstall run?)"
[ ! -e "$APP/node_modules/$BUN_PKG/bin/bun" ] || [ "$APP/node_modules/$BUN_PKG/bin/bun" -ef "$BUN_REAL" ] ||
  fail "bun: bin/bun.exe is not the binary of $BUN_PKG"
if grep -E 'Failed to (find|install|download) package' "$WORK/install.log" >&2; then
  fail "bun: its postinstall did not find $BUN_PKG and fell back"
fi
[ "$("$BUN" --version)" = "$BUN_VERSION" ] || fail "bun --version is $("$BUN" --version), expected $BUN_VERSION"
pass "bun $BUN_VERSION: $BUN_PKG's binary, moved to node_modules/bun/bin/bun.exe by its postinstall"
# Deno: its postinstall hard-links (or copies) the platform package's binary into deno/.
DENO_REAL=$(readlink -f "$DENO")
is_elf "$DENO_REAL" || fail "deno: $DENO_REAL is not a native binary"
cmp -s "$DENO_REAL" "$APP/node_modules/$DENO_PKG/deno" || fail "deno: $DENO_REAL differs from $DENO_PKG/deno"
deno_version=$("$DENO" --version | head -n 1)
case "$deno_version" in
"deno $DENO_VERSION "*) ;;
*) fail "deno --version is '$deno_version', expected $DENO_VERSION" ;;
esac
pass "deno $DENO_VERSION: $DENO_PKG's binary (node_modules/.bin/deno → ${DENO_REAL#"$APP/"})"

# No network for the runs, where unprivileged user namespaces allow it: the runtimes must need
# nothing beyond the project directory.
if unshare -rn true 2>/dev/null; then
  OFFLINE=(unshare -rn)
  offline_note='no network (unshare -rn)'
else
  OFFLINE=()
  offline_note='network not cut: unshare -rn is not permitted here'
fi

# run <name> <entry> <command…>: runs vectors.mjs, prints its report, and passes when every check
# passed and the package specifier resolved to <entry> (node or web), as docs/webhooks.md says.
run() {
  local name=$1 entry=$2
  shift 2
  (cd "$APP" && ${OFFLINE[@]+"${OFFLINE[@]}"} "$@" vectors.mjs webhook-vectors.json "$name") \
    >"$WORK/$name.log" 2>&1 || {
    cat "$WORK/$name.log" >&2
    fail "$name: vectors.mjs"
  }
  cat "$WORK/$name.log"
  local runtime resolved checks
  runtime=$(sed -n 's/^runtime: //p' "$WORK/$name.log")
  resolved=$(sed -n 's/^resolved: @reseller-api\/sdk\/webhooks -> //p' "$WORK/$name.log")
  checks=$(sed -n 's/^checks: //p' "$WORK/$name.log")
  [ -n "$runtime" ] && [ -n "$resolved" ] && [ -n "$checks" ] || fail "$name: vectors.mjs printed no report"
  [ "${resolved%% *}" = "$entry" ] ||
    fail "$runtime: @reseller-api/sdk/webhooks resolved to $resolved, expected the $entry entry (update docs/webhooks.md if this is right)"
  printf '%s\t%s\n' "$runtime" "$resolved" >>"$WORK/resolved.tsv"
  pass "$runtime: $checks; @reseller-api/sdk/webhooks → $resolved; dist/webhooks/index.js (Web Crypto) by path; $offline_note"
}

step "Node ($("$NODE" --version))"
run node node "$NODE"

step "Bun $BUN_VERSION"
run bun node "$BUN" --no-install

step "Deno $DENO_VERSION"
run deno node "$DENO" run --node-modules-dir=manual --no-lock --no-remote --cached-only --no-prompt --allow-read=.

printf '\nresolved entry of @reseller-api/sdk/webhooks per runtime:\n'
sed 's/^/  /' "$WORK/resolved.tsv"
printf '\nPASS runtime check: all checks passed\n'
