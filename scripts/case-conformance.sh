#!/usr/bin/env bash
# Builds WorkOS Case's `ca` from a source tree you name and runs every
# case-lane scenario against it and against the stand-in
# (harness/engine/case/testdata/ca), comparing verdicts, blockers and the
# shape of Case's event stream (harness/caseconformance_test.go).
#
#   SOTVET_CASE_SRC=~/src/case scripts/case-conformance.sh
#
# SOTVET_CASE_SRC is a Case checkout or git directory (a bare mirror
# works: its HEAD is archived). The build happens in a temporary directory
# outside this repository and is removed afterwards: the Case repository
# carries no licence, so neither its source nor its binary may be copied
# here. bun comes from $SOTVET_BUN, PATH, or is installed from npm
# (@oven/bun-linux-x64) under ~/.cache/sotvet/bun. The table is written to
# $SOTVET_CASE_TABLE when set. Without SOTVET_CASE_SRC it skips (exit 0);
# CI runs the lane against the stand-in only.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${SOTVET_CASE_SRC:-}" ]; then
  echo "case-conformance: skipped: set SOTVET_CASE_SRC to a WorkOS Case source tree (github.com/workos/case)"
  exit 0
fi
src=$(cd "$SOTVET_CASE_SRC" && pwd)
repo=$(pwd)
case "$src/" in
"$repo"/*) echo "case-conformance: SOTVET_CASE_SRC is inside this repository; keep Case's source outside it" >&2; exit 2 ;;
esac

bun=${SOTVET_BUN:-$(command -v bun || true)}
if [ -z "$bun" ]; then
  cache=${XDG_CACHE_HOME:-$HOME/.cache}/sotvet/bun
  bun=$cache/node_modules/@oven/bun-linux-x64/bin/bun
  if [ ! -x "$bun" ]; then
    echo "case-conformance: installing bun (@oven/bun-linux-x64) into $cache"
    mkdir -p "$cache"
    npm install --prefix "$cache" --no-audit --no-fund --ignore-scripts @oven/bun-linux-x64 >/dev/null
  fi
fi
echo "case-conformance: bun $("$bun" --version)"
export PATH="$(dirname "$bun"):$PATH" # package.json's scripts call bun by name

work=$(mktemp -d "${TMPDIR:-/tmp}/sotvet-case-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  commit=$(git -C "$src" rev-parse HEAD)
  dirty=""
  if [ "$(git -C "$src" rev-parse --is-bare-repository)" = false ] && [ -n "$(git -C "$src" status --porcelain)" ]; then
    dirty="+uncommitted"
    cp -a "$src/." "$work/src"
    rm -rf "$work/src/node_modules" "$work/src/dist"
  else
    mkdir "$work/src"
    git -C "$src" archive HEAD | tar -x -C "$work/src"
  fi
  source="github.com/workos/case@$commit$dirty"
else
  cp -a "$src/." "$work/src"
  rm -rf "$work/src/node_modules" "$work/src/dist"
  source="workos/case source at $src (not a git tree: commit unknown)"
fi
echo "case-conformance: building ca from $source"
(cd "$work/src" && "$bun" install --frozen-lockfile >"$work/build.log" 2>&1 && "$bun" run build:binary >>"$work/build.log" 2>&1) || {
  cat "$work/build.log" >&2
  exit 1
}
# ca refuses to run from inside its checkout (it would read the checkout's
# prompts): the lane resolves it out of it.
mkdir "$work/bin"
mv "$work/src/dist/ca" "$work/bin/ca"

SOTVET_CASE_CA="$work/bin/ca" SOTVET_CASE_SOURCE="$source" \
  go test ./harness -run '^TestCaseConformance$' -count=1 -v -timeout 30m
