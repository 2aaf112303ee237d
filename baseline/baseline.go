// Package baseline records accepted findings by fingerprint, so that CI can
// report only new ones. Entries hold the check, file and message, never a
// position (fingerprints do not change when lines move) and never a secret
// (messages are redacted by the checks).
package baseline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/internal/safefs"
)

// Version of the baseline file format.
const Version = 1

// File is a baseline file.
type File struct {
	Version  int     `json:"version"`
	Tool     string  `json:"tool"`
	Findings []Entry `json:"findings"`
}

// Entry is one accepted finding.
type Entry struct {
	Fingerprint string `json:"fingerprint"`
	Check       string `json:"check"`
	Category    string `json:"category,omitempty"` // absent in baselines written before codes
	File        string `json:"file"`
	Message     string `json:"message"`
}

// Code is the entry's rule code, as findings show it ("check/category").
func (e Entry) Code() string {
	if e.Category == "" {
		return e.Check
	}
	return e.Check + "/" + e.Category
}

// New builds a baseline from findings, sorted for stable diffs.
func New(findings []checks.Finding) *File {
	b := &File{Version: Version, Tool: "sotvet", Findings: []Entry{}}
	for _, f := range findings {
		b.Findings = append(b.Findings, Entry{Fingerprint: f.Fingerprint, Check: f.Check, Category: f.Category, File: f.File, Message: f.Message})
	}
	sort.Slice(b.Findings, func(i, j int) bool {
		x, y := b.Findings[i], b.Findings[j]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Check != y.Check {
			return x.Check < y.Check
		}
		return x.Fingerprint < y.Fingerprint
	})
	return b
}

// Marshal encodes the baseline as indented JSON.
func (b *File) Marshal() []byte {
	out, _ := json.MarshalIndent(b, "", "  ")
	return append(out, '\n')
}

// maxSize caps a baseline file; a FIFO or a device in its place is an
// error, never a hang.
const maxSize = 256 << 20

// Load reads a baseline file.
func Load(name string) (*File, error) {
	data, err := safefs.ReadPath(name, maxSize)
	if err != nil {
		return nil, err
	}
	return decode(name, data)
}

// LoadIn reads the baseline file rel names under dir, never through a
// symbolic link that leads out of dir: a workspace's configuration names
// its baseline, and check reads only the workspace.
func LoadIn(dir, rel string) (*File, error) {
	name := filepath.Join(dir, rel)
	data, err := safefs.ReadIn(dir, rel, maxSize)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return decode(name, data)
}

func decode(name string, data []byte) (*File, error) {
	var b File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("%s: not a sotvet baseline: %w", name, err)
	}
	if b.Version != Version {
		return nil, fmt.Errorf("%s: baseline version %d, want %d", name, b.Version, Version)
	}
	return &b, nil
}

// Filter returns the findings not in the baseline, and the baseline entries
// that matched no finding (stale: the defect was fixed or its text changed).
func (b *File) Filter(findings []checks.Finding) (fresh []checks.Finding, stale []Entry) {
	accepted := map[string]bool{}
	for _, e := range b.Findings {
		accepted[e.Fingerprint] = true
	}
	used := map[string]bool{}
	for _, f := range findings {
		if accepted[f.Fingerprint] {
			used[f.Fingerprint] = true
			continue
		}
		fresh = append(fresh, f)
	}
	for _, e := range b.Findings {
		if !used[e.Fingerprint] {
			stale = append(stale, e)
		}
	}
	return fresh, stale
}
