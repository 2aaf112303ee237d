#!/usr/bin/env bash
# gitleaks-samples.sh - extract gitleaks' own labelled samples (the true and
# false positives each of its rules is generated and validated with) into a
# JSON-lines file, one {"rule","tp","fp"} object per rule, for the held-out
# measurement of the secrets engine:
#
#   scripts/gitleaks-samples.sh /tmp/gitleaks-samples.jsonl
#   SOTVET_HELDOUT=/tmp/gitleaks-samples.jsonl go test ./secrets -run TestHeldOut -v
#
# The samples are gitleaks' (MIT licensed), not this project's: they are
# written outside the repository and never committed. The version is the one
# secrets/gitleaks_rules.go was generated from (GITLEAKS_VERSION overrides).
# Needs the Go module proxy (gitleaks' generator and its dependencies).
set -euo pipefail
out=${1:?usage: scripts/gitleaks-samples.sh OUT.jsonl}
case $out in /*) ;; *) out=$PWD/$out ;; esac
cd "$(dirname "${BASH_SOURCE[0]}")/.."
version=${GITLEAKS_VERSION:-$(sed -n 's/.*Version: "\(v[0-9.]*\)".*/\1/p' secrets/gitleaks_rules.go | head -1)}
mod=github.com/zricethezav/gitleaks/v8

dir=$(go mod download -json "$mod@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[[ -d $dir ]] || { echo "gitleaks-samples: cannot download $mod@$version" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gitleaks-samples.XXXXXX")
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
cp -r "$dir" "$tmp/src"
chmod -R u+w "$tmp/src"
utils=$tmp/src/cmd/generate/config/utils

# Record the samples at the top of the two validation helpers every rule
# generator calls.
cat > "$utils/zz_dump.go" <<'GO'
package utils

import (
	"encoding/json"
	"os"
)

func dumpSamples(id string, tps, fps []string) {
	f, err := os.OpenFile(os.Getenv("HELDOUT_DUMP"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	b, _ := json.Marshal(map[string]any{"rule": id, "tp": tps, "fp": fps})
	f.Write(append(b, '\n'))
}

func dumpSampleMaps(id string, tps, fps map[string]string) {
	var t, f []string
	for _, v := range tps {
		t = append(t, v)
	}
	for _, v := range fps {
		f = append(f, v)
	}
	dumpSamples(id, t, f)
}
GO
# The samples are drawn from each rule's expression by reggen, seeded
# with the clock; seed it with the expression and how many samples it
# has given, so that every extraction is the same set (the regression
# corpus names samples by their hash).
cat > "$tmp/src/cmd/generate/secrets/regen.go" <<'GO'
package secrets

import (
	"hash/fnv"

	"github.com/lucasjones/reggen"
)

var drawn = map[string]int64{}

func NewSecret(regex string) string {
	g, err := reggen.NewGenerator(regex)
	if err != nil {
		panic(err)
	}
	h := fnv.New64a()
	h.Write([]byte(regex))
	g.SetSeed(int64(h.Sum64()) + drawn[regex])
	drawn[regex]++
	return g.Generate(1)
}
GO
sed -i \
	-e '/^func Validate(rule config.Rule, truePositives \[\]string, falsePositives \[\]string) \*config.Rule {$/a\	dumpSamples(rule.RuleID, truePositives, falsePositives)' \
	-e '/^func ValidateWithPaths(rule config.Rule, truePositives map\[string\]string, falsePositives map\[string\]string) \*config.Rule {$/a\	dumpSampleMaps(rule.RuleID, truePositives, falsePositives)' \
	"$utils/validate.go"
grep -q dumpSampleMaps "$utils/validate.go" || { echo "gitleaks-samples: validate.go of $version has changed; update this script" >&2; exit 1; }

rm -f "$out"
# The generator validates every rule (writing the samples) and then writes
# its TOML, which is not needed here; it may fail after the samples.
(cd "$tmp/src" && HELDOUT_DUMP=$out go run ./cmd/generate/config "$tmp/gitleaks.toml" >/dev/null 2>&1) || true
n=$(wc -l < "$out" 2>/dev/null || echo 0)
[[ $n -gt 100 ]] || { echo "gitleaks-samples: only $n rules recorded" >&2; exit 1; }
echo "gitleaks-samples: $n rules of gitleaks $version in $out" >&2
