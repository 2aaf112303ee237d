#!/usr/bin/env bash
# trufflehog-cases.sh - extract TruffleHog's detector pattern tests (each
# detector's Test*_Pattern table: an input and the values it must report,
# none for a negative) into a JSON-lines file, a labelled set of some 2,700
# cases over 900 detectors that neither sotvet nor gitleaks wrote:
#
#   scripts/trufflehog-cases.sh SRC /tmp/th-cases.jsonl
#   SOTVET_TRUFFLEHOG=/tmp/th-cases.jsonl go test ./secrets -run TestTruffleHogPatterns -v
#
# SRC is a TruffleHog source tree (a checkout, or a module the Go proxy
# serves: go mod download -json github.com/trufflesecurity/trufflehog/v3@VERSION
# prints its Dir). TruffleHog is AGPL-3.0: the tree is copied outside the
# repository, edited there by scripts/trufflehog-cases (which inserts a
# call writing each case) and its tests run there; nothing of it is
# committed. Running the tests downloads TruffleHog's dependencies and
# takes some 10 to 15 minutes on two cores.
set -euo pipefail
src=${1:?usage: scripts/trufflehog-cases.sh SRC OUT.jsonl}
out=${2:?usage: scripts/trufflehog-cases.sh SRC OUT.jsonl}
case $out in /*) ;; *) out=$PWD/$out ;; esac
case $src in /*) ;; *) src=$PWD/$src ;; esac
[[ -f $src/pkg/detectors/detectors.go ]] || { echo "trufflehog-cases: $src is not a TruffleHog source tree" >&2; exit 1; }
cd "$(dirname "${BASH_SOURCE[0]}")/.."

tmp=$(mktemp -d "${TMPDIR:-/tmp}/trufflehog-cases.XXXXXX")
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
cp -r "$src" "$tmp/src"
chmod -R u+w "$tmp/src"
go run -tags devtools ./scripts/trufflehog-cases "$tmp/src"

rm -f "$out"
# A detector whose tests fail still writes the cases it ran; the run's
# verdict is TruffleHog's business, the cases are ours to measure.
(cd "$tmp/src" && TH_DUMP=$out go test -count=1 -run Pattern ./pkg/detectors/... >"$tmp/test.log" 2>&1) || true
[[ -s $out ]] || { echo "trufflehog-cases: no case written; the tests said:" >&2; tail -20 "$tmp/test.log" >&2; exit 1; }
echo "trufflehog-cases: $(wc -l <"$out") cases in $out" >&2
