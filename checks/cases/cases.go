package cases

import (
	"go/token"
	"path"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/sotparse"
)

// Analyzer validates the workspace's harness case contracts.
var Analyzer = &analysis.Analyzer{
	Name:     "cases",
	Doc:      docutil.MustExtract(doc, "cases"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#cases",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

// Category is the category of every finding.
const Category = "contract"

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	unreadable := map[string]bool{}
	for _, p := range ws.ProblemsFor("syntax") {
		unreadable[p.Path] = true
	}
	for _, f := range ws.Files {
		if f.Role != sotparse.RoleCase || !ws.Focused(f.Path) {
			continue
		}
		// The syntax check reports files it could not read or decode.
		if !utf8.Valid(f.Content) || (len(f.Content) == 0 && unreadable[f.Path]) {
			continue
		}
		c, errs := contract.Parse(f.Path, f.Content)
		if c != nil {
			dir := path.Dir(f.Path)
			errs = append(errs, c.CheckFiles(f.Path, func(rel string) bool {
				return ws.Exists(path.Join(dir, rel)) && ws.File(path.Join(dir, rel)) == nil
			})...)
		}
		for _, e := range errs {
			pos := Pos(f, e.Line, e.Col)
			pass.Report(analysis.Diagnostic{Pos: pos, End: pos, Category: Category, Message: e.Msg})
		}
	}
	return nil, nil
}

// Pos converts a 1-based line and byte column of f to a position; line 0
// (the file as a whole) is the start of the file. Out-of-range values are
// clamped to the file and the line.
func Pos(f *sotparse.File, line, col int) token.Pos {
	tf := f.Lines()
	if line < 1 || tf.LineCount() == 0 {
		return f.Pos(0)
	}
	line = min(line, tf.LineCount())
	start := tf.Offset(tf.LineStart(line))
	end := tf.Size()
	if line < tf.LineCount() {
		end = tf.Offset(tf.LineStart(line+1)) - 1
	}
	off := start + max(col, 1) - 1
	return f.Pos(min(off, max(end, start)))
}
