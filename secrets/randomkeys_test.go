package secrets

import (
	"go/scanner"
	gotoken "go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestStopWordInsideToken: a stop word read in the middle of a random
// key ("…L9gybMOdH9cd…" holds "mod") is not the value's word. Both sides
// are under 16 bytes, which holdsRandomRun alone did not count as random:
// about one random 32-byte key in three hundred was dropped so.
func TestStopWordInsideToken(t *testing.T) {
	s := defaultScanner(t)
	for _, w := range []string{"Mod", "Vpn", "Art", "Cat", "Dev", "Url", "Hub", "Box", "Salt", "Good", "Math", "Push"} {
		for range 5 {
			// The word stands alone as camel case splits it (a small
			// letter before, a capital after), with 14 bytes each side
			// and a digit in each, so that the draw is a key's.
			v := drawnDigitsOr(t, keyAlphabet, 12) + "7q" + w + "X4" + drawnDigitsOr(t, keyAlphabet, 12)
			line := "api_key = \"" + v + "\"\n"
			if fs := s.Scan("config.py", []byte(line)); len(fs) == 0 {
				t.Errorf("%q: no finding", line)
			}
		}
	}
	// A value made of words keeps its stop word.
	for _, v := range []string{"my_mod_token_name", "ModLoaderApiKeyName", "vpn-client-secret-path"} {
		line := "api_key = \"" + v + "\"\n"
		if fs := s.Scan("config.py", []byte(line)); len(fs) > 0 {
			t.Errorf("%q: %s", line, fs[0].RuleID)
		}
	}
}

// keyAlphabet is base62 without vowels and x: a draw from it holds no
// word, so no placeholder ("…Foo…", "…XxXx…": IsPlaceholder drops a
// value holding one, about one 31-byte draw in 500) and no stop word but
// the one a test places.
const keyAlphabet = "BCDFGHJKLMNPQRSTVWYZbcdfghjklmnpqrstvwyz0123456789"

// TestRandomLettersKeys: a key drawn from letters and digits that holds
// no digit (one 32-byte key in 280) is still a key when its letters read
// as drawn. gitleaks' generic rule drops every value of letters alone
// (^[a-zA-Z_.-]+$); randomLetters keeps most draws.
func TestRandomLettersKeys(t *testing.T) {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	s := defaultScanner(t)
	const n = 200
	found := 0
	for range n {
		line := "export API_KEY=" + drawnDigitsOr(t, letters, 32) + "\n"
		if len(s.Scan("deploy.env", []byte(line))) > 0 {
			found++
		}
	}
	// randomLetters takes about three 32-letter draws in four; the floor
	// is four standard deviations (3 points each at n=200) under that,
	// and b400a74 found none.
	if found*100 < 50*n {
		t.Errorf("found %d of %d keys of letters alone, want at least 50 %%", found, n)
	}
	// Letters written as names stay silent.
	for _, v := range []string{"getUserAccountSettingsHandler", "NSURLSessionDataTaskDelegate", "myApiKeyForTheServiceNow", "CheckPtrAlignmentNoPtr"} {
		line := "export API_KEY=" + v + "\n"
		if fs := s.Scan("deploy.env", []byte(line)); len(fs) > 0 {
			t.Errorf("%q: %s", line, fs[0].RuleID)
		}
	}
}

// TestRandomLettersNotNames reads the names of Go's own source tree,
// written by nobody here: no identifier of 20 letters or more, of both
// cases, reads as drawn at random.
func TestRandomLettersNotNames(t *testing.T) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(filepath.Join(root, "go", "token")); err != nil {
		t.Skipf("Go's source tree is not at %s: %v", root, err)
	}
	seen := map[string]bool{}
	files := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		if files++; sampledSweeps() && files%3 != 0 {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var sc scanner.Scanner
		sc.Init(gotoken.NewFileSet().AddFile(p, -1, len(src)), src, nil, 0)
		for {
			_, tok, lit := sc.Scan()
			if tok == gotoken.EOF {
				break
			}
			if tok == gotoken.IDENT && len(lit) >= 20 && !strings.ContainsAny(lit, "_0123456789") {
				seen[lit] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for id := range seen {
		v := []byte(id)
		if !hasUpper(v) || !hasLower(v) {
			continue
		}
		n++
		if randomLetters(v) {
			t.Errorf("%s reads as drawn at random", id)
		}
	}
	if n < 500 {
		t.Fatalf("only %d names of 20 letters or more under %s", n, root)
	}
	t.Logf("%d names read", n)
}

// TestSettingsAndPinsAreNoSecrets: a value that is itself a setting
// ("min_length=14") and a commit pinned after "@" are no secret; a
// key beside them still is. From a blind set of coloured logs.
func TestSettingsAndPinsAreNoSecrets(t *testing.T) {
	s := defaultScanner(t)
	sha := drawnDigitsOr(t, "0123456789abcdef", 40)
	for _, line := range []string{
		"iam.policy password policy updated: min_length=14 require_symbols=true\n",
		"secret rotation: max_age=90 enabled=true\n",
		"token refresh: interval=3600 mode=lazy\n",
		"Run aws-actions/configure-aws-credentials@" + sha + "\n",
		"      - uses: aws-actions/amazon-ecr-login@" + sha + " # aws\n",
	} {
		if fs := s.Scan("deploy.log", []byte(line)); len(fs) > 0 {
			t.Errorf("%q: %s", line, fs[0].RuleID)
		}
	}
	for _, line := range []string{
		"api_key: key=" + drawnDigitsOr(t, keyAlphabet, 16) + "7" + drawnDigitsOr(t, keyAlphabet, 15) + "\n",
		"aws_secret_access_key = " + drawnDigitsOr(t, keyAlphabet+"+/", 20) + "7" + drawnDigitsOr(t, keyAlphabet+"+/", 19) + "\n",
		"password: pw=" + drawnDigitsOr(t, keyAlphabet, 10) + "7" + drawnDigitsOr(t, keyAlphabet, 9) + "\n",
	} {
		if fs := s.Scan("deploy.log", []byte(line)); len(fs) == 0 {
			t.Errorf("%q: no finding", line)
		}
	}
}

// TestTwitterBearerGate: in a run of "A"s, which holds the Twitter rule's
// keyword at every byte past its 21st, the gate passes only the run's
// first 21, at a word's start; a token whose run is longer than 21 is
// still found from there.
func TestTwitterBearerGate(t *testing.T) {
	passed := func(text string) []int {
		var at []int
		for i := 20; i < len(text); i++ {
			if strings.EqualFold(text[i-20:i+1], strings.Repeat("a", 21)) && twitterBearerGate([]byte(text), i) {
				at = append(at, i)
			}
		}
		return at
	}
	run := strings.Repeat("A", 40)
	for text, want := range map[string][]int{
		run:                                 {20},
		"key=" + run:                        {24},
		" " + run + " " + run:               {21, 62},
		"ghp_" + run:                        nil,
		"x-" + run:                          nil,
		"%2B" + run:                         nil,
		"B" + run:                           nil,
		"9" + run:                           nil,
		strings.Repeat("a", 40):             nil,
		strings.Repeat("A", 20) + "a" + run: nil,
	} {
		if got := passed(text); !slices.Equal(got, want) {
			t.Errorf("%.30q…: the gate passes at %v, want %v", text, got, want)
		}
	}
	g := newFakeGen("twitter gate")
	tok := strings.Repeat("A", 23) + g.from(base62, 30) + "%2F" + g.from(base62, 50)
	fs := defaultScanner(t).Scan("bot.log", []byte("started with "+tok+"\n"))
	if len(fs) != 1 || fs[0].RuleID != RuleTwitterAppBearer {
		t.Errorf("a token of 23 \"A\"s: %v, want one %s", fs, RuleTwitterAppBearer)
	}
}
