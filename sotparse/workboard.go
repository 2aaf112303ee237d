package sotparse

import (
	"bytes"
	"fmt"
	"go/token"
	"sync/atomic"

	yaml "go.yaml.in/yaml/v4"
)

// Workboard is WORKBOARD.yaml: the register of work items.
type Workboard struct {
	File  *File
	Items []*WorkboardItem
	// Complete is false when part of the file could not be read (a syntax
	// error, a wrong shape, an exhausted node budget): checks that infer
	// absence from the workboard must then stay silent.
	Complete bool

	byID map[string]*WorkboardItem // first item of each id

	memo atomic.Pointer[memoTable] // what checks derived from it (MemoWorkboard)
}

// WorkboardItem is one entry of the workboard's items list.
type WorkboardItem struct {
	Pos, End  token.Pos // the item's mapping
	ID        *Field
	Title     *Field
	Status    *Field
	Source    *Field
	BlockedBy []*Field // one per listed id
	Unknown   []*Field
	Missing   []string // required keys that are absent
}

// Item returns the first item with the given id, or nil.
func (wb *Workboard) Item(id string) *WorkboardItem {
	if wb == nil {
		return nil
	}
	return wb.byID[id]
}

func (wb *Workboard) index() {
	wb.byID = make(map[string]*WorkboardItem, len(wb.Items))
	for _, it := range wb.Items {
		if it.ID != nil {
			if _, dup := wb.byID[it.ID.Value]; !dup {
				wb.byID[it.ID.Value] = it
			}
		}
	}
}

// nodeBudget bounds the nodes visited while walking a YAML tree, aliases
// included, so that an alias bomb costs a finding rather than the machine.
// Without aliases a node takes at least two bytes, so a budget of twice the
// size never stops an honest file.
func nodeBudget(size int) int { return 2*size + 1024 }

func parseWorkboard(f *File, report func(pos, end token.Pos, msg string)) *Workboard {
	return readWorkboard(f, report, true)
}

// readWorkboard is parseWorkboard, with loadWorkboardYAML tried before
// yaml.Load when fast is set.
func readWorkboard(f *File, report func(pos, end token.Pos, msg string), fast bool) *Workboard {
	wb := &Workboard{File: f}
	defer wb.index()
	content := f.Content
	base := 0
	if len(content) >= 3 && string(content[:3]) == string(bom) {
		base = 3
	}
	li := newLineIndex(content[base:], base)
	if blankYAML(content[base:]) {
		report(f.Pos(base), f.Pos(base), "workboard is empty: expected a mapping with an items list")
		return wb
	}
	r := &workboardReader{f: f, li: li, report: report, wb: wb, budget: nodeBudget(len(content))}
	var doc yaml.Node
	var streamed []heldReport // what the items handed over as they were read reported
	read := false
	if fast {
		// The items of the usual file are read as the loader reads them,
		// each from nodes it then reuses for the next; what they report
		// is held until the rest of the file is. The budget cannot run
		// out on a file of the subset: if it did, the file would be read
		// again with yaml.Load.
		r.report = func(pos, end token.Pos, msg string) { streamed = append(streamed, heldReport{pos, end, msg}) }
		read = loadWorkboardItems(content[base:], &doc, func(n *yaml.Node) bool {
			r.streamed = true
			return r.item(n) && r.budget >= 0
		})
		if !read {
			*wb = Workboard{File: f}
			r = &workboardReader{f: f, li: li, report: report, wb: wb, budget: nodeBudget(len(content))}
			streamed, doc = nil, yaml.Node{}
		}
		r.report = report
	}
	if !read {
		if err := yaml.Load(content[base:], &doc); err != nil {
			line, col, msg := yamlErrorPos(err)
			p := f.Pos(li.offset(line, col))
			report(p, p, "malformed YAML: "+msg)
			return wb
		}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		report(f.Pos(base), f.Pos(base), "workboard is empty: expected a mapping with an items list")
		return wb
	}
	root := deref(doc.Content[0])
	if root == nil || root.Kind != yaml.MappingNode {
		report(r.at(doc.Content[0]), r.at(doc.Content[0]), "workboard must be a mapping with an items list")
		return wb
	}
	var items *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], deref(root.Content[i+1])
		if k.Value == "items" {
			items = v
			continue
		}
		report(r.at(k), r.at(k)+token.Pos(len(k.Value)), fmt.Sprintf("unknown workboard key %q (want items)", k.Value))
	}
	if items == nil {
		report(r.at(root), r.at(root), "workboard has no items list")
		return wb
	}
	if items.Kind != yaml.SequenceNode {
		report(r.at(items), r.at(items), "workboard items must be a list")
		return wb
	}
	wb.Complete = true
	if r.streamed {
		// Read already, each of them a mapping within the budget: what
		// they reported comes now, as it would have from the loop below.
		for _, h := range streamed {
			report(h.pos, h.end, h.msg)
		}
		return wb
	}
	if len(items.Content) > 0 {
		wb.Items = make([]*WorkboardItem, 0, len(items.Content))
		r.slab = make([]WorkboardItem, 0, len(items.Content))
	}
	for _, n := range items.Content {
		if !r.item(n) {
			break
		}
	}
	return wb
}

// heldReport is a finding held back while a workboard is read.
type heldReport struct {
	pos, end token.Pos
	msg      string
}

// workboardReader reads the items of a workboard's tree into it.
type workboardReader struct {
	f      *File
	li     *lineIndex
	report func(pos, end token.Pos, msg string)
	wb     *Workboard
	budget int // of nodes to visit; see nodeBudget
	// Fields and items are cut from slabs: a workboard holds hundreds of
	// thousands of them, all alive as long as it is.
	fields   []Field
	slab     []WorkboardItem
	streamed bool // the items were handed over as the loader read them
}

func (r *workboardReader) at(n *yaml.Node) token.Pos {
	return r.f.Pos(r.li.offset(n.Line, n.Column))
}

func (r *workboardReader) newField() *Field {
	if len(r.fields) == cap(r.fields) {
		r.fields = make([]Field, 0, 256)
	}
	r.fields = r.fields[:len(r.fields)+1]
	return &r.fields[len(r.fields)-1]
}

func (r *workboardReader) newItem() *WorkboardItem {
	if len(r.slab) == cap(r.slab) {
		r.slab = make([]WorkboardItem, 0, 256)
	}
	r.slab = r.slab[:len(r.slab)+1]
	return &r.slab[len(r.slab)-1]
}

func (r *workboardReader) field(k, v *yaml.Node) *Field {
	off := r.li.offset(v.Line, v.Column)
	fl := r.newField()
	fl.Key, fl.KeyPos, fl.ValuePos, fl.ValueEnd = k.Value, r.at(k), r.f.Pos(off), r.f.Pos(r.li.lineEnd(off))
	if v.Kind == yaml.ScalarNode {
		fl.Scalar = true
		fl.Value = v.Value
		if v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 && v.Line == k.Line {
			fl.ValueEnd = fl.ValuePos + token.Pos(len(v.Value))
		}
	}
	return fl
}

// exhausted reports whether the budget ran out, reporting it the first
// time, at n.
func (r *workboardReader) exhausted(n *yaml.Node) bool {
	if r.budget >= 0 {
		return false
	}
	if r.wb.Complete {
		r.report(r.at(n), r.at(n), "workboard too aliased: stopped reading")
	}
	r.wb.Complete = false
	return true
}

func deref(n *yaml.Node) *yaml.Node {
	for hops := 0; n != nil && n.Kind == yaml.AliasNode && hops < 16; hops++ {
		n = n.Alias
	}
	return n
}

// item reads the item n into the workboard; it reports false when the
// budget ran out and no more items are to be read.
func (r *workboardReader) item(n *yaml.Node) bool {
	wb, f, report := r.wb, r.f, r.report
	if r.budget--; r.exhausted(n) {
		return false
	}
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		report(r.at(n), r.at(n), "workboard item must be a mapping")
		wb.Complete = false // an item was lost: absence proves nothing
		return true
	}
	it := r.newItem()
	it.Pos, it.End = r.at(n), r.at(n)
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		if r.budget -= 2; v == nil || r.exhausted(k) {
			break
		}
		if seen[k.Value] {
			report(r.at(k), r.at(k)+token.Pos(len(k.Value)), fmt.Sprintf("duplicate key %q in workboard item", k.Value))
			continue
		}
		seen[k.Value] = true
		fl := r.field(k, v)
		if fl.ValueEnd > it.End {
			it.End = fl.ValueEnd
		}
		switch k.Value {
		case "id", "title", "status", "source":
			if !fl.Scalar {
				report(fl.ValuePos, fl.ValueEnd, fmt.Sprintf("workboard %s must be a scalar", k.Value))
				continue
			}
			switch k.Value {
			case "id":
				it.ID = fl
			case "title":
				it.Title = fl
			case "status":
				it.Status = fl
			case "source":
				it.Source = fl
			}
		case "blocked_by":
			switch v.Kind {
			case yaml.SequenceNode:
				keyPos := r.at(k)
				for _, e := range v.Content {
					if r.budget--; r.exhausted(e) {
						break
					}
					e = deref(e)
					if e == nil || e.Kind != yaml.ScalarNode {
						report(r.at(n), r.at(n), "blocked_by entries must be work item ids")
						continue
					}
					off := r.li.offset(e.Line, e.Column)
					b := r.newField()
					b.Key, b.Value, b.Scalar, b.KeyPos, b.ValuePos, b.ValueEnd = "blocked_by", e.Value, true, keyPos, f.Pos(off), f.Pos(off+len(e.Value))
					it.BlockedBy = append(it.BlockedBy, b)
				}
			case yaml.ScalarNode:
				if v.Tag != "!!null" && v.Value != "" {
					report(fl.ValuePos, fl.ValueEnd, "blocked_by must be a list of work item ids")
				}
			default:
				report(fl.ValuePos, fl.ValueEnd, "blocked_by must be a list of work item ids")
			}
		default:
			it.Unknown = append(it.Unknown, fl)
		}
	}
	if r.budget < 0 {
		return false // a half-read item would only produce false findings
	}
	for _, req := range []struct {
		name string
		f    *Field
	}{{"id", it.ID}, {"title", it.Title}, {"status", it.Status}, {"source", it.Source}} {
		if req.f == nil {
			it.Missing = append(it.Missing, req.name)
		}
	}
	wb.Items = append(wb.Items, it)
	return true
}

// blankYAML reports whether b holds only blank and comment lines: an empty
// file, not one with content.
func blankYAML(b []byte) bool {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			return false
		}
	}
	return true
}
