package secrets

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestCredSweeperSamples measures the engine on a peer's own test suite:
// Samsung CredSweeper's tests/samples and the detections its tests
// expect there (tests/data/output.json, its default answer with the ML
// filter; doc.json, its --doc mode for credentials in documents). The
// repository does not hold them: point SOTVET_CREDSWEEPER at a CredSweeper
// checkout or at its tests directory (git archive HEAD tests | tar -x).
//
// A detection (a file and the lines CredSweeper reports for one
// candidate) counts as found when a finding covers one of its lines. A
// finding on a line that none of CredSweeper's expected outputs lists
// (with or without ML or filters, doc or deep mode) counts as unexplained:
// CredSweeper's suite is a peer's judgement, not the truth, and these
// were read by hand (issue 33), but a rise means a new kind of noise.
// It fails below the figures reached when the gate was set.
func TestCredSweeperSamples(t *testing.T) {
	root := os.Getenv("SOTVET_CREDSWEEPER")
	if root == "" {
		t.Skip("SOTVET_CREDSWEEPER unset: point it at a checkout of github.com/Samsung/CredSweeper (or its tests directory) to measure on its samples")
	}
	if _, err := os.Stat(filepath.Join(root, "tests", "samples")); err == nil {
		root = filepath.Join(root, "tests")
	}
	samples := filepath.Join(root, "samples")
	ents, err := os.ReadDir(samples)
	if err != nil {
		t.Fatal(err)
	}
	s := defaultScanner(t)
	type span struct{ from, to int }
	found := map[string][]span{} // file -> lines of findings
	total := 0
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(samples, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range s.Scan("samples/"+e.Name(), data) {
			end := f.EndLine
			if end < f.Line {
				end = f.Line
			}
			found[e.Name()] = append(found[e.Name()], span{f.Line, end})
			total++
		}
	}
	hit := func(file string, lines []int) bool {
		for _, sp := range found[file] {
			for _, l := range lines {
				if sp.from <= l && l <= sp.to {
					return true
				}
			}
		}
		return false
	}
	expected := func(name string) map[string][][]int {
		data, err := os.ReadFile(filepath.Join(root, "data", name))
		if err != nil {
			t.Fatal(err)
		}
		var cands []struct {
			LineDataList []struct {
				Path    string `json:"path"`
				LineNum int    `json:"line_num"`
			} `json:"line_data_list"`
		}
		if err := json.Unmarshal(data, &cands); err != nil {
			t.Fatal(err)
		}
		out := map[string][][]int{}
		seen := map[string]bool{}
		for _, c := range cands {
			if len(c.LineDataList) == 0 {
				continue
			}
			file := filepath.Base(c.LineDataList[0].Path)
			var lines []int
			for _, ld := range c.LineDataList {
				lines = append(lines, ld.LineNum)
			}
			sort.Ints(lines)
			lines = slices.Compact(lines)
			key := file + ":" + fmtInts(lines)
			if seen[key] || strings.Contains(c.LineDataList[0].Path, "!") {
				continue // one detection per line set; deep mode's archive members
			}
			seen[key] = true
			out[file] = append(out[file], lines)
		}
		return out
	}
	recall := func(name string) (int, int) {
		n, ok := 0, 0
		for file, sets := range expected(name) {
			for _, lines := range sets {
				n++
				if hit(file, lines) {
					ok++
				} else if os.Getenv("SOTVET_CREDSWEEPER_VERBOSE") != "" {
					t.Logf("missed (%s): %s:%s", name, file, fmtInts(lines))
				}
			}
		}
		return ok, n
	}
	mlFound, ml := recall("output.json")
	docFound, doc := recall("doc.json")
	listed := map[string]map[int]bool{}
	for _, name := range []string{"output.json", "no_ml.json", "no_filters_no_ml.json", "doc.json", "depth_3_pedantic.json"} {
		for file, sets := range expected(name) {
			if listed[file] == nil {
				listed[file] = map[int]bool{}
			}
			for _, lines := range sets {
				for _, l := range lines {
					listed[file][l] = true
				}
			}
		}
	}
	unexplained := 0
	for file, sps := range found {
		for _, sp := range sps {
			ok := false
			for l := sp.from; l <= sp.to && !ok; l++ {
				ok = listed[file][l]
			}
			if !ok {
				unexplained++
				if os.Getenv("SOTVET_CREDSWEEPER_VERBOSE") != "" {
					t.Logf("unexplained: %s:%d", file, sp.from)
				}
			}
		}
	}
	t.Logf("CredSweeper (ML) detections found: %d/%d (%.1f %%); doc mode: %d/%d (%.1f %%); findings %d, on no line CredSweeper lists: %d",
		mlFound, ml, 100*ratio(mlFound, ml), docFound, doc, 100*ratio(docFound, doc), total, unexplained)
	// The figures of the snapshot the gate was set on (issue 33), less a
	// margin for a newer snapshot's added samples.
	if r := ratio(mlFound, ml); r < credSweeperMinRecall {
		t.Errorf("recall on CredSweeper's detections %.1f %% < %.0f %%", 100*r, 100*credSweeperMinRecall)
	}
	if r := ratio(docFound, doc); r < credSweeperMinDocRecall {
		t.Errorf("recall on CredSweeper's doc-mode detections %.1f %% < %.0f %%", 100*r, 100*credSweeperMinDocRecall)
	}
	if unexplained > credSweeperMaxUnexplained {
		t.Errorf("%d findings on lines CredSweeper does not list > %d", unexplained, credSweeperMaxUnexplained)
	}
}

// The gate's floors and ceiling (see TestCredSweeperSamples), set on the
// snapshot of 2026-11 (tests/__init__.py: 229 sample files, 577 expected
// credentials), where the engine found 429 of 537 detections (gitleaks
// v8.30.1: 144; sotvet before issue 33's peer forms: 204), 435 of 622 in
// doc mode, and made 20 findings on lines CredSweeper does not list: 12
// in archives and binaries it reads only in its deep mode (pem_key.tar,
// the rpm, xls, elf and sqlite samples), 3 private keys its filters drop
// (2 encrypted, 1 a bare PEM body), 3 passwords it misses ("--passwd …",
// "user master password …", "mypw: …") and 2 values its tests mark as
// bait (token.toml, hashicorp).
//
// Read again on its checkout 1ed2ca5 (2026-08-18), 36: 11 in archives
// and binaries, the 3 private keys and the 2 bait values as above; 17
// passwords after their names in its document samples, above those
// files' "FALSE:" section and listed in no expected output ("Password
// Prl23Db#@", "-pw Prl23Db#@", a password XML element, "master
// account:pw IhqSb1Gg", "ID master PWD dipPr187Gg!"); 2 values of the
// key/value structures its own sample says "can be combined"
// (key_value.json, struct.json); and encoded_data's base64 written a few
// bytes a line, which one-time-codes reports as a list of codes.
//
// Round forty, 37: pkcs12.changeme.p12, a PKCS #12 store holding a key
// under "changeme", which CredSweeper reports only in its deep mode
// (PKCS_PASSWORD in depth_3_pedantic.json), as the binaries above.
//
// Round forty-one, 44: seven logins in its document samples that its
// expected outputs leave out while listing the lines around them, of
// the forms that round reads (login-label-pair's "id/pass master/…",
// "ID/PWD-master/…", "login/password-master/…", and a password after
// 비번 or 비밀번호: doc_id_passwd_pair 12 and 16, doc_passwd_pair 9, 19
// and 44, doc_various 19 and 92). The gate had not been raised with
// them, so it failed wherever SOTVET_CREDSWEEPER was set.
//
// Round forty-three, 49: five more logins of the shapes CredSweeper
// lists on the lines around them, read by host-login-pair: a pair after
// an address in doc_various 45, 51 and 89 ("gildong.hong@98.76.54.32
// (master/…)", "98.76.54.32(master/… master/…)") and two cells of
// sample.xls (2 and 7). That round raised no gate either, and the test
// failed again until the next one read it.
//
// Round forty-four, 50: "password in xxxx is IhqSb1Gg" (doc_various 42),
// the sample's password stated in a sentence, which prose-secret reads
// now that a password of eight or nine characters stated bare counts
// when it reads as typed.
const (
	credSweeperMinRecall      = 0.79
	credSweeperMinDocRecall   = 0.69
	credSweeperMaxUnexplained = 50
)

func fmtInts(xs []int) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x))
	}
	return b.String()
}
