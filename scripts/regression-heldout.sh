#!/usr/bin/env bash
# regression-heldout.sh - rebuild secrets/testdata/regression-heldout.txt,
# the corpus TestRegression holds the engine to: every true-positive sample
# of gitleaks (scripts/gitleaks-samples.sh, deterministic) that an earlier
# build found, named by its SHA-256, with this tree's verdict:
#   found              this tree finds it too
#   typed-placeholder  dropped on purpose (a typed sequence or repeat that
#                      IsPlaceholder rejects under every rule)
#   not-secret         dropped on purpose: the sample holds no secret
#                      (secrets/testdata/regression-not-secret.txt says why)
# A sample an earlier build found that this tree neither finds nor drops as
# a placeholder is a regression: it is listed on stderr and the script
# fails, writing nothing.
#
# usage: scripts/regression-heldout.sh SAMPLES.jsonl [COMMIT ...]
#   COMMIT  the earlier builds (default: 68b2cf6, the build before the
#           gitleaks import, and 3e389fe, main when the corpus was begun)
set -euo pipefail
samples=${1:?usage: scripts/regression-heldout.sh SAMPLES.jsonl [COMMIT ...]}
shift
case $samples in /*) ;; *) samples=$PWD/$samples ;; esac
cd "$(dirname "${BASH_SOURCE[0]}")/.."
commits=("$@")
[[ ${#commits[@]} -gt 0 ]] || commits=(68b2cf6 3e389fe)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/regression-heldout.XXXXXX")
cleanup() {
	for c in "${commits[@]}"; do git worktree remove --force "$tmp/$c" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT

# verdicts DIR OUT: each sample's hash, rule and verdict by the secrets
# package in DIR (found, typed or missed; typed only where the package
# has the placeholder switch).
verdicts() {
	local typed='false'
	grep -q '^var placeholdersKept' "$1"/secrets/*.go 2>/dev/null && typed='func() bool { placeholdersKept = true; defer func() { placeholdersKept = false }(); return len(s.Scan("sample/config.env", []byte(tp))) > 0 }()'
	cat > "$1/secrets/zz_regression_verdicts_test.go" <<GO
package secrets

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZRegressionVerdicts(t *testing.T) {
	data, err := os.ReadFile("$samples")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create("$2")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	for _, line := range strings.Split(string(data), "\n") {
		var rec struct {
			Rule string
			TP   []string
		}
		if line == "" {
			continue
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		for _, tp := range rec.TP {
			v := "missed"
			if len(s.Scan("sample/config.env", []byte(tp))) > 0 {
				v = "found"
			} else if $typed {
				v = "typed-placeholder"
			}
			fmt.Fprintf(out, "%x %s %s\n", sha256.Sum256([]byte(tp)), rec.Rule, v)
		}
	}
}
GO
	(cd "$1" && go test ./secrets -run '^TestZZRegressionVerdicts$' -count=1 >/dev/null)
	rm "$1/secrets/zz_regression_verdicts_test.go"
}

for c in "${commits[@]}"; do
	git worktree add -q --detach "$tmp/$c" "$c"
	verdicts "$tmp/$c" "$tmp/$c.txt"
done
mkdir "$tmp/now"
git ls-files -z | xargs -0 cp --parents -t "$tmp/now"
cp go.mod go.sum "$tmp/now/"
verdicts "$tmp/now" "$tmp/now.txt"

out=secrets/testdata/regression-heldout.txt
{
	cat <<HEAD
# Regression corpus of issue 33: every true-positive sample of gitleaks
# $(sed -n 's/.*Version: "\(v[0-9.]*\)".*/\1/p' secrets/gitleaks_rules.go | head -1) (scripts/gitleaks-samples.sh, which draws them deterministically)
# that an earlier sotvet build found: ${commits[*]}. A sample is named by
# the SHA-256 of its text (the samples are gitleaks', never committed
# here). "found": the engine must find it still; "typed-placeholder":
# dropped on purpose, its value is a typed sequence or repeat that
# IsPlaceholder rejects under every rule; "not-secret": dropped on
# purpose, it holds no secret (regression-not-secret.txt says why).
# TestRegression checks all three when SOTVET_HELDOUT points at the
# samples; scripts/regression-heldout.sh rebuilds this file.
HEAD
	for c in "${commits[@]}"; do awk '$3 == "found" { print $1 }' "$tmp/$c.txt"; done | sort -u > "$tmp/earlier"
	# a sample judged no secret (regression-not-secret.txt) is dropped on purpose
	awk 'FILENAME == ARGV[1] { if ($1 !~ /^#/) nonsecret[$1] = 1; next }
		FILENAME == ARGV[2] { want[$1] = 1; next }
		($1 in want) && !seen[$1]++ { v = $3; if (v == "missed" && ($1 in nonsecret)) v = "not-secret"; print $1, $2, v }' \
		secrets/testdata/regression-not-secret.txt "$tmp/earlier" "$tmp/now.txt" | sort
} > "$tmp/corpus"
if grep -q ' missed$' "$tmp/corpus"; then
	echo "regression-heldout: samples an earlier build found are missed now:" >&2
	grep ' missed$' "$tmp/corpus" >&2
	exit 1
fi
mv "$tmp/corpus" "$out"
echo "regression-heldout: $(grep -vc '^#' "$out") samples in $out" >&2
