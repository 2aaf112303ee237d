package checks

import (
	"sort"

	"github.com/svrnty/sotvet/sotparse"
)

// ApplyFixes computes the content of every file changed by the first
// suggested fix of each finding. A fix whose edits overlap an edit already
// taken is skipped whole, so that no file is left half-fixed by one fix. It
// returns the new contents by path and the number of fixes applied.
func ApplyFixes(ws *sotparse.Workspace, findings []Finding) (map[string][]byte, int) {
	type taken struct{ start, end int }
	byFile := map[string][]Edit{}
	spans := map[string][]taken{}
	applied := 0
	for _, f := range findings {
		if len(f.Fixes) == 0 {
			continue
		}
		fix := f.Fixes[0]
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
			continue
		}
		for _, e := range fix.Edits {
			byFile[e.File] = append(byFile[e.File], e)
			spans[e.File] = append(spans[e.File], taken{e.Start, e.End})
		}
		applied++
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
	return out, applied
}
