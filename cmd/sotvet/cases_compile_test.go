package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// verificationBlock is a case.yaml's verification list; commentLine a
// comment line.
var (
	verificationBlock = regexp.MustCompile(`(?m)^verification:\n(?:  - .*\n)+`)
	commentLine       = regexp.MustCompile(`(?m)^#.*\n`)
)

// TestCompileCases keeps each case of testdata/cases-compile (verified by
// a compile, for the scenarios about records, approvals and summaries)
// the case of testdata/cases it stands for, but for its verification and
// comments: the same repository, fake solution and contract otherwise.
func TestCompileCases(t *testing.T) {
	const twins, cases = "../../testdata/cases-compile", "../../testdata/cases"
	ents, err := os.ReadDir(twins)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) == 0 {
		t.Fatalf("%s holds no case", twins)
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		twin, orig := filepath.Join(twins, e.Name()), filepath.Join(cases, e.Name())
		seen := 0
		err := filepath.WalkDir(orig, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(orig, path)
			want, _ := os.ReadFile(path)
			got, err := os.ReadFile(filepath.Join(twin, rel))
			if err != nil {
				t.Errorf("%s: %v", e.Name(), err)
				return nil
			}
			seen++
			if rel == "case.yaml" {
				got, want = commentLine.ReplaceAll(got, nil), commentLine.ReplaceAll(want, nil)
				if v := verificationBlock.Find(got); v == nil || bytes.Equal(v, verificationBlock.Find(want)) {
					t.Errorf("%s/case.yaml: the same verification as the original: nothing is cheaper", e.Name())
				}
				got, want = verificationBlock.ReplaceAll(got, nil), verificationBlock.ReplaceAll(want, nil)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s/%s differs from %s beyond its verification", twins, filepath.Join(e.Name(), rel), path)
			}
			return nil
		})
		if err != nil {
			t.Errorf("%s: %v", e.Name(), err)
		}
		n := 0
		filepath.WalkDir(twin, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				n++
			}
			return nil
		})
		if n != seen {
			t.Errorf("%s: %d files, the original %d", twin, n, seen)
		}
	}
}
