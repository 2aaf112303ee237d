#!/usr/bin/env bash
# Compares the prose check's engine with a real Vale on the same markdown:
# the user's corpus (../shared/corpus/cto-planb, when present) and Vale's
# own markdown fixtures (testdata/prose/other), with the Google, Microsoft,
# write-good and proselint packages of testdata/prose/styles. Prints, per
# tree, how many of Vale's alerts the engine reports at the same line,
# column and rule, and how many of the engine's are Vale's, with the rules
# that differ (PROSE_VERBOSE=1 lists every difference).
#
#   scripts/prose-conformance.sh           # compare
#   scripts/prose-conformance.sh --update  # and rewrite testdata/prose/vale/*.keys.gz
#
# Vale v3.26.0 builds from the Go module proxy (one transitive
# pseudo-version is not served; cascadia v1.3.3 replaces it):
#   d=$(mktemp -d); cd "$d"
#   GOFLAGS=-mod=mod go mod download -json github.com/vale-cli/vale/v3@v3.26.0   # prints Dir
#   cp -r <Dir> src && chmod -R u+w src && cd src
#   go mod edit -replace github.com/andybalholm/cascadia=github.com/andybalholm/cascadia@v1.3.3
#   GOFLAGS=-mod=mod go build -o /usr/local/bin/vale ./cmd/vale
# Without vale on PATH it skips (exit 0): CI holds the engine to the stored
# expectations instead (prose's TestValeStored).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v vale >/dev/null 2>&1; then
  echo "prose-conformance: skipped: vale is not on PATH (see this script's header to build v3.26.0)"
  exit 0
fi
update=0
[ "${1:-}" = "--update" ] && update=1
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ini() {
  printf 'StylesPath = %s\nMinAlertLevel = suggestion\n\n[*.md]\nBasedOnStyles = Google, Microsoft, write-good, proselint\n' "$repo/testdata/prose/styles" >"$1/.vale.ini"
}
compare() { # name tree
  local name=$1 tree=$2
  echo "== $name: $(vale --version) against the prose engine"
  local store=""
  [ $update = 1 ] && store="$work/$name.keys"
  PROSE_VALE_TREE="$tree" PROSE_VALE_STORE="$store" go test ./prose -count=1 -run '^TestValeLive$' -v |
    grep -E 'Vale alerts|missed by rule|extra by rule|^(ok|FAIL|---)' | sed 's/^ *//'
  if [ $update = 1 ]; then
    gzip -9 -c "$store" >"testdata/prose/vale/$name.keys.gz"
    echo "rewrote testdata/prose/vale/$name.keys.gz"
  fi
}
mkdir -p "$work/other"
cp -r testdata/prose/other/. "$work/other/"
ini "$work/other"
compare other "$work/other"
corpus=../shared/corpus/cto-planb
if [ -d "$corpus" ]; then
  mkdir -p "$work/corpus"
  cp -r "$corpus/." "$work/corpus/"
  ini "$work/corpus"
  compare corpus "$work/corpus"
else
  echo "== corpus: skipped: $corpus is not beside the checkout"
fi
