# Shared by consumer-check.sh and runtime-check.sh: checks of what users get from the packed
# packages, run in a throwaway npm project. Source it; it sets ROOT, NODE and PATH, and defines
# pnpm, step, pass, fail, workdir (WORK, PACKS, APP) and build_and_pack.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
NODE="$ROOT/node_modules/.bin/node"
export PATH="$ROOT/node_modules/.bin:$PATH"
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

pnpm() { npx -y pnpm@12.21.0 "$@"; }
step() { printf '\n==> %s\n' "$*"; }
pass() { printf 'PASS %s\n' "$*"; }
fail() {
  printf 'FAIL %s\n' "$*" >&2
  exit 1
}

[ -x "$NODE" ] || fail "no Node binary at $NODE: install the workspace first (npx -y pnpm@12.21.0 install)"
node_major=$("$NODE" -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 22 ] || fail "the check needs Node 22.12 or later; $NODE is $("$NODE" --version)"

# workdir <name> <keep>: a temp dir with packs/ and app/, removed on exit unless <keep> is 1.
workdir() {
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/reseller-$1.XXXXXX")
  PACKS="$WORK/packs"
  APP="$WORK/app"
  mkdir -p "$PACKS" "$APP"
  if [ "$2" = 1 ]; then
    trap 'echo "kept $WORK"' EXIT
  else
    trap 'rm -rf "$WORK"' EXIT
  fi
}

# build_and_pack <package…>: builds the packages once (in dependency order), then packs each into
# $PACKS with pnpm, which rewrites workspace:* ranges to versions.
build_and_pack() {
  local filters=() pkg
  for pkg in "$@"; do filters+=(--filter "$pkg"); done
  step "build"
  (cd "$ROOT" && pnpm "${filters[@]}" run build) >"$WORK/build.log" 2>&1 || {
    cat "$WORK/build.log" >&2
    fail "build"
  }
  pass "build: $*"
  step "pack"
  for pkg in "$@"; do
    (cd "$ROOT" && pnpm --filter "$pkg" pack --pack-destination "$PACKS") >>"$WORK/pack.log" 2>&1 || {
      cat "$WORK/pack.log" >&2
      fail "pack $pkg"
    }
  done
}
