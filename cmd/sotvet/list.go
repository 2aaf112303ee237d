package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/records"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/checks/report"
	"github.com/svrnty/sotvet/config"
	"github.com/svrnty/sotvet/harness/ledger"
)

func cmdChecks(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("checks", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json")
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintln(stderr, "sotvet checks: unexpected arguments")
		return exitError
	}
	rules := rules()
	switch *format {
	case "text":
		width := 0
		for _, r := range rules {
			width = max(width, len(r.Name))
		}
		for _, r := range rules {
			fmt.Fprintf(stdout, "%-*s %s\n", width, r.Name, r.Short)
		}
	case "json":
		type entry struct {
			Name  string   `json:"name"`
			Short string   `json:"short"`
			URL   string   `json:"url,omitempty"`
			Flags []string `json:"flags"`
		}
		out := []entry{}
		for _, r := range rules {
			e := entry{Name: r.Name, Short: r.Short, URL: r.URL, Flags: []string{}}
			if a := checks.Lookup(r.Name); a != nil {
				a.Flags.VisitAll(func(f *flag.Flag) { e.Flags = append(e.Flags, r.Name+"."+f.Name) })
			}
			out = append(out, e)
		}
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(stdout, "%s\n", b)
	default:
		fmt.Fprintf(stderr, "sotvet checks: unknown format %q (want text or json)\n", *format)
		return exitError
	}
	return exitClean
}

func cmdExplain(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: sotvet explain <check>|<check/category>")
		return exitError
	}
	if check, cat, ok := strings.Cut(args[0], "/"); ok {
		return explainCategory(check, cat, stdout, stderr)
	}
	for _, r := range rules() {
		if r.Name == args[0] {
			fmt.Fprintf(stdout, "%s\n", r.Doc)
			if len(r.Categories) > 0 {
				// The names JSON output and SARIF rule ids carry, and
				// severity: in sotvet.yaml takes as check/category.
				fmt.Fprintf(stdout, "\nCategories (severity: %s/<category> in %s):\n  %s\n", r.Name, config.FileName, strings.Join(r.Categories, ", "))
			}
			if a := checks.Lookup(r.Name); a != nil {
				var flags []string
				a.Flags.VisitAll(func(f *flag.Flag) {
					flags = append(flags, fmt.Sprintf("  -%s.%s\n    \t%s (default %q)", r.Name, f.Name, f.Usage, f.DefValue))
				})
				if len(flags) > 0 {
					fmt.Fprintf(stdout, "\nFlags:\n%s\n", strings.Join(flags, "\n"))
				}
			}
			return exitClean
		}
	}
	fmt.Fprintf(stderr, "sotvet explain: unknown check %q%s (see 'sotvet checks')\n", args[0], checks.CodeHint(args[0]))
	return exitError
}

// explainCategory prints one category: its code, default severity, what
// it reports, and how to configure it.
func explainCategory(check, cat string, stdout, stderr io.Writer) int {
	code := check + "/" + cat
	if !checks.KnownCode(code) {
		what := "check"
		if checks.KnownCode(check) {
			what = "category"
		}
		fmt.Fprintf(stderr, "sotvet explain: unknown %s %q%s (see 'sotvet explain %s')\n", what, code, checks.CodeHint(code), check)
		return exitError
	}
	doc := checks.CategoryDoc(check, cat)
	if doc == "" {
		// A rule a setting defines (a secrets rule, a claim rule).
		doc = fmt.Sprintf("%s: findings of the %s rule %q.", cat, check, cat)
	}
	fmt.Fprintf(stdout, "%s (default severity: %s)\n\n", code, checks.SeverityFor(check, cat, nil))
	fmt.Fprintf(stdout, "%s\n\n", wrap(doc, 76))
	fmt.Fprintf(stdout, "Configure it in %s (or with --enable/--disable):\n  severity: {%s: error|warning|off}\n  disable: [%s]\nor on one line: <!-- sotvet:ignore %s -- reason -->\nThe whole check: sotvet explain %s\n", config.FileName, code, code, code, check)
	return exitClean
}

// wrap breaks s into lines of at most width bytes at spaces.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		if i > 0 && n+1+len(w) > width {
			b.WriteByte('\n')
			n = 0
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// rules describes every registered check, plus the driver's suppression
// findings, for listing and for formats that carry rule metadata.
func rules() []report.Rule {
	var out []report.Rule
	for _, a := range registry.All {
		short, _, _ := strings.Cut(a.Doc, "\n\n")
		short = strings.TrimSuffix(strings.TrimPrefix(strings.Join(strings.Fields(short), " "), a.Name+": "), ".")
		out = append(out, report.Rule{Name: a.Name, Short: short, Doc: a.Doc, URL: a.URL, Categories: checks.Categories(a.Name), Warning: defaultWarnings(a.Name)})
	}
	out = append(out, report.Rule{
		Name:  checks.SuppressionCheck,
		Short: "report sotvet:ignore comments that lack a reason, name no known check, or suppress nothing",
		Doc: checks.SuppressionCheck + `: report sotvet:ignore comments that lack a reason, name no known check, or suppress nothing.

A finding is suppressed by a comment on its line or the line before:

    <!-- sotvet:ignore CHECK[,CHECK] -- reason -->   (markdown)
    # sotvet:ignore CHECK -- reason                  (YAML)

CHECK is a check's name or one of its codes, check/category
(<!-- sotvet:ignore refs/unknown-id -- reason -->): a code covers only the
findings of that category.

The reason is required: a suppression without one suppresses nothing and is
itself an error. A suppression that matches no finding of a check that ran is
a warning, so stale suppressions do not pile up.`,
		URL:        "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#suppression",
		Categories: checks.Categories(checks.SuppressionCheck),
		Warning:    defaultWarnings(checks.SuppressionCheck),
	})
	return out
}

// defaultWarnings lists the categories of a check whose findings are
// warnings by default.
func defaultWarnings(check string) map[string]bool {
	out := map[string]bool{}
	for key, sev := range checks.DefaultSeverity {
		if c, cat, ok := strings.Cut(key, "/"); ok && c == check && sev == checks.SeverityWarning {
			out[cat] = true
		}
	}
	return out
}

// cmdSchema prints the JSON Schema of a record kind, for editors.
func cmdSchema(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == summarySchemaKind {
		stdout.Write(summarySchema())
		return exitClean
	}
	if len(args) != 1 {
		fmt.Fprintf(stderr, "usage: sotvet schema <kind>\nkinds: %s, %s, %s, %s\n", strings.Join(records.SchemaKinds, ", "), comparisonSchemaKind, guardSchemaKind, summarySchemaKind)
		return exitError
	}
	if args[0] == guardSchemaKind {
		stdout.Write(ledger.GuardSchema())
		return exitClean
	}
	if args[0] == comparisonSchemaKind {
		stdout.Write(ledger.ComparisonSchema())
		return exitClean
	}
	b, ok := records.Schema(args[0])
	if !ok {
		fmt.Fprintf(stderr, "sotvet schema: unknown record kind %q (want %s)\n", args[0], strings.Join(records.SchemaKinds, ", "))
		return exitError
	}
	stdout.Write(b)
	return exitClean
}
