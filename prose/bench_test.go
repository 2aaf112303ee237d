package prose

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/internal/cputime"
)

// BenchmarkLintTree lints the markdown under PROSE_BENCH_TREE (a directory
// with a .vale.ini) once per iteration, and reports the process's CPU
// per iteration (cpu-ms/op): the machine may be shared.
func BenchmarkLintTree(b *testing.B) {
	root, cfg := benchTree(b)
	l := NewLinter(cfg)
	type doc struct {
		rel string
		src []byte
	}
	var docs []doc
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			src, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			docs = append(docs, doc{filepath.ToSlash(rel), src})
		}
		return nil
	})
	b.ResetTimer()
	cpu := cputime.Process()
	for range b.N {
		for _, d := range docs {
			if _, err := l.Lint(d.rel, d.src); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
}

// BenchmarkRunCached is what a prose run pays once its documents are
// read: each iteration reads the styles (from the style cache, as a run
// after the first does), builds the filter and lints the markdown under
// PROSE_BENCH_TREE with a new linter (cpu-ms/op).
func BenchmarkRunCached(b *testing.B) {
	root, cfg := benchTree(b)
	SetStyleCache(&StyleCache{Dir: b.TempDir(), Key: "bench"})
	defer SetStyleCache(nil)
	type doc struct {
		rel string
		src []byte
	}
	var docs []doc
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			src, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			docs = append(docs, doc{filepath.ToSlash(rel), src})
		}
		return nil
	})
	lint := func() {
		l := NewLinter(cfg)
		for _, d := range docs {
			if _, err := l.Lint(d.rel, d.src); err != nil {
				b.Fatal(err)
			}
		}
	}
	lint() // fills the cache
	b.ResetTimer()
	cpu := cputime.Process()
	for range b.N {
		lint()
	}
	b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
}

// BenchmarkExpressions times a few of the stored styles' costliest
// expressions on every block of the markdown under PROSE_BENCH_TREE, as
// the regexp engine runs them and as the engine does (cpu-ms per pass
// over the tree).
func BenchmarkExpressions(b *testing.B) {
	root := os.Getenv("PROSE_BENCH_TREE")
	if root == "" {
		b.Skip("PROSE_BENCH_TREE not set")
	}
	var blocks []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			src, _ := os.ReadFile(p)
			for _, bl := range Blocks(src) {
				blocks = append(blocks, bl.Text)
			}
		}
		return nil
	})
	exprs := map[string]string{
		"Acronyms":  `\b([A-Z]{3,5})\b`,
		"Passive":   `(?i)\b(am|are|were|being|is|been|was|be)\b\s*(?m)\b(?:[\w]+ed|awoken|beat|become|been|begun|bent|beset|bet|bid|bidden|bitten|bled|blown|born|bought|bound|bred|broadcast|broken|brought|built|burnt|burst|cast|caught|chosen|clung|come|cost|crept|cut|dealt|dived|done|drawn|dreamt|driven|drunk|dug|eaten|fallen|fed|felt|fit|fled|flown|flung|forbidden|foregone|forgiven|forgotten|forsaken|fought|found|frozen|given|gone|gotten|ground|grown|heard|held|hidden|hit|hung|hurt|kept|knelt|knit|known|laid|lain|leapt|learnt|led|left|lent|let|lighted|lost|made|meant|met|misspelt|mistaken|mown|overcome|overdone|overtaken|overthrown|paid|pled|proven|put|quit|read|rid|ridden|risen|run|rung|said|sat|sawn|seen|sent|set|sewn|shaken|shaven|shed|shod|shone|shorn|shot|shown|shrunk|shut|slain|slept|slid|slit|slung|smitten|sold|sown|sped|spent|spilt|spit|split|spoken|spread|sprung|spun|stolen|stood|stridden|striven|struck|strung|stuck|stung|stunk|sunk|swept|swollen|sworn|swum|swung|taken|taught|thought|thrived|thrown|thrust|told|torn|trodden|understood|upheld|upset|wed|wept|withheld|withstood|woken|won|worn|wound|woven|written|wrung)\b`,
		"DateSpace": `(?m)(?:\d{1,2} ?[ap]m\b)`,
		"Dimension": `(?m)(?:([0-9]+ ?x ?[0-9]+))`,
		"DateSlash": `(?i)(?m)(?:\b\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})\b)`,
	}
	for name, expr := range exprs {
		re := regexp.MustCompile(expr)
		p, err := compilePattern(expr)
		if err != nil {
			b.Fatal(err)
		}
		for _, engine := range []string{"regexp", "engine"} {
			b.Run(name+"/"+engine, func(b *testing.B) {
				cpu := cputime.Process()
				for range b.N {
					for _, t := range blocks {
						if engine == "regexp" {
							re.FindAllStringSubmatchIndex(t, -1)
						} else {
							p.findAll(t)
						}
					}
				}
				b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// BenchmarkLoadStyles reads and compiles the styles the .vale.ini under
// PROSE_BENCH_TREE names (cpu-ms/op): what every run pays before a block
// is linted.
func BenchmarkLoadStyles(b *testing.B) {
	_, cfg := benchTree(b)
	styles, _ := cfg.Styles("x.md")
	b.ResetTimer()
	cpu := cputime.Process()
	for range b.N {
		if _, err := LoadStyles(cfg.StylesDir(), styles, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
}

// BenchmarkLoadStylesCached is BenchmarkLoadStyles with the style cache:
// what is left is compiling the rules.
func BenchmarkLoadStylesCached(b *testing.B) {
	SetStyleCache(&StyleCache{Dir: b.TempDir(), Key: "bench"})
	defer SetStyleCache(nil)
	BenchmarkLoadStyles(b)
}

// BenchmarkFilter builds the literal filter of the styles the .vale.ini
// under PROSE_BENCH_TREE names (cpu-ms/op).
func BenchmarkFilter(b *testing.B) {
	_, cfg := benchTree(b)
	rules, _, _, err := NewLinter(cfg).Active("x.md")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := cputime.Process()
	for range b.N {
		newFilter(rules)
	}
	b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
}

// BenchmarkFilterCached is BenchmarkFilter with the style cache, which
// keeps the literal table.
func BenchmarkFilterCached(b *testing.B) {
	SetStyleCache(&StyleCache{Dir: b.TempDir(), Key: "bench"})
	defer SetStyleCache(nil)
	BenchmarkFilter(b)
}

// benchTree returns the tree PROSE_BENCH_TREE names and its .vale.ini,
// read; the benchmark is skipped when it is not set.
func benchTree(b *testing.B) (string, *Config) {
	b.Helper()
	root := os.Getenv("PROSE_BENCH_TREE")
	if root == "" {
		b.Skip("PROSE_BENCH_TREE not set")
	}
	ini, err := os.ReadFile(filepath.Join(root, ".vale.ini"))
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := ParseConfig(filepath.Join(root, ".vale.ini"), ini)
	if err != nil {
		b.Fatal(err)
	}
	return root, cfg
}
