package checks

import (
	"sort"

	"github.com/svrnty/sotvet/sotparse"
)

// FixCount says what ApplyFixes did with the findings it was given.
type FixCount struct {
	Applied int // fixes applied
	Unsafe  int // unsafe fixes left out (unsafe not asked for)
	Skipped int // fixes left out because they overlap a fix already taken
	NoFix   int // findings with no fix at all
}

// ApplyFixes computes the content of every file changed by the first
// suggested fix of each finding. Unsafe fixes (they assert a judgement a
// person must make) are taken only when unsafe is true. A fix whose edits
// overlap an edit already taken is skipped whole, so that no file is left
// half-fixed by one fix. It returns the new contents by path and the
// counts.
func ApplyFixes(ws *sotparse.Workspace, findings []Finding, unsafe bool) (map[string][]byte, FixCount) {
	type taken struct{ start, end int }
	byFile := map[string][]Edit{}
	spans := map[string][]taken{}
	var n FixCount
	for _, f := range findings {
		if len(f.Fixes) == 0 {
			n.NoFix++
			continue
		}
		fix := f.Fixes[0]
		if fix.Unsafe && !unsafe {
			n.Unsafe++
			continue
		}
		ok := len(fix.Edits) > 0
		for _, e := range fix.Edits {
			file := ws.File(e.File)
			if file == nil || e.Start < 0 || e.End < e.Start || e.End > len(file.Content) {
				ok = false
				break
			}
			for _, s := range spans[e.File] {
				if e.Start < s.end && s.start < e.End || (e.Start == e.End && e.Start == s.start) {
					ok = false
				}
			}
		}
		if !ok {
			n.Skipped++
			continue
		}
		for _, e := range fix.Edits {
			byFile[e.File] = append(byFile[e.File], e)
			spans[e.File] = append(spans[e.File], taken{e.Start, e.End})
		}
		n.Applied++
	}
	out := map[string][]byte{}
	for path, edits := range byFile {
		sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
		src := ws.File(path).Content
		var b []byte
		last := 0
		for _, e := range edits {
			b = append(b, src[last:e.Start]...)
			b = append(b, e.New...)
			last = e.End
		}
		b = append(b, src[last:]...)
		out[path] = b
	}
	return out, n
}
