package secrets

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/svrnty/sotvet/internal/lazyre"
)

// GitleaksAllowMarker is gitleaks' inline allow comment. A finding on a
// line holding it is allowed ("inline: gitleaks:allow"), so a repository
// that already uses gitleaks keeps its triage when it switches.
const GitleaksAllowMarker = "gitleaks:allow"

// GitleaksIgnore is a parsed .gitleaksignore: gitleaks finding
// fingerprints, "file:rule-id:line" or "commit:file:rule-id:line". A
// finding is allowed ("gitleaksignore") when its file ends with the
// entry's file (paths are relative to where gitleaks ran), its line is
// the entry's line and the entry's rule is the finding's rule, a gitleaks
// rule sotvet folds into it (GitleaksAliases), or a rule that matched the
// same secret. A commit prefix is accepted and not checked: a file scan
// has no commit, and an entry names a finding a person already judged.
type GitleaksIgnore map[gitleaksIgnoreKey]bool

type gitleaksIgnoreKey struct {
	file string
	rule string
	line int
}

// commitPrefixRE is compiled on first use, not by Warm: few workspaces
// have a .gitleaksignore, and its 64-fold repetition made it the costliest
// of the package's expressions to compile (0.1-0.25 ms).
var commitPrefixRE = lazyre.New(`^[0-9a-f]{7,64}:`)

// ParseGitleaksIgnore parses a .gitleaksignore file: one fingerprint a
// line; blank lines and lines starting with "#" are skipped.
func ParseGitleaksIgnore(data []byte) (GitleaksIgnore, error) {
	ig := GitleaksIgnore{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		// From the right: line, rule, then the file (which may hold ":").
		i := strings.LastIndexByte(l, ':')
		line, err := strconv.Atoi(l[i+1:])
		// The error names the place, never the line's text: a hostile
		// repository's file may hold anything (a link to the process's
		// environment), and a CI log is public.
		col := strings.Index(sc.Text(), l) + 1
		if i < 0 || err != nil || line < 1 {
			at := col + i + 1 // the number, or the line's end when no colon is there
			if i < 0 {
				at = col + len(l)
			}
			return nil, fmt.Errorf(".gitleaksignore:%d:%d: want file:rule-id:line, with a line number of 1 or more after the last colon", n, at)
		}
		rest := l[:i]
		j := strings.LastIndexByte(rest, ':')
		if j <= 0 || j == len(rest)-1 {
			return nil, fmt.Errorf(".gitleaksignore:%d:%d: want file:rule-id:line, with a file and a rule id before the line number", n, col+max(j, 0))
		}
		file, rule := rest[:j], rest[j+1:]
		if m := commitPrefixRE.FindString(file); m != "" && len(file) > len(m) {
			file = file[len(m):]
		}
		ig[gitleaksIgnoreKey{cleanIgnorePath(file), rule, line}] = true
	}
	return ig, sc.Err()
}

func cleanIgnorePath(p string) string {
	return strings.TrimPrefix(path.Clean(strings.ReplaceAll(p, "\\", "/")), "./")
}

// match reports whether an entry names the finding at file:line of one of
// the rules ids.
func (ig GitleaksIgnore) match(file string, line int, ids []string) bool {
	if len(ig) == 0 {
		return false
	}
	file = cleanIgnorePath(file)
	for _, id := range ids {
		// Every suffix of the path that starts a segment.
		for f := file; ; {
			if ig[gitleaksIgnoreKey{f, id, line}] {
				return true
			}
			k := strings.IndexByte(f, '/')
			if k < 0 {
				break
			}
			f = f[k+1:]
		}
	}
	return false
}
