#!/usr/bin/env bash
# Vet the user's real corpus and compare the findings with the reviewed
# golden file, so that any change in findings on the real corpus is a visible
# diff. With -update, rewrite the golden file (read the diff before
# committing it, and give each new finding its reviewed reason in
# testdata/corpus/cto-planb.notes.md).
#
#   scripts/acceptance.sh [-update] [corpus-dir]
#   SOTVET=path/to/sotvet scripts/acceptance.sh ...   # a sotvet already built (.ci/run's)
set -euo pipefail
if [ -n "${SOTVET:-}" ]; then SOTVET=$(realpath "$SOTVET"); fi
cd "$(dirname "$0")/.."
update=false
if [ "${1:-}" = "-update" ]; then update=true; shift; fi
corpus=${1:-../shared/corpus/cto-planb}
golden=testdata/corpus/cto-planb.golden

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
exe=${SOTVET:-$tmp/sotvet}
if [ -z "${SOTVET:-}" ]; then
  go build -o "$exe" ./cmd/sotvet
fi

# Copy the corpus outside any git work tree so that the result does not depend
# on where the checkout sits; the corpus has no git metadata of its own.
cp -R "$corpus" "$tmp/cto-planb"
status=0
(cd "$tmp/cto-planb" && "$exe" check --no-git --format text .) >"$tmp/got" 2>"$tmp/stderr" || status=$?
if [ "$status" -ge 2 ]; then
  echo "acceptance: sotvet failed (exit $status):"; cat "$tmp/stderr"; exit 1
fi
{
  echo "# sotvet check over ../shared/corpus/cto-planb; exit $status"
  echo "# findings by code:"
  sed -En 's/^[^ ]*:[0-9]+:[0-9]+: (error|warning) \[([a-z0-9/-]*)\].*/\2/p' "$tmp/got" | sort | uniq -c | sed 's/^/#/'
  cat "$tmp/got"
} >"$tmp/report"

if $update; then
  mkdir -p "$(dirname "$golden")"
  cp "$tmp/report" "$golden"
  echo "acceptance: wrote $golden"
  exit 0
fi
if ! diff -u "$golden" "$tmp/report"; then
  echo "acceptance: findings on the real corpus changed; review and run scripts/acceptance.sh -update"
  exit 1
fi
echo "acceptance: $(grep -cE '^[^#].*:[0-9]+:[0-9]+: (error|warning) \[' "$golden") findings match $golden"
