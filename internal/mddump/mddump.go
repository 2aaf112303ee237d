// Package mddump writes a goldmark tree as text, for tests that hold one
// parser's trees to another's (sotparse's to goldmark's, prose's to
// goldmark's with its extensions).
package mddump

import (
	"fmt"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/svrnty/sotvet/internal/mdtext"
)

// Tree writes doc, a tree of src, as one line per node: its kind,
// position and blank-line flag, a block's lines with their padding, and
// the fields text, links, images, link reference definitions, tables,
// task boxes, autolinks and footnote links hold.
//
// Texts that continue each other are written as one (mdtext.Merge, which
// Tree applies to doc): sotparse joins them as each block closes, and
// goldmark does not.
func Tree(doc ast.Node, src []byte) string {
	mdtext.Merge(doc, src)
	var b strings.Builder
	depth := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			depth--
			return ast.WalkContinue, nil
		}
		fmt.Fprintf(&b, "%s%s pos=%d blank=%v", strings.Repeat("  ", depth), n.Kind(), n.Pos(), n.Type() == ast.TypeBlock && n.HasBlankPreviousLines())
		depth++
		if n.Type() == ast.TypeBlock {
			for i := 0; i < n.Lines().Len(); i++ {
				s := n.Lines().At(i)
				fmt.Fprintf(&b, " [%d:%d pad %d]", s.Start, s.Stop, s.Padding)
			}
		}
		switch n := n.(type) {
		case *ast.Text:
			fmt.Fprintf(&b, " %q soft=%v hard=%v raw=%v", n.Segment.Value(src), n.SoftLineBreak(), n.HardLineBreak(), n.IsRaw())
		case *ast.Link:
			fmt.Fprintf(&b, " dest=%q title=%q ref=%v", n.Destination, n.Title, n.Reference != nil)
		case *ast.Image:
			fmt.Fprintf(&b, " dest=%q title=%q", n.Destination, n.Title)
		case *ast.LinkReferenceDefinition:
			fmt.Fprintf(&b, " label=%q dest=%q title=%q", n.Label, n.Destination, n.Title)
		case *ast.AutoLink:
			fmt.Fprintf(&b, " url=%q", n.URL(src))
		case *east.Table:
			fmt.Fprintf(&b, " %v", n.Alignments)
		case *east.TableCell:
			fmt.Fprintf(&b, " %v", n.Alignment)
		case *east.TaskCheckBox:
			fmt.Fprintf(&b, " checked=%v", n.IsChecked)
		case *east.FootnoteLink:
			fmt.Fprintf(&b, " index=%d", n.Index)
		}
		b.WriteByte('\n')
		return ast.WalkContinue, nil
	})
	return b.String()
}
