package sotparse

import (
	"encoding/binary"
	"go/token"
)

// A token.File keeps its line table as a []int, 8 bytes a line: on
// 10,000 documents 8 MB, on short-lined ones 20 MB, live through the
// checks, which ask few documents for a line. Once a document's text is
// released its table is packed (the length of each line, a varint: a
// byte for most lines) and unpacked into Tok when a check asks for it
// (Lines), or for every file once the checks are done (UnpackLines).

// packLines packs f's line table away; Tok then has none until Lines or
// UnpackLines gives it back. Called once the checks that read f's text
// during the parse are done with it.
func (f *File) packLines() {
	lines := f.Tok.Lines()
	if len(lines) == 0 {
		return
	}
	n := 0
	for i := 1; i < len(lines); i++ {
		n += uvarintLen(uint64(lines[i] - lines[i-1]))
	}
	packed := make([]byte, 0, n+1)
	packed = append(packed, 0) // never empty: nil means not packed
	for i := 1; i < len(lines); i++ {
		packed = binary.AppendUvarint(packed, uint64(lines[i]-lines[i-1]))
	}
	f.linesMu.Lock()
	f.packed = packed
	f.Tok.SetLines(nil)
	f.linesMu.Unlock()
}

func uvarintLen(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

// Lines returns f.Tok with its line table: a check that asks a position's
// line or a line's start (Line, LineStart, LineCount, Position) while the
// checks run calls it, not f.Tok, for a document's table may be packed.
func (f *File) Lines() *token.File {
	f.linesMu.Lock()
	defer f.linesMu.Unlock()
	if f.packed != nil {
		f.unpackLocked()
	}
	return f.Tok
}

func (f *File) unpackLocked() {
	p := f.packed[1:]
	n := 1
	for _, b := range p {
		if b < 0x80 {
			n++
		}
	}
	lines := make([]int, 1, n)
	for off := 0; len(p) > 0; {
		d, k := binary.Uvarint(p)
		p = p[k:]
		off += int(d)
		lines = append(lines, off)
	}
	if !f.Tok.SetLines(lines) {
		panic("sotparse: " + f.Path + ": a packed line table does not fit its file")
	}
	f.packed = nil
}

// UnpackLines gives every file its line table back: the findings are
// resolved to lines and columns from here on.
func (ws *Workspace) UnpackLines() {
	for _, f := range ws.Files {
		f.linesMu.Lock()
		if f.packed != nil {
			f.unpackLocked()
		}
		f.linesMu.Unlock()
	}
}
