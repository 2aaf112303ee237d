package config

import (
	"bytes"
	"flag"
	"fmt"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v4"
	"golang.org/x/tools/go/analysis"
)

// Starter renders a commented sotvet.yaml that spells out every default: the
// checks of registry with each setting at its default value, and the given
// default severities. Parsing it back yields the defaults.
func Starter(registry []*analysis.Analyzer, severity map[string]string, maxFileSize int64) []byte {
	var b bytes.Buffer
	b.WriteString(`# sotvet.yaml: configuration of sotvet for this workspace.
# Every value below is the default; change what your team needs.
# Reference: sotvet explain <check>, or docs/checks.md.

# Run only these checks (empty: all), and skip these.
enable: []
disable: []

# Lowest severity that makes "sotvet check" exit 1: error or warning.
fail-on: error

# A workspace with history: the findings recorded by
# "sotvet check --write-baseline .sotvet-baseline.json" are not reported
# (by check, the pre-commit hook and CI alike); only new ones are.
# The path is relative to this file.
# baseline: .sotvet-baseline.json

# Severity per check or per check/category: error or warning.
severity:
`)
	keys := make([]string, 0, len(severity))
	for k := range severity {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "  %s: %s\n", k, severity[k])
	}
	if len(keys) == 0 {
		b.WriteString("  {}\n")
	}
	fmt.Fprintf(&b, `
# Statuses allowed besides draft, candidate, validated and blocked.
statuses: []

# Files larger than this many bytes are reported and not read.
max-file-size: %d

# In a sotvet.yaml at a repository's root: the workspace directories to vet
# (default: every directory under it holding .sot/ or WORKBOARD.yaml).
# workspaces: [planning]

# Per-check settings (the same as the -<check>.<setting> flags).
checks:
`, maxFileSize)
	for _, a := range registry {
		var flags []*flag.Flag
		a.Flags.VisitAll(func(f *flag.Flag) {
			// The top-level statuses list sets every check's extra statuses;
			// spelling them out per check would override it.
			if f.Name != "extra-statuses" {
				flags = append(flags, f)
			}
		})
		if len(flags) == 0 {
			continue
		}
		fmt.Fprintf(&b, "  %s:\n", a.Name)
		for _, f := range flags {
			for _, line := range strings.Split(strings.TrimSpace(f.Usage), "\n") {
				fmt.Fprintf(&b, "    # %s\n", strings.TrimSpace(line))
			}
			fmt.Fprintf(&b, "    %s:%s\n", f.Name, starterValue(f.DefValue))
		}
	}
	return b.Bytes()
}

// starterValue renders a flag default as YAML: structured defaults (YAML
// text, as rule sets are) as a nested block, scalars quoted when needed.
func starterValue(v string) string {
	if strings.Contains(v, "\n") {
		var n yaml.Node
		if err := yaml.Load([]byte(v), &n); err == nil {
			var lines []string
			for _, l := range strings.Split(strings.TrimRight(v, "\n"), "\n") {
				lines = append(lines, "      "+l)
			}
			return "\n" + strings.Join(lines, "\n")
		}
	}
	out, err := yaml.Dump(v, yaml.WithLineWidth(-1)) // a wrapped scalar would not indent under its key
	if err != nil {
		return fmt.Sprintf(" %q", v)
	}
	return " " + strings.TrimSpace(string(out))
}
