package sotparse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"slices"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/adrg/frontmatter"
	yaml "go.yaml.in/yaml/v4"
)

// FrontmatterState says whether a document has a usable frontmatter block.
type FrontmatterState int

const (
	FrontmatterAbsent    FrontmatterState = iota // no leading --- line
	FrontmatterOK                                // closed and parsed
	FrontmatterUnclosed                          // opening --- without a closing one
	FrontmatterMalformed                         // closed, but not a YAML mapping of scalars
)

// Field is one frontmatter key and its value.
type Field struct {
	Key       string
	Value     string // scalar value; "" for a non-scalar
	Scalar    bool   // false for sequences, mappings and unresolved aliases
	Duplicate bool   // a later occurrence of a key already seen
	KeyPos    token.Pos
	ValuePos  token.Pos
	ValueEnd  token.Pos
}

// Date parses the value as an ISO calendar date (YYYY-MM-DD).
func (f *Field) Date() (time.Time, error) {
	return time.Parse(time.DateOnly, f.Value)
}

// Frontmatter is a document's YAML header, typed. Known keys have their own
// members (nil when absent); every key, known or not, is also in Fields, in
// file order, and unknown keys are in Unknown. A run that lets each
// document's text go once its DocChecks have read it keeps, after that,
// only the unknown fields some DocCheck.KeepsField keeps: a check that
// reads an unknown key after the parse must say so there.
type Frontmatter struct {
	Pos, End token.Pos // from the opening --- to the end of the closing ---
	Close    token.Pos // start of the closing --- line

	Name, Title, Tier, Status, Owner, Source, Created, LastReviewed  *Field
	LifecycleClassification, CorePromotionStatus, Description, Route *Field

	Fields  []*Field
	Unknown []*Field
}

// KnownKeys are the frontmatter keys the workspace convention defines.
var KnownKeys = []string{
	"name", "title", "tier", "status", "owner", "source", "created",
	"last_reviewed", "lifecycle_classification", "core_promotion_status",
	"description", "route",
}

func (fm *Frontmatter) slot(key string) **Field {
	switch key {
	case "name":
		return &fm.Name
	case "title":
		return &fm.Title
	case "tier":
		return &fm.Tier
	case "status":
		return &fm.Status
	case "owner":
		return &fm.Owner
	case "source":
		return &fm.Source
	case "created":
		return &fm.Created
	case "last_reviewed":
		return &fm.LastReviewed
	case "lifecycle_classification":
		return &fm.LifecycleClassification
	case "core_promotion_status":
		return &fm.CorePromotionStatus
	case "description":
		return &fm.Description
	case "route":
		return &fm.Route
	}
	return nil
}

// Get returns the first field with the given key, or nil.
func (fm *Frontmatter) Get(key string) *Field {
	if fm == nil {
		return nil
	}
	for _, f := range fm.Fields {
		if f.Key == key {
			return f
		}
	}
	return nil
}

// split is the result of SplitFrontmatter: byte offsets into the content.
type split struct {
	State     FrontmatterState
	Open      int // offset of the opening --- line (-1 if absent)
	YAMLStart int // first byte of the YAML text
	YAMLEnd   int // offset of the closing --- line
	BodyStart int // first byte after the closing line
	// A closed block in scanFlatYAML's subset is in Flat, which is all
	// typedFrontmatter needs; any other closed block is in Node.
	Node *yaml.Node
	Flat []flatEntry
	Err  error // YAML syntax error, positioned relative to YAMLStart
}

var errNotMapping = errors.New("frontmatter is not a YAML mapping")

// SplitFrontmatter finds the frontmatter block of content (which must not
// start with a BOM: callers strip it) as adrg/frontmatter does with one
// explicit `---` YAML format decoding into a yaml.Node with yaml.Load. A
// closed block in scanFlatYAML's subset is read as its entries, without
// either; adrg/frontmatter and yaml.Load read every other one. An opening
// line without a closing one is reported as FrontmatterUnclosed, which
// adrg/frontmatter cannot tell from "no frontmatter".
func SplitFrontmatter(content []byte) split {
	return splitFrontmatter(content, true, nil)
}

// splitFrontmatter is SplitFrontmatter, with the flat subset read as
// entries (appended to entries[:0]) when flat is set, and every block
// handed to adrg/frontmatter and yaml.Load when not.
func splitFrontmatter(content []byte, flat bool, entries []flatEntry) split {
	s := split{State: FrontmatterAbsent, Open: -1}
	// adrg/frontmatter skips leading blank lines and compares trimmed lines.
	off := 0
	for off < len(content) {
		nl := bytes.IndexByte(content[off:], '\n')
		line := content[off:]
		if nl >= 0 {
			line = content[off : off+nl]
		}
		if len(bytes.TrimSpace(line)) != 0 {
			if string(bytes.TrimSpace(line)) != "---" {
				s.BodyStart = 0
				return s
			}
			s.Open = off
			if nl < 0 {
				s.YAMLStart = len(content)
			} else {
				s.YAMLStart = off + nl + 1
			}
			break
		}
		if nl < 0 {
			break
		}
		off += nl + 1
	}
	if s.Open < 0 {
		return s
	}
	// adrg/frontmatter closes the block at the first line after the
	// opening one that trims to ---, the last line of content included
	// (without its \n), and hands the text before that line to the
	// format's decoder; the rest after it is the body. It is the same
	// search, line by line as its bufio.Reader returns them.
	end, closing := len(content), -1
	for off := s.YAMLStart; off < len(content); {
		lineEnd := len(content)
		if nl := bytes.IndexByte(content[off:], '\n'); nl >= 0 {
			lineEnd = off + nl + 1
		}
		if string(bytes.TrimSpace(content[off:lineEnd])) == "---" {
			end, closing = lineEnd, off
			break
		}
		off = lineEnd
	}
	if flat && closing >= 0 {
		// The usual flat block: what yaml.Load would build of it,
		// without adrg/frontmatter's copies of every line or the tree.
		if e, ok := scanFlatYAML(content[s.YAMLStart:closing], entries[:0]); ok {
			s.State, s.YAMLEnd, s.BodyStart, s.Flat = FrontmatterOK, closing, end, e
			return s
		}
	}
	// adrg/frontmatter copies all it reads after the block into a buffer
	// of its own: the whole body, a seventh of a large workspace's
	// allocations. It is given the block alone, up to the end of the line
	// it will close the block at, which changes nothing it decides.
	var yamlText []byte
	format := frontmatter.NewFormat("---", "---", func(data []byte, v any) error {
		yamlText = data
		if blankYAML(data) {
			return nil // an empty block: the checks report the missing keys
		}
		return yaml.Load(data, v.(*yaml.Node))
	})
	var node yaml.Node
	// adrg/frontmatter wraps its reader in a 4 KB bufio.Reader, unless it
	// is one already: a pooled one saves 4 KB of garbage per document. It
	// copies every line it reads, so nothing it returns points into it.
	br := readerPool.Get().(*bufio.Reader)
	br.Reset(bytes.NewReader(content[:end]))
	rest, err := frontmatter.Parse(br, &node, format)
	br.Reset(nil)
	readerPool.Put(br)
	if err != nil {
		s.State = FrontmatterMalformed
		s.Err = err
		s.YAMLEnd = s.YAMLStart + len(yamlText)
		s.BodyStart = closingEnd(content, s.YAMLEnd)
		return s
	}
	if yamlText == nil {
		s.State = FrontmatterUnclosed
		s.YAMLEnd = len(content)
		s.BodyStart = s.YAMLStart
		return s
	}
	s.YAMLEnd = s.YAMLStart + len(yamlText)
	s.BodyStart = end - len(rest)
	s.Node = &node
	s.State = FrontmatterOK
	return s
}

// readerPool holds the bufio.Readers SplitFrontmatter lends adrg/frontmatter.
var readerPool = sync.Pool{New: func() any { return bufio.NewReader(nil) }}

func closingEnd(content []byte, at int) int {
	if at >= len(content) {
		return len(content)
	}
	nl := bytes.IndexByte(content[at:], '\n')
	if nl < 0 {
		return len(content)
	}
	return at + nl + 1
}

// lineIndex maps YAML (line, column) marks, where columns count code points,
// to byte offsets of a text that starts at base in the file.
type lineIndex struct {
	text   []byte
	base   int
	starts []int
	// wide has a bit for each line with a byte outside ASCII, whose
	// columns are counted by decoding; on the others a column is a byte.
	wide []uint64
	// the furthest mark resolved on a wide line: the items of a flow
	// sequence come in order along one line, and counting each from the
	// line's start cost the square of the line's length. A mark before it
	// (the key of an entry, read again) is counted from the line's start
	// and leaves it where it was.
	curLine, curCol, curOff int
}

func newLineIndex(text []byte, base int) *lineIndex {
	li := &lineIndex{text: text, base: base, starts: []int{0}}
	for i, c := range text {
		switch {
		case c == '\n':
			li.starts = append(li.starts, i+1)
		case c >= utf8.RuneSelf:
			line := len(li.starts)
			for len(li.wide) <= line/64 {
				li.wide = append(li.wide, 0)
			}
			li.wide[line/64] |= 1 << (line % 64)
		}
	}
	return li
}

func (li *lineIndex) isWide(line int) bool {
	return line/64 < len(li.wide) && li.wide[line/64]&(1<<(line%64)) != 0
}

// offset returns the file offset of a 1-based YAML line and code-point column.
func (li *lineIndex) offset(line, col int) int {
	if line < 1 {
		return li.base
	}
	if line > len(li.starts) {
		return li.base + len(li.text)
	}
	off, c := li.starts[line-1], 1
	if !li.isWide(line) {
		end := len(li.text)
		if line < len(li.starts) {
			end = li.starts[line] - 1
		}
		return li.base + min(off+max(col-1, 0), end)
	}
	forward := li.curLine != line || li.curCol <= col
	if forward && li.curLine == line {
		off, c = li.curOff, li.curCol
	}
	for ; c < col && off < len(li.text) && li.text[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(li.text[off:])
		off += size
	}
	if forward {
		li.curLine, li.curCol, li.curOff = line, c, off
	}
	return li.base + off
}

// lineEnd returns the file offset of the end of the line holding file offset
// off, before any trailing CR and spaces.
func (li *lineIndex) lineEnd(off int) int {
	i := off - li.base
	if i < 0 {
		i = 0
	}
	for i < len(li.text) && li.text[i] != '\n' {
		i++
	}
	for i > off-li.base && (li.text[i-1] == '\r' || li.text[i-1] == ' ' || li.text[i-1] == '\t') {
		i--
	}
	return li.base + i
}

// yamlErrorPos extracts a position from a go-yaml error.
func yamlErrorPos(err error) (line, col int, msg string) {
	var le *yaml.LoadError
	if errors.As(err, &le) {
		return le.Mark.Line, le.Mark.Column, le.Message
	}
	return 0, 0, err.Error()
}

// typedFrontmatter loads the frontmatter node into a Frontmatter, reporting
// duplicate keys, non-scalar values and a non-mapping root.
func typedFrontmatter(f *File, s split, report func(pos, end token.Pos, msg string), slabs *modelSlabs) *Frontmatter {
	if s.Flat != nil {
		return typedFlatFrontmatter(f, s, report, slabs)
	}
	li := newLineIndex(f.Content[s.YAMLStart:s.YAMLEnd], s.YAMLStart)
	fm := slabs.frontmatter()
	fm.Pos, fm.End, fm.Close = f.Pos(s.Open), f.Pos(trimEOL(f.Content, s.BodyStart)), f.Pos(s.YAMLEnd)
	root := s.Node
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return fm // empty block: the checks report the missing keys
		}
		root = root.Content[0]
	}
	if root.Kind == 0 {
		return fm
	}
	if root.Kind != yaml.MappingNode {
		p := f.Pos(li.offset(root.Line, root.Column))
		report(p, p, errNotMapping.Error())
		return fm
	}
	// A large workspace keeps every document's frontmatter for the
	// checks: its fields are in one allocation, and so are their values,
	// copied off the parser's buffers (below), which the model would
	// otherwise keep whole; keys are the known keys' strings, or copies.
	fields := make([]Field, 0, len(root.Content)/2)
	fm.Fields = make([]*Field, 0, len(root.Content)/2)
	var seen map[string]bool // the keys of fm.Fields, when they are many
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		kOff := li.offset(k.Line, k.Column)
		vOff := li.offset(v.Line, v.Column)
		fields = append(fields, Field{Key: knownKey(k.Value, slabs), KeyPos: f.Pos(kOff), ValuePos: f.Pos(vOff), ValueEnd: f.Pos(li.lineEnd(vOff))})
		fld := &fields[len(fields)-1]
		if k.Kind != yaml.ScalarNode {
			report(fld.KeyPos, fld.KeyPos, "frontmatter key is not a scalar")
			continue
		}
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			v = v.Alias // one hop only: never expand collections, so no alias bomb
		}
		if v.Kind == yaml.ScalarNode {
			fld.Scalar = true
			fld.Value = v.Value // the parser's until copied below
			if v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
				fld.ValuePos++ // point at the value, not its opening quote
			}
		} else {
			report(fld.ValuePos, fld.ValueEnd, fmt.Sprintf("frontmatter key %q must have a scalar value", k.Value))
		}
		if seenKey(fm.Fields, &seen, k.Value) {
			fld.Duplicate = true
			report(fld.KeyPos, f.Pos(kOff+len(k.Value)), fmt.Sprintf("duplicate frontmatter key %q", k.Value))
		}
		fm.Fields = append(fm.Fields, fld)
		if slot := fm.slot(k.Value); slot != nil {
			if *slot == nil {
				*slot = fld
			}
		} else {
			fm.Unknown = append(fm.Unknown, fld)
		}
	}
	copyValues(fields, slabs)
	return fm
}

// typedFlatFrontmatter is typedFrontmatter for a block read as flat
// entries: the Frontmatter, and the reports, typedFrontmatter makes of the
// tree yaml.Load builds of it. The tree's scalars are the entries', every
// one a scalar; its keys' and values' marks are the entries' lines and
// columns, and everything before a value on its line is ASCII, so a mark
// is the line's start plus its column.
func typedFlatFrontmatter(f *File, s split, report func(pos, end token.Pos, msg string), slabs *modelSlabs) *Frontmatter {
	data := f.Content[s.YAMLStart:s.YAMLEnd]
	text := unsafe.String(unsafe.SliceData(data), len(data)) // values are copied below, keys by knownKey
	li := lineIndex{text: data, base: s.YAMLStart}           // for lineEnd, which needs no line starts
	fm := slabs.frontmatter()
	fm.Pos, fm.End, fm.Close = f.Pos(s.Open), f.Pos(trimEOL(f.Content, s.BodyStart)), f.Pos(s.YAMLEnd)
	fields := make([]Field, 0, len(s.Flat))
	fm.Fields = make([]*Field, 0, len(s.Flat))
	var seen map[string]bool // the keys of fm.Fields, when they are many
	for i := range s.Flat {
		e := &s.Flat[i]
		kOff := s.YAMLStart + e.keyStart // column 1
		vOff := kOff + e.valCol - 1
		key := text[e.keyStart:e.keyEnd]
		fields = append(fields, Field{Key: knownKey(key, slabs), Value: text[e.valStart:e.valEnd], Scalar: true,
			KeyPos: f.Pos(kOff), ValuePos: f.Pos(vOff), ValueEnd: f.Pos(li.lineEnd(vOff))})
		fld := &fields[len(fields)-1]
		if e.style != 0 {
			fld.ValuePos++ // point at the value, not its opening quote
		}
		if seenKey(fm.Fields, &seen, fld.Key) {
			fld.Duplicate = true
			report(fld.KeyPos, f.Pos(kOff+len(key)), fmt.Sprintf("duplicate frontmatter key %q", key))
		}
		fm.Fields = append(fm.Fields, fld)
		if slot := fm.slot(fld.Key); slot != nil {
			if *slot == nil {
				*slot = fld
			}
		} else {
			fm.Unknown = append(fm.Unknown, fld)
		}
	}
	copyValues(fields, slabs)
	return fm
}

// seenKey reports whether key is the key of one of fields, and notes it in
// *seen once they are too many to look through.
func seenKey(fields []*Field, seen *map[string]bool, key string) bool {
	const many = 16
	if *seen == nil {
		for _, f := range fields {
			if f.Key == key {
				return true
			}
		}
		if len(fields) < many {
			return false
		}
		*seen = make(map[string]bool, 2*many)
		for _, f := range fields {
			(*seen)[f.Key] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}

// copyValues gives the values of fields strings of their own, which
// documents share where they say the same (intern): a tier, a status, an
// owner, a date, a source are said alike by many. The values of unknown
// keys, which few checks read once the parse is done, are copied apart
// (internLoose), to go with their fields (Workspace.keepFields).
func copyValues(fields []Field, slabs *modelSlabs) {
	for i := range fields {
		v := fields[i].Value
		switch b := unsafe.Slice(unsafe.StringData(v), len(v)); {
		case v == "":
		case slices.Contains(KnownKeys, fields[i].Key):
			fields[i].Value = slabs.intern(b)
		default:
			fields[i].Value = slabs.internLoose(b)
		}
	}
}

// knownKey returns key, as the string of KnownKeys when it is one, else
// interned: the documents of a workspace repeat their other keys too.
func knownKey(key string, slabs *modelSlabs) string {
	for _, k := range KnownKeys {
		if k == key {
			return k
		}
	}
	return slabs.intern(unsafe.Slice(unsafe.StringData(key), len(key)))
}

func trimEOL(b []byte, end int) int {
	for end > 0 && (b[end-1] == '\n' || b[end-1] == '\r') {
		end--
	}
	return end
}
