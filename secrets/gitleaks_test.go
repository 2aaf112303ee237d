package secrets

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/secrets/internal/gitleaksrules"
	"github.com/svrnty/sotvet/secrets/internal/gitleakstoml"
)

// TestGitleaksRulesCompile: every imported expression, path filter and
// allowlist compiles, and every secret group exists. (The engine compiles
// them on first use and panics on a bad one; this is where that is caught.)
func TestGitleaksRulesCompile(t *testing.T) {
	// The allowlists' expressions are compiled on first use: compile them.
	compileAllowlist := func(a gitleaksrules.Allowlist) (*allowlist, error) {
		al, err := compileAllowlist(a)
		if err == nil {
			for _, rs := range []*regexSet{al.regexes, al.paths} {
				for i := 0; i < rs.len(); i++ {
					rs.res[i].get()
				}
			}
		}
		return al, err
	}
	if _, err := compileAllowlist(gitleaksSet.Allowlist); err != nil {
		t.Errorf("global allowlist: %v", err)
	}
	for _, gr := range gitleaksSet.Rules {
		if gr.Regex != "" {
			re, err := regexp.Compile(gr.Regex)
			if err != nil {
				t.Errorf("%s: %v", gr.ID, err)
				continue
			}
			if gr.SecretGroup > re.NumSubexp() {
				t.Errorf("%s: secret group %d of %d", gr.ID, gr.SecretGroup, re.NumSubexp())
			}
		}
		for i, a := range gr.Allowlists {
			if _, err := compileAllowlist(a); err != nil {
				t.Errorf("%s: allowlist %d: %v", gr.ID, i+1, err)
			}
		}
	}
	if n := len(GitleaksRules()); n < 200 {
		t.Errorf("%d gitleaks rules imported, want the community set (>200)", n)
	}
	for id := range GitleaksAliases {
		for _, r := range GitleaksRules() {
			if r.ID == id {
				t.Errorf("aliased rule %s is imported too", id)
			}
		}
	}
}

// TestGitleaksRulesMatchModule: gitleaks_rules.go is what gitleaksgen makes
// of the pinned module's gitleaks.toml. The module comes from the module
// cache (or, under CI, the module proxy); without it the test skips.
func TestGitleaksRulesMatchModule(t *testing.T) {
	ref := gitleaksSet.Module + "@" + gitleaksSet.Version
	cmd := exec.Command("go", "mod", "download", "-json", ref)
	if os.Getenv("CI") == "" {
		cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod")
	}
	out, err := cmd.Output()
	var m struct{ Dir, Sum, Error string }
	if err == nil {
		err = json.Unmarshal(out, &m)
	}
	if err != nil || m.Error != "" || m.Dir == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("go mod download %s: %v %s", ref, err, m.Error)
		}
		t.Skipf("%s is not in the module cache (go mod download %s to run this test)", ref, ref)
	}
	if m.Sum != gitleaksSet.ModuleSum {
		t.Errorf("module sum %s, generated from %s", m.Sum, gitleaksSet.ModuleSum)
	}
	src, err := os.ReadFile(filepath.Join(m.Dir, "config", "gitleaks.toml"))
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(src)
	if got := hex.EncodeToString(h[:]); got != gitleaksSet.SourceSHA256 {
		t.Errorf("gitleaks.toml sha256 %s, generated from %s: run go generate ./secrets", got, gitleaksSet.SourceSHA256)
	}
	set, err := gitleakstoml.FromTOML(src)
	if err != nil {
		t.Fatal(err)
	}
	set.Module, set.Version, set.ModuleSum, set.SourceSHA256 = gitleaksSet.Module, gitleaksSet.Version, gitleaksSet.ModuleSum, gitleaksSet.SourceSHA256
	if !reflect.DeepEqual(set, gitleaksSet) {
		t.Errorf("gitleaks_rules.go differs from the conversion of %s: run go generate ./secrets", ref)
	}
}

func scanIDs(s *Scanner, path, text string) []string {
	var ids []string
	for _, f := range s.Scan(path, []byte(text)) {
		ids = append(ids, f.RuleID+"="+text[f.Start:f.End])
	}
	return ids
}

// TestImportedRuleSemantics: secretGroup, the first-group default, rule
// and global allowlists, AND conditions and path filters behave as in
// gitleaks, and Redact runs path-bound rules everywhere.
func TestImportedRuleSemantics(t *testing.T) {
	g := newFakeGen("imported-semantics")
	set := &gitleaksrules.Set{
		Version:   "test",
		Allowlist: gitleaksrules.Allowlist{StopWords: []string{"globalstop"}},
		Rules: []gitleaksrules.Rule{
			{ID: "grp2", Regex: `zq(aa)-([A-Za-z0-9]{20})`, SecretGroup: 2, Keywords: []string{"zqaa-"}},
			{ID: "first", Regex: `zr-([A-Za-z0-9]{20})`, Keywords: []string{"zr-"}, Entropy: 3,
				Allowlists: []gitleaksrules.Allowlist{{RegexTarget: "line", Regexes: []string{`#\s*fixture`}}}},
			{ID: "and", Regex: `zs-([a-z0-9_]{20})`, Keywords: []string{"zs-"},
				Allowlists: []gitleaksrules.Allowlist{{Condition: "AND", StopWords: []string{"stop"}, Paths: []string{`\.lock$`}}}},
			{ID: "pathonly", Regex: `zt-([a-z0-9]{20})`, Keywords: []string{"zt-"}, Path: `\.tf$`},
		},
	}
	rules, err := compileGitleaks(set)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewScanner(Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	v := g.mixed(base62, 20)
	lo := strings.ToLower(g.mixed(base62, 24))
	for _, c := range []struct {
		path, text string
		want       []string
	}{
		{"a.env", "X=zqaa-" + v + "\n", []string{"grp2=" + v}},
		{"a.env", "X=zr-" + v + "\n", []string{"first=" + v}},
		{"a.env", "X=zr-" + v + " # fixture\n", nil},
		{"a.env", "X=zr-aaaaaaaaaaaaaaaaaaaa\n", nil}, // entropy
		{"a.env", "X=zr-" + v[:9] + "xGlobalstop\n", nil},
		{"a.env", "X=zr-" + v[:10] + "globalstop\n", []string{"first=" + v[:10] + "globalstop"}}, // not a word of its own
		{"a.env", "X=zs-stop_" + lo[:15] + "\n", []string{"and=stop_" + lo[:15]}},
		{"b.lock", "X=zs-" + lo[:20] + "\n", []string{"and=" + lo[:20]}},
		{"b.lock", "X=zs-stop_" + lo[:15] + "\n", nil},
		{"b.lock", "X=zs-" + lo[:4] + "stop" + lo[4:16] + "\n", []string{"and=" + lo[:4] + "stop" + lo[4:16]}},
		{"a.env", "X=zt-" + lo[:20] + "\n", nil},
		{"main.tf", "X=zt-" + lo[:20] + "\n", []string{"pathonly=" + lo[:20]}},
	} {
		if got := scanIDs(s, c.path, c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q: got %v, want %v", c.path, c.text, got, c.want)
		}
	}
	// Redact knows no path: a path-bound rule redacts everywhere.
	if out := s.RedactString("X=zt-" + lo[:20] + "\n"); strings.Contains(out, lo[:20]) {
		t.Errorf("Redact kept a path-bound rule's secret: %q", out)
	}
}

// TestRegexSetPrefilter: the prefilters of every imported allowlist
// (literals found by one automaton, an anchored first byte) never change
// whether some expression of the list matches.
func TestRegexSetPrefilter(t *testing.T) {
	lists := [][]string{gitleaksSet.Allowlist.Regexes, gitleaksSet.Allowlist.Paths}
	for _, r := range gitleaksSet.Rules {
		for _, a := range r.Allowlists {
			lists = append(lists, a.Regexes, a.Paths)
		}
	}
	inputs := []string{
		"", "a", "true", "FALSE", "null", "aaaaaaa", "****", "...", "$1", "${12}", "$HOME", "$home_dir", "${FOO_BAR}",
		"{{ .Values.x }}", "${{ secrets.TOKEN }}", "%APPDATA%", "%s", "%+v", "{0}", "{}", "@VERSION@",
		"/Users/jp/src/x", "/etc/passwd", "/tmp/x y", "x/gitleaks.toml", "img/Logo.PNG", "f/a.WOFF2", "a.docx", "r.V2",
		"go.sum", "go.work.sum", "vendor/modules.txt", "x/vendor/github.com/a/b.go", "gradlew.bat", "a/mvnw.cmd",
		".mvn/wrapper/MavenWrapperDownloader.java", "web/node_modules/x/y.js", "pnpm-lock.yaml", "a/yarn.lock",
		"bower_components/q", "static/jquery-ui.min.js", "swaggerui-1.2.js.map", "javascript.json", "Pipfile.lock",
		"x/VENV/lib64/site.py", "lib/python3.11/os.py", "python/3.9/lib/x", "pkg-1.0.dist-info/RECORD",
		"vendor/bundle/x", "a.gem", "verification-metadata.xml", "Database.refactorlog", ".git", "sub/.git",
		"014df517-39d1-4453-b7b3-9930c563627c", "AKIAIOSFODNN7EXAMPLE", "xoxb-EXAMPLE-token", "sk_test_abc",
		"ghp_000000000000000000000000000000000000", "https://example.com/x", "config.env", "notes/note.md",
	}
	// Every literal of the lists' expressions, alone and inside other text.
	for _, list := range lists {
		for _, src := range list {
			if sre, err := syntax.Parse(src, syntax.Perl); err == nil {
				if lits, _, ok := requiredLiterals(sre); ok {
					for _, l := range lits {
						inputs = append(inputs, string(l), "x/"+strings.ToUpper(string(l))+"/y", "a"+string(l))
					}
				}
			}
		}
	}
	for _, list := range lists {
		if len(list) == 0 {
			continue
		}
		rs, err := newRegexSet(list)
		if err != nil {
			t.Fatal(err)
		}
		var res []*regexp.Regexp
		for _, src := range list {
			res = append(res, regexp.MustCompile(src))
		}
		for _, in := range inputs {
			want := false
			for _, re := range res {
				want = want || re.MatchString(in)
			}
			if got := rs.any([]byte(in)); got != want {
				t.Errorf("%q on %q: prefiltered %v, expressions %v", list, in, got, want)
			}
		}
	}
}

// TestSplitAlternationsSamePrograms: each branch splitAlternations prints
// compiles to the program of that branch of the parse, for every
// allowlist expression of the embedded rule sets.
func TestSplitAlternationsSamePrograms(t *testing.T) {
	loadGitleaks()
	var srcs []string
	add := func(a gitleaksrules.Allowlist) { srcs = append(srcs, a.Regexes...) }
	add(gitleaks.set.Allowlist)
	for _, r := range gitleaks.set.Rules {
		for _, a := range r.Allowlists {
			add(a)
		}
	}
	progOf := func(re *syntax.Regexp) string {
		p, err := syntax.Compile(re.Simplify())
		if err != nil {
			t.Fatal(err)
		}
		return p.String()
	}
	split := 0
	for _, src := range srcs {
		re, err := syntax.Parse(src, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		out := splitAlternations([]string{src})
		if re.Op != syntax.OpAlternate || len(re.Sub) > 64 {
			continue
		}
		if len(out) != len(re.Sub) {
			t.Fatalf("%q: %d branches, %d printed", src, len(re.Sub), len(out))
		}
		for i, sub := range re.Sub {
			back, err := syntax.Parse(out[i], syntax.Perl)
			if err != nil {
				t.Fatalf("%q printed as %q: %v", sub, out[i], err)
			}
			if got, want := progOf(back), progOf(sub); got != want {
				t.Fatalf("branch %q printed as %q: another program", sub, out[i])
			}
			split++
		}
	}
	if split < 20 {
		t.Fatalf("only %d branches checked", split)
	}
}

// TestAllowlistRepairsApply holds each correction of allowlistRepairs to
// the pinned rule file: the text it replaces is in an allowlist of its
// rule (a new gitleaks release that rewrote it fails here, and the repair
// is looked at again), and the repaired allowlist still compiles. For the
// generic rule's "author": an author's name stays allowed, a value named
// for an authorization does not.
func TestAllowlistRepairsApply(t *testing.T) {
	loadGitleaks()
	for _, r := range allowlistRepairs {
		found := false
		for _, gr := range gitleaks.set.Rules {
			if gr.ID != r.rule {
				continue
			}
			for _, a := range gr.Allowlists {
				for _, re := range a.Regexes {
					found = found || strings.Contains(re, r.from)
				}
				if _, err := compileAllowlist(repairAllowlist(r.rule, a)); err != nil {
					t.Errorf("%s: repaired allowlist: %v", r.rule, err)
				}
			}
		}
		if !found {
			t.Errorf("%s: no allowlist expression holds %q (%s): the pinned file changed", r.rule, r.from, r.why)
		}
	}
	s := defaultScanner(t)
	tok := newFakeGen("allowlist repairs").mixed(base62, 32)
	for line, want := range map[string]bool{
		`author = "` + tok + `"`:              false,
		`authorized_network = "` + tok + `"`:  false,
		`authority = "` + tok + `"`:           false,
		`AUTHORIZATION_TOKEN = "` + tok + `"`: true,
		`"authorization": "` + tok + `"`:      true,
	} {
		if got := len(s.Scan("app/settings.py", []byte(line+"\n"))) > 0; got != want {
			t.Errorf("%q: reported %v, want %v", line, got, want)
		}
	}
}
