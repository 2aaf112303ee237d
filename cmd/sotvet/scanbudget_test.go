package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/secrets"
)

// TestRunBudgetExact: once every file is recorded, in any order, the
// budget has omitted exactly the files with findings whose names Cap
// keeps nothing of; on the way it never omits one Cap keeps some of.
// Names shared by several files (Cap counts them together against the
// per-file cap) and names whose sorted order is not the walk's ("a/x"
// after "a-b") included. And the budget does omit files: the test would
// pass on a budget that never answers.
func TestRunBudgetExact(t *testing.T) {
	names := []string{"a/x", "a-b", "a", "a/x", "b", "b/c/d", "b.c", "c", "c", "d/e", "A", "z", "a/y", "a.b", "ab"}
	rng := rand.New(rand.NewPCG(1, 2))
	answered := 0
	for round := range 400 {
		files := make([]*scannedFile, 3+rng.IntN(20))
		for i := range files {
			files[i] = &scannedFile{seq: i, name: names[rng.IntN(len(names))]}
			for range rng.IntN(6) {
				files[i].found = append(files[i].found, secrets.Finding{RuleID: "r", Fingerprint: strings.Repeat("0", 16), Allowed: rng.IntN(4) == 0})
			}
		}
		perRun, perFile := 1+rng.IntN(12), rng.IntN(4)
		// What Cap omits: the findings of the run in its order.
		res := &checks.Result{}
		counted := map[*scannedFile]int{}
		for i, f := range files {
			for k, s := range f.found {
				if !s.Allowed {
					res.Findings = append(res.Findings, checks.Finding{Check: "secrets", File: f.name, Offset: 10*i + k, Severity: checks.SeverityError})
					counted[f]++
				}
			}
		}
		checks.SortFindings(res.Findings)
		res.Cap(perFile, perRun)
		keptIn := map[string]bool{}
		for _, f := range res.Findings {
			keptIn[f.File] = true
		}
		b := newRunBudget(perRun, perFile)
		for _, i := range rng.Perm(len(files)) {
			b.record(files[i])
			for _, f := range files {
				if f.omitted != nil && keptIn[f.name] {
					t.Fatalf("round %d: file %d (%q) omitted by the budget, but Cap (per file %d, per run %d) keeps some of its name's findings", round, f.seq, f.name, perFile, perRun)
				}
			}
		}
		for _, f := range files {
			if f.omitted != nil {
				answered++
				if f.found != nil {
					t.Fatalf("round %d: file %d omitted but holds its findings", round, f.seq)
				}
			} else if counted[f] > 0 && !keptIn[f.name] {
				t.Fatalf("round %d: file %d (%q) held, but Cap (per file %d, per run %d) keeps none of its name's findings", round, f.seq, f.name, perFile, perRun)
			}
		}
	}
	if answered == 0 {
		t.Fatal("the budget never omitted a file")
	}
}

// TestScanRunBudgetSameReport: scan's report (findings, fingerprints
// numbered across files, omitted counts by file and severity, exit code)
// is the same with the run budget as without it, under caps that omit
// whole files, on a tree whose files share secrets, hold allowed ones and
// sort by name otherwise than the walk visits them.
func TestScanRunBudgetSameReport(t *testing.T) {
	dir := t.TempDir()
	tok := func(i int) string { return fixtureToken(byte(i)) }
	write := func(name string, toks ...int) {
		var b strings.Builder
		for k, i := range toks {
			if k%5 == 4 {
				fmt.Fprintf(&b, "token_%d: %s # sotvet:allow-secret -- a fixture\n", k, tok(i))
				continue
			}
			fmt.Fprintf(&b, "token_%d: %s\nplain text\n", k, tok(i))
		}
		checktest.WriteFiles(t, dir, map[string]string{name: b.String()})
	}
	for i, name := range []string{"a/x.txt", "a-b.txt", "a.txt", "b/c/d.txt", "b.c.txt", "c.txt", "d/e.txt", "z.txt", "a/y.txt", "ab.txt"} {
		// each file shares secrets with the others (the fingerprints'
		// ":N"), and holds some of its own
		write(name, i%3, (i+1)%3, 10+i, 20+i, 3, 30+i, 40+i)
	}
	scan := func(args ...string) (string, int) {
		var out, errOut bytes.Buffer
		code := run(append(append([]string{"scan"}, args...), dir), &out, &errOut)
		return out.String() + errOut.String(), code
	}
	defer func() { useRunBudget = true }()
	for _, caps := range [][]string{
		{"--max-findings", "1"},
		{"--max-findings", "7", "--max-findings-per-file", "2"},
		{"--max-findings", "12", "--max-findings-per-file", "0"},
		{"--max-findings", "30"},
		{"--max-findings", "0", "--max-findings-per-file", "3"},
	} {
		for _, format := range []string{"json", "text"} {
			args := append([]string{"--format", format}, caps...)
			useRunBudget = false
			want, wantCode := scan(args...)
			useRunBudget = true
			got, code := scan(args...)
			if got != want || code != wantCode {
				t.Fatalf("scan %v with the run budget (exit %d):\n%s\nwithout it (exit %d):\n%s", args, code, got, wantCode, want)
			}
			if caps[1] != "0" && caps[1] != "30" && !strings.Contains(want, "more findings") {
				t.Fatalf("scan %v omitted nothing: %s", args, want)
			}
		}
	}
}

// TestFingerprintKeyRoundTrip: an omitted finding's key is 8 bytes, and
// the report writes it back as the fingerprint's first 16 hex digits,
// leading zeros too, so a baseline's numbered fingerprints stay the same.
func TestFingerprintKeyRoundTrip(t *testing.T) {
	fps := []string{strings.Repeat("0", 63) + "1", "00f" + strings.Repeat("e", 61)}
	for i := range 50 {
		fps = append(fps, secrets.Fingerprint("rule", fmt.Sprint(i)))
	}
	for _, fp := range fps {
		if got := fingerprintKey(fp).String(); got != fp[:16] {
			t.Errorf("fingerprintKey(%s).String() = %s, want %s", fp, got, fp[:16])
		}
	}
	if fingerprintKey(fps[2]) == fingerprintKey(fps[3]) {
		t.Error("two fingerprints read as one key")
	}
}

// TestReportedKeys: the keys an omitted file's findings are counted
// under are those of the findings of files not omitted, allowed ones
// left out (they are not reported, so nothing numbers them).
func TestReportedKeys(t *testing.T) {
	fp := func(c byte) string { return strings.Repeat(string(c), 16) + ":1" }
	files := []*scannedFile{
		{found: []secrets.Finding{{Fingerprint: fp('a')}, {Fingerprint: fp('b'), Allowed: true}}},
		{omitted: omit([]secrets.Finding{{Fingerprint: fp('a')}, {Fingerprint: fp('d')}})},
		{found: []secrets.Finding{{Fingerprint: fp('c')}}},
	}
	got := reportedKeys(files)
	if len(got) != 2 {
		t.Fatalf("reportedKeys = %v, want the keys of a and c", got)
	}
	for _, c := range []byte("ac") {
		if n, ok := got[fingerprintKey(fp(c))]; !ok || n != 0 {
			t.Errorf("key %c: %d, %v; want counted 0", c, n, ok)
		}
	}
}

// TestScanRunBudgetNumbersAcrossOmitted: a file the run's cap omits that
// the walk visits before a reported file still numbers that file's
// fingerprints. With one worker the files finish in walk order, so the
// budget's answer is fixed: the walk visits a/f.txt, a/x.txt, a-r.txt;
// the report sorts a-r.txt, a/f.txt, a/x.txt. a/f.txt's findings fill
// the cap before a/x.txt is recorded, so a/x.txt is omitted, and a-r.txt
// (reported, first in the report) shares a/x.txt's secret: its
// fingerprint is ":2", counted past the omitted finding.
// (TestScanRunBudgetSameReport's tree meets this case only in some
// orders the workers may finish in.)
func TestScanRunBudgetNumbersAcrossOmitted(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	dir := t.TempDir()
	files := map[string]string{}
	for name, toks := range map[string][]int{"a/f.txt": {1, 2, 3}, "a/x.txt": {9}, "a-r.txt": {9}} {
		var b strings.Builder
		for k, i := range toks {
			fmt.Fprintf(&b, "token_%d: %s\n", k, fixtureToken(byte(i), 'n'))
		}
		files[name] = b.String()
	}
	checktest.WriteFiles(t, dir, files)
	var out, errOut bytes.Buffer
	if code := run([]string{"scan", "--format", "json", "--max-findings", "3", dir}, &out, &errOut); code != exitFindings {
		t.Fatalf("scan: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	var rep struct {
		Errors []struct{ File, Fingerprint string }
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Errors {
		got = append(got, filepath.Base(f.File)+" "+f.Fingerprint[strings.LastIndexByte(f.Fingerprint, ':'):])
	}
	want := []string{"a-r.txt :2", "f.txt :1", "f.txt :1"}
	if !slices.Equal(got, want) {
		t.Fatalf("findings %v, want %v\n%s", got, want, out.String())
	}
}

// fixtureToken is a GitHub token made from seed, distinct for each seed,
// which the repository's source does not hold whole.
func fixtureToken(seed ...byte) string {
	sum := sha256.Sum256(seed)
	return "gh" + "p_" + strings.NewReplacer("+", "", "/", "", "=", "").Replace(base64.StdEncoding.EncodeToString(sum[:]))[:36]
}
