// Package mdtext joins the texts of a goldmark tree that continue each
// other in the source: sotparse does it as each block closes (a
// paragraph's texts are its memory), and the tests that hold its trees
// to goldmark's (mddump) do it to both.
package mdtext

import "github.com/yuin/goldmark/ast"

// Merge joins each text under n to the text before it where it
// continues it (Continues), as one text would read: goldmark leaves a
// text for every delimiter it did not match and for the text after it.
// A code span's texts are its lines, and stay.
func Merge(n ast.Node, src []byte) {
	var prev *ast.Text
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		t, ok := c.(*ast.Text)
		switch {
		case !ok:
			prev = nil
			if _, code := c.(*ast.CodeSpan); !code && c.HasChildren() {
				Merge(c, src)
			}
		case prev != nil && Continues(prev, t, src):
			prev.Segment = prev.Segment.WithStop(t.Segment.Stop)
			prev.SetSoftLineBreak(t.SoftLineBreak())
			prev.SetHardLineBreak(t.HardLineBreak())
			n.RemoveChild(n, t)
		default:
			prev = t
		}
		c = next
	}
}

// Continues reports whether t reads on from prev in the source, so that
// one text of both reads as the two do: nothing between them, no line
// break after prev, no padding, the same flags, no attributes.
func Continues(prev, t *ast.Text, src []byte) bool {
	return prev.Segment.Stop == t.Segment.Start && prev.Segment.Padding == 0 && t.Segment.Padding == 0 &&
		!prev.SoftLineBreak() && !prev.HardLineBreak() && prev.IsRaw() == t.IsRaw() &&
		prev.Attributes() == nil && t.Attributes() == nil &&
		prev.Segment.Stop > 0 && prev.Segment.Stop <= len(src) && src[prev.Segment.Stop-1] != '\n'
}
