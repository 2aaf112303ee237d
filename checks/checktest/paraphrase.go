package checktest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/txtar"
)

// Paraphrases runs a paraphrase set: a txtar archive whose files named
// "base/PATH" make a consistent workspace, and whose files named
// "pos/NAME/PATH" and "neg/NAME/PATH" are variants: the base with PATH
// added or replaced. The base alone must give no finding of category, so
// that every positive variant (the same contradiction in other words) that
// gives one owes it to its own text; every negative one (a consistent
// near-miss) must give none. category may name alternatives ("a|b"): a
// finding of any counts. The archive's comment says what the set is about; a file
// "pos/NAME/DELETE" lists base paths the variant removes, one a line.
//
// It returns how many positives were found, and of how many, so a test can
// log the rule's recall.
func Paraphrases(t *testing.T, archive, category string, as ...*analysis.Analyzer) (found, total int) {
	t.Helper()
	return ParaphrasesMissing(t, archive, category, nil, as...)
}

// ParaphrasesMissing is Paraphrases for a rule that does not yet find all
// of its set: the positives named in missing (their NAME) must still be
// missed, and every other one found. A rule that comes to find one fails
// the test until the name is taken off the list, so the list only shrinks
// and says exactly what the rule lacks.
func ParaphrasesMissing(t *testing.T, archive, category string, missing []string, as ...*analysis.Analyzer) (found, total int) {
	t.Helper()
	vars := ParaphraseVariants(t, archive)
	var pos, neg, negs, reported int
	for _, v := range vars[1:] {
		if strings.HasPrefix(v.Name, "pos/") {
			pos++
		} else {
			neg++
		}
	}
	if pos < 5 || neg < 5 {
		t.Errorf("%s: %d paraphrases and %d near-misses; a set needs at least five of each", archive, pos, neg)
	}
	for _, v := range vars {
		key := v.Name
		t.Run(key, func(t *testing.T) {
			dir := v.Write(t)
			var hits []string
			for _, f := range Findings(t, dir, as...) {
				if !slices.Contains(strings.Split(category, "|"), f.Category) {
					continue
				}
				hits = append(hits, "["+f.Category+"] "+f.File+": "+f.Message)
			}
			if strings.HasPrefix(key, "pos/") {
				total++
				known := slices.Contains(missing, strings.TrimPrefix(key, "pos/"))
				switch {
				case len(hits) == 0 && !known:
					t.Errorf("paraphrase not found: no %s finding in the variant's files", category)
				case len(hits) > 0 && known:
					t.Errorf("paraphrase found, but listed as missing: take it off the list")
				}
				if len(hits) > 0 {
					found++
				}
				return
			}
			if key != "neg/base-alone" {
				negs++
				if len(hits) > 0 {
					reported++
				}
			}
			for _, h := range hits {
				t.Errorf("near-miss reported: %s", h)
			}
		})
	}
	t.Logf("%s: %s found %d of %d paraphrases, reported %d of %d near-misses", filepath.Base(archive), category, found, total, reported, negs)
	return found, total
}

// A Variant is a workspace of a paraphrase set: the base, or the base
// with a variant's files added, replaced or removed.
type Variant struct {
	Name  string            // "neg/base-alone", "pos/NAME" or "neg/NAME"
	Files map[string]string // path -> content
}

// Write writes v's files to a new temporary directory (with a .sot
// directory, as a workspace has) and returns it.
func (v Variant) Write(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	WriteFiles(t, dir, v.Files)
	if err := os.MkdirAll(filepath.Join(dir, ".sot"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// ParaphraseVariants reads a paraphrase set (see Paraphrases): the base
// alone ("neg/base-alone") first, then each variant in the archive's order.
func ParaphraseVariants(t testing.TB, archive string) []Variant {
	t.Helper()
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	base := map[string]string{}
	type variant struct {
		files map[string]string
		del   []string
	}
	vars := map[string]*variant{}
	var order []string
	for _, f := range ar.Files {
		kind, rest, _ := strings.Cut(f.Name, "/")
		switch kind {
		case "base":
			base[rest] = string(f.Data)
			continue
		case "pos", "neg":
		default:
			t.Fatalf("%s: file %q is neither base/, pos/ nor neg/", archive, f.Name)
		}
		name, path, ok := strings.Cut(rest, "/")
		if !ok {
			t.Fatalf("%s: file %q names no path", archive, f.Name)
		}
		key := kind + "/" + name
		v := vars[key]
		if v == nil {
			v = &variant{files: map[string]string{}}
			vars[key] = v
			order = append(order, key)
		}
		if path == "DELETE" {
			v.del = strings.Fields(string(f.Data))
			continue
		}
		v.files[path] = string(f.Data)
	}
	out := []Variant{{Name: "neg/base-alone", Files: base}}
	for _, key := range order {
		v := vars[key]
		files := map[string]string{}
		for p, c := range base {
			if !slices.Contains(v.del, p) {
				files[p] = c
			}
		}
		for p, c := range v.files {
			files[p] = c
		}
		out = append(out, Variant{Name: key, Files: files})
	}
	return out
}
