#!/usr/bin/env bash
# Packaged consumer check: what a user gets from `npm install` of the published packages.
#
# Builds both packages, packs them with pnpm (workspace:* rewritten to a version), installs the
# two tarballs with plain npm into a fresh project, then:
#   (a) an ES module imports @reseller-api/sdk, @reseller-api/sdk/webhooks and @reseller-api/mock
#       and makes real calls (mock.fetch → tickets.list; signPayload → verifySignature);
#   (b) a CommonJS file does the same with require() (Node's require of ES modules);
#   (c) tsc --noEmit, strict, over a TypeScript consumer under moduleResolution nodenext and
#       bundler, with @ts-expect-error lines that fail if the types resolve to `any`.
# Runs the consumer on the workspace's Node 24 (node_modules/.bin/node). Needs only the npm
# registry. Exits non-zero on the first failure; prints one PASS line per check.
set -euo pipefail

# shellcheck source=lib/pack-check.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/pack-check.sh"
FIXTURES="$ROOT/scripts/consumer"

# CONSUMER_CHECK_KEEP=1 keeps the project (and the logs) for a look afterwards.
workdir consumer "${CONSUMER_CHECK_KEEP:-}"
build_and_pack @reseller-api/sdk @reseller-api/mock
SDK_TGZ=$(ls "$PACKS"/reseller-api-sdk-*.tgz)
MOCK_TGZ=$(ls "$PACKS"/reseller-api-mock-*.tgz)
# The tarballs' manifests: no workspace: protocol left, the mock depends on this SDK's version,
# and every file an entry point names is in the tarball.
"$NODE" - "$SDK_TGZ" "$MOCK_TGZ" <<'EOF' || fail "packed manifests"
const { execFileSync } = require('node:child_process')
const [sdkTgz, mockTgz] = process.argv.slice(2)
const read = (tgz) => ({
  manifest: JSON.parse(execFileSync('tar', ['-xzOf', tgz, 'package/package.json'], { encoding: 'utf8' })),
  files: new Set(execFileSync('tar', ['-tzf', tgz], { encoding: 'utf8' }).split('\n').filter(Boolean)),
})
const sdk = read(sdkTgz)
const mock = read(mockTgz)
const problems = []
for (const [name, pkg] of [['sdk', sdk], ['mock', mock]]) {
  const text = JSON.stringify(pkg.manifest)
  if (text.includes('workspace:')) problems.push(`${name}: package.json still has a workspace: range`)
  const targets = []
  const walk = (value) => {
    if (typeof value === 'string') targets.push(value)
    else if (value && typeof value === 'object') Object.values(value).forEach(walk)
  }
  walk(pkg.manifest.exports)
  walk(pkg.manifest.bin)
  for (const field of ['main', 'types']) if (pkg.manifest[field]) targets.push(pkg.manifest[field])
  for (const target of targets) {
    if (target === './package.json') continue
    const path = `package/${target.replace(/^\.\//, '')}`
    if (!pkg.files.has(path)) problems.push(`${name}: ${target} is named by package.json but not packed`)
  }
  for (const file of pkg.files) {
    if (/^package\/(src|test)\//.test(file)) problems.push(`${name}: ${file} should not be packed`)
  }
  // "imports" (private mappings) resolve inside the installed package too: only to packed files.
  const imports = []
  const collect = (value) => {
    if (typeof value === 'string') imports.push(value)
    else if (value && typeof value === 'object') Object.values(value).forEach(collect)
  }
  collect(pkg.manifest.imports)
  for (const target of imports) {
    if (!pkg.files.has(`package/${target.replace(/^\.\//, '')}`))
      problems.push(`${name}: "imports" maps to ${target}, which is not packed`)
  }
  // The README is the package page: a relative link must reach a packed file.
  const readme = execFileSync('tar', ['-xzOf', name === 'sdk' ? sdkTgz : mockTgz, 'package/README.md'], { encoding: 'utf8' })
  for (const [, link] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:|#)/.test(link)) continue
    const path = require('node:path').posix.normalize(`package/${link.split('#')[0]}`)
    if (!pkg.files.has(path)) problems.push(`${name}: README.md links to ${link}, which the tarball does not hold`)
  }
}
const range = mock.manifest.dependencies?.['@reseller-api/sdk']
if (range !== sdk.manifest.version) {
  problems.push(`mock: depends on @reseller-api/sdk "${range}", expected the packed version "${sdk.manifest.version}"`)
}
if (problems.length > 0) {
  console.error(problems.join('\n'))
  process.exit(1)
}
console.log(`sdk ${sdk.manifest.version}, mock ${mock.manifest.version} (depends on @reseller-api/sdk ${range})`)
EOF
pass "pack: $(basename "$SDK_TGZ") $(basename "$MOCK_TGZ"), workspace:* rewritten to a version"

step "npm install into a fresh project"
cp "$FIXTURES"/esm.mjs "$FIXTURES"/cjs.cjs "$FIXTURES"/consumer.ts "$FIXTURES"/consumer.cts \
  "$FIXTURES"/tsconfig.nodenext.json "$FIXTURES"/tsconfig.bundler.json "$APP/"
cat >"$APP/package.json" <<'EOF'
{ "name": "reseller-api-consumer", "version": "0.0.0", "private": true, "type": "module" }
EOF
(cd "$APP" && npm install --no-audit --no-fund --loglevel=error \
  "$SDK_TGZ" "$MOCK_TGZ" typescript@~6.0.3 @types/node@24) >"$WORK/install.log" 2>&1 || {
  cat "$WORK/install.log" >&2
  fail "npm install"
}
# One copy of the SDK: the mock's dependency is met by the packed SDK, not by another copy.
if [ -d "$APP/node_modules/@reseller-api/mock/node_modules/@reseller-api/sdk" ]; then
  fail "npm installed a second @reseller-api/sdk under the mock"
fi
[ -x "$APP/node_modules/.bin/reseller-mock" ] || fail "the reseller-mock bin was not linked"
pass "npm install: both tarballs, one copy of the SDK, bin reseller-mock"

step "(a) ESM import"
(cd "$APP" && "$NODE" esm.mjs) || fail "ESM consumer (esm.mjs)"
pass "ESM: import of @reseller-api/sdk, @reseller-api/sdk/webhooks and @reseller-api/mock, real calls"

step "(b) CommonJS require()"
(cd "$APP" && "$NODE" cjs.cjs 2>"$WORK/cjs.err") || {
  cat "$WORK/cjs.err" >&2
  fail "CommonJS consumer (cjs.cjs)"
}
# require() of ES modules must not need a flag nor warn on this Node.
if grep -q 'ExperimentalWarning' "$WORK/cjs.err"; then
  cat "$WORK/cjs.err" >&2
  fail "CommonJS consumer: require() of the packages printed an ExperimentalWarning"
fi
pass "CommonJS: require() of @reseller-api/sdk, @reseller-api/sdk/webhooks and @reseller-api/mock, real calls"

step "(c) TypeScript"
TSC="$APP/node_modules/typescript/bin/tsc"
(cd "$APP" && "$NODE" "$TSC" --version)
(cd "$APP" && "$NODE" "$TSC" -p tsconfig.nodenext.json) || fail "tsc --noEmit, moduleResolution nodenext"
pass "types: tsc --noEmit strict, module nodenext + moduleResolution nodenext (ESM .ts and CommonJS .cts)"
(cd "$APP" && "$NODE" "$TSC" -p tsconfig.bundler.json) || fail "tsc --noEmit, moduleResolution bundler"
pass "types: tsc --noEmit strict, module esnext + moduleResolution bundler"

printf '\nPASS consumer check: all checks passed\n'
