package secrets

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestPathTailsSame: a rule's path test with its tails answers as its
// Path alone on every path: the default rules' paths and expressions
// whose ends are classes, optional parts, captures, (?i) letters that
// fold with non-ASCII ones (k, s), a multi-line $; paths in either case,
// with the Kelvin sign and the long s, empty, and ending in each tail
// with a byte more or less.
func TestPathTailsSame(t *testing.T) {
	exprs := []string{
		`(?i)\.ask$`, `\.ya?ml$`, `(?m)\.tf$`, `foo[0-9]$`, `\.(tf|hcl)$`, `[Dd]ockerfile$`, `x*$`,
		`\.env(\.local)?$`, `(?i)\.(?:tf|hcl)$`, `(?i)(?:^|\/)[^\/]+\.p(?:12|fx)$`, `(?i)nuget\.config$`,
		`\.js$|\.ts$`, `(?i)secrets?\.json$`, `^Makefile$`, `(?i)\.tfvars$`, `\.tf`, `(?i)[a-c]\.K$`,
	}
	var withTails int
	for _, r := range DefaultRules() {
		if r.Path != nil {
			exprs = append(exprs, r.Path.String())
		}
	}
	pieces := []string{"", "/", "a", "B", "tf", "TF", ".tf", ".Tf", ".hcl", ".HCL", ".yml", ".yaml", ".YAML", ".ym", ".p12", ".PFX",
		"nuget.config", "NuGet.Config", ".php", ".PHP", "\u212a", "ſ", ".as\u212a", ".aſk", ".ASK", "foo7", "Dockerfile", "dockerfile",
		".env", ".env.local", "x", "\n", ".tf\n", "é", "secret.json", "secrets.JSON", "Makefile", ".tfvars", "c.K", "C.\u212a"}
	rng := rand.New(rand.NewPCG(7, 9))
	for _, src := range exprs {
		re := regexp.MustCompile(src)
		cr := &compiledRule{Rule: &Rule{Path: re}, pathTails: pathTails(re)}
		if cr.pathTails != nil {
			withTails++
		}
		pruned := 0
		for i := range 4000 {
			var b strings.Builder
			for range i % 5 {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			p := b.String()
			want := re.MatchString(p)
			if got := cr.pathMatches(p); got != want {
				t.Fatalf("%s (tails %q) on %q: %v, the expression says %v", src, cr.pathTails, p, got, want)
			}
			if cr.pathTails != nil && !endsWithFold(p, cr.pathTails) {
				pruned++
			}
		}
		if cr.pathTails != nil && pruned == 0 {
			t.Errorf("%s: tails %q never spared the expression", src, cr.pathTails)
		}
	}
	if withTails < 8 {
		t.Errorf("only %d expressions have tails", withTails)
	}
}

// TestPathTailsOf: the tails of the gitleaks rules' paths and of the
// expressions whose end spells none.
func TestPathTailsOf(t *testing.T) {
	for src, want := range map[string][]string{
		`(?i)\.(?:tf|hcl)$`:               {".hcl", ".tf"},
		`(?i)\.ya?ml$`:                    {".yaml", ".yml"},
		`(?i)(?:^|\/)[^\/]+\.p(?:12|fx)$`: {".p12", ".pfx"},
		`(?i)nuget\.config$`:              {"nuget.config"},
		`(?i)\.php$`:                      {".php"},
		`(?i)\.ask$`:                      nil, // k: the Kelvin sign
		`(?i)\.desk$`:                     nil,
		`\.desk$`:                         {".desk"},
		`(?m)\.tf$`:                       nil,
		`x*$`:                             nil,
		`\.tf`:                            nil,
		`[0-9]\.log$`:                     {".log"}, // a class of ten: the tail stops before it
		`[1-3]\.log$`:                     {"1.log", "2.log", "3.log"},
		`[a-z]\.log$`:                     {".log"},
	} {
		got := pathTails(regexp.MustCompile(src))
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("pathTails(%s) = %q, want %q", src, got, want)
		}
	}
}

// TestGlobLiteralSame: a glob answers the same with its literal segments
// looked for first as matched segment by segment alone, on paths that
// hold those words as parts of segments, at either end, repeated.
func TestGlobLiteralSame(t *testing.T) {
	pats := []string{"**/secrets/rules/third_party/*/rules/*.y*ml", "docs/**", "**/testdata/**/*.env", "a/b", "**/fixtures", "x/**/y/z.txt", `a\*b/**`}
	words := []string{"secrets", "rules", "third_party", "kf", "r.yml", "x.yaml", "docs", "testdata", "fixtures", "a", "b", "x", "y", "z.txt",
		"secretsx", "xrules", "a*b", "deep.env", ".env", "fixture"}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, pat := range pats {
		g, err := compileGlob(pat)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.literal) == 0 {
			t.Fatalf("%s: no literal segment", pat)
		}
		matched := 0
		for i := range 5000 {
			segs := make([]string, 1+i%8)
			for k := range segs {
				segs[k] = words[rng.IntN(len(words))]
			}
			if i%3 == 0 { // the pattern's own segments, some replaced
				segs = slices.Clone(g.segs)
				for k := range segs {
					if strings.ContainsAny(segs[k], "*?") || rng.IntN(4) == 0 {
						segs[k] = words[rng.IntN(len(words))]
					}
				}
			}
			p := strings.Join(segs, "/")
			want := matchSegs(g.segs, strings.Split(p, "/"))
			if got := g.match(p); got != want {
				t.Fatalf("%s on %q: %v, segment by segment %v", pat, p, got, want)
			}
			if want {
				matched++
			}
		}
		if matched == 0 {
			t.Errorf("%s matched none of the paths", pat)
		}
	}
}

// TestPathTailsPOSIX: a caller's Path compiled POSIX, where $ ends a line,
// still applies to a path whose line ends with the tail (review of round
// 22: a name "main.tf\nold" lost its finding to the tails).
func TestPathTailsPOSIX(t *testing.T) {
	r := &Rule{ID: "tf-tok", Description: "x", Regex: regexp.MustCompile(`tok_[a-z0-9]{12}`), Keywords: []string{"tok_"},
		Path: regexp.MustCompilePOSIX(`\.tf$`)}
	s, err := NewScanner(Config{Rules: []*Rule{r}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"main.tf", "main.tf\nold"} {
		if n := len(s.Scan(p, []byte("x = tok_"+"a8f3k2m9q7z1\n"))); n != 1 || !r.Path.MatchString(p) {
			t.Errorf("%q: %d findings, want 1 (Path matches: %v)", p, n, r.Path.MatchString(p))
		}
	}
}

// TestIsProseFileSame holds isProseFile to proseFiles on the extensions
// in any case, near misses, names without an extension, line breaks, and
// paths of random pieces with non-ASCII bytes that fold to ASCII letters.
func TestIsProseFileSame(t *testing.T) {
	pieces := []string{"", "/", ".", "a", "dir/", "README", ".md", ".MD", ".mKd", ".m\u212ad", ".textile", ".Textile", ".asciidoc", ".a\u017fciidoc",
		".txt", ".txtx", ".md.bak", ".env", ".org", ".wiki", ".mdown", ".rst", ".adoc", ".mdx", "x.", "\n", ".md\n", "é", "\xff", "..", "a.b/", "notes"}
	rng := rand.New(rand.NewPCG(3, 9))
	for range 50000 {
		var b strings.Builder
		for range 1 + rng.IntN(5) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		p := b.String()
		if got, want := isProseFile(p), proseFiles.MatchString(p); got != want {
			t.Fatalf("isProseFile(%q) = %v, proseFiles says %v", p, got, want)
		}
	}
}
