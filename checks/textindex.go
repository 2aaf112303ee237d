package checks

import (
	"cmp"
	"go/token"
	"math"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/sotparse"
)

// textIndex keeps what the driver reads of a document's text after the
// checks, taken while the parse still holds the text (Stream.AfterDoc): the
// normalised text each DocCheck finding flags, for its fingerprint, and
// whether the text holds a suppression. A run that lets the texts go
// (Options.ReleaseText) then reads none back for these.
type textIndex struct {
	fset *token.FileSet
	// scan, when set, finds the secrets of a document with findings, for
	// their redaction: the run does not have the secrets check's scans.
	scan func(path string, content []byte) ([]secretSpan, bool)
	mu   sync.Mutex
	docs map[string]*docText
	// The document flagged looked up last: findings come by document.
	last struct {
		path string
		doc  *docText
	}
}

// docText is what textIndex keeps of one document.
type docText struct {
	ignore       bool           // the text holds "sotvet:ignore"
	suppressions []*suppression // its suppressions, when ignore
	flagged      []flagSpan
	fields       []string     // what the spans of flagged flag, but ""
	scanned      bool         // secrets holds the document's secrets
	secrets      []secretSpan // sorted by start
}

// flagSpan is the text a finding flags, keyed as fingerprint finds it. A
// run with many findings keeps one for each: its key is 32 bits wide, and
// a span beyond that is not kept (fingerprint reads its text back). Most
// flag no text to fingerprint (blank lines, trailing spaces): the text is
// kept apart, for those that do.
type flagSpan struct {
	offset, endLine, endCol int32
	fields                  uint32 // appendFields of the flagged bytes: "" if 0, else its docText's fields[fields-1]
}

const ignoreMark = "sotvet:ignore"

// plainText is the docText of every document with no suppression and
// nothing flagged. Read-only.
var plainText docText

// afterDoc indexes d's text for the diagnostics the DocChecks reported on
// it; the parse calls it for each document, concurrently.
func (x *textIndex) afterDoc(d *sotparse.Doc, content []byte, diags [][]analysis.Diagnostic) {
	dt := &docText{ignore: holdsIgnore(content)}
	// The spans first, sorted and without repeats: the findings of a
	// document often flag one span many times (its opening line, its
	// title), and its text is kept once.
	var room [16]flagSpan
	spans := room[:0]
	for _, ds := range diags {
		for _, diag := range ds {
			if !diag.Pos.IsValid() {
				continue
			}
			offset, endLine, endCol := docSpan(d.File.Tok, x.fset, diag.Pos, diag.End)
			if offset > math.MaxInt32 || endLine > math.MaxInt32 || endCol > math.MaxInt32 {
				continue
			}
			spans = append(spans, flagSpan{offset: int32(offset), endLine: int32(endLine), endCol: int32(endCol)})
		}
	}
	flaggedByChecks := len(spans) > 0
	if dt.ignore {
		// The suppressions, and the text of each for the findings suppress
		// may report on it: suppress reads no text back.
		var at []flagSpan
		dt.suppressions, at = suppressionsIn(d.Path, d.File.Tok, content)
		spans = append(spans, at...)
	}
	if len(spans) > 0 {
		slices.SortFunc(spans, compareFlagged)
		spans = slices.CompactFunc(spans, func(a, b flagSpan) bool { return compareFlagged(a, b) == 0 })
		dt.flagged = slices.Clone(spans)
		var buf []byte
		for i := range dt.flagged {
			span := &dt.flagged[i]
			buf = appendFields(buf[:0], flaggedIn(d.File.Tok, content, int(span.offset), int(span.endLine), int(span.endCol)))
			if len(buf) > 0 {
				if dt.fields == nil {
					dt.fields = make([]string, 0, len(dt.flagged)-i)
				}
				dt.fields = append(dt.fields, string(buf))
				span.fields = uint32(len(dt.fields))
			}
		}
	}
	if x.scan != nil && flaggedByChecks {
		dt.secrets, dt.scanned = x.scan(d.Path, content)
	}
	if !dt.ignore && dt.flagged == nil {
		dt = &plainText // most documents: one shared entry, not one each
	}
	x.mu.Lock()
	if x.docs == nil {
		x.docs = map[string]*docText{}
	}
	x.docs[d.Path] = dt
	x.mu.Unlock()
}

// docSpan returns what span does of a diagnostic's offset and end,
// reading positions in tf, the document's file, from it: afterDoc runs on
// every diagnostic as the documents are parsed, concurrently, and a lookup
// in the file set costs a search and its lock. A position outside tf is
// looked up in fset.
func docSpan(tf *token.File, fset *token.FileSet, pos, end token.Pos) (offset, endLine, endCol int) {
	in := func(p token.Pos) bool { return tf.Base() <= int(p) && int(p) <= tf.Base()+tf.Size() }
	if !in(pos) || end.IsValid() && end >= pos && !in(end) {
		_, _, _, offset, endLine, endCol = span(fset, pos, end)
		return offset, endLine, endCol
	}
	p, endLine, endCol := spanIn(tf, pos, end)
	return p.Offset, endLine, endCol
}

func compareFlagged(a, b flagSpan) int {
	if c := cmp.Compare(a.offset, b.offset); c != 0 {
		return c
	}
	if c := cmp.Compare(a.endLine, b.endLine); c != 0 {
		return c
	}
	return cmp.Compare(a.endCol, b.endCol)
}

// flagged returns the normalised text a finding of path at offset, ending
// at endLine:endCol, flags, if the index has it.
func (x *textIndex) flagged(path string, offset, endLine, endCol int) (string, bool) {
	dt := x.last.doc
	if dt == nil || path != x.last.path {
		dt = x.docs[path]
		x.last.path, x.last.doc = path, dt
	}
	if dt == nil {
		return "", false
	}
	if offset > math.MaxInt32 || endLine > math.MaxInt32 || endCol > math.MaxInt32 {
		return "", false
	}
	i, ok := slices.BinarySearchFunc(dt.flagged, flagSpan{offset: int32(offset), endLine: int32(endLine), endCol: int32(endCol)}, compareFlagged)
	if !ok {
		return "", false
	}
	if k := dt.flagged[i].fields; k > 0 {
		return dt.fields[k-1], true
	}
	return "", true
}

// mayIgnore reports whether path's text may hold a suppression: false only
// when the index saw the whole text and it does not.
func (x *textIndex) mayIgnore(path string) bool {
	dt := x.docs[path]
	return dt == nil || dt.ignore
}

// mayIgnoreIn is mayIgnore where ws may still hold path's text (the
// workboard, a record): that text says.
func (x *textIndex) mayIgnoreIn(ws *sotparse.Workspace, path string) bool {
	ig := x.mayIgnore(path)
	if f := ws.File(path); ig && f != nil && f.Content != nil {
		ig = holdsIgnore(f.Content)
	}
	return ig
}

// suppressions returns the suppressions of f's text: those the parse
// found in it, or, for a text the index did not see (the workboard, a
// record, a run that keeps the texts), those found now. Each is the
// caller's: suppress marks the ones it uses.
func (x *textIndex) suppressions(ws *sotparse.Workspace, f *sotparse.File) []*suppression {
	if dt := x.docs[f.Path]; dt != nil {
		out := make([]*suppression, len(dt.suppressions))
		for i, s := range dt.suppressions {
			c := *s
			out[i] = &c
		}
		return out
	}
	content := ws.TransientFileContent(f)
	if !holdsIgnore(content) {
		return nil
	}
	ss, _ := suppressionsIn(f.Path, f.Tok, content)
	return ss
}

// holdsIgnore reports whether content holds a suppression's mark.
func holdsIgnore(content []byte) bool { return bodylines.TextIndex(content, ignoreMark) >= 0 }

// secrets returns the secrets of path's text, if the index scanned it.
func (x *textIndex) secrets(path string) ([]secretSpan, bool) {
	dt := x.docs[path]
	if dt == nil || !dt.scanned {
		return nil, false
	}
	return dt.secrets, true
}
