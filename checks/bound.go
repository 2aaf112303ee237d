package checks

import (
	"cmp"
	"go/token"
	"slices"
	"strings"
	"sync"

	"github.com/svrnty/sotvet/sotparse"
)

// findingBound holds a run's findings up to the cap its caller applies
// (Result.Cap(Options.MaxPerFile, Options.MaxFindings)): a finding past
// the places that can give the findings the report keeps, in its order,
// is only counted, as Cap would count it. A
// run with a finding on every line then holds max findings and a small
// record of each other, not all of them in full.
//
// A place is a file and an offset: findings at one place may merge
// (mergeClusters), each place gives at least one, so the first max places
// (of each file, the first perFile) hold at least the findings the report
// keeps. Findings of a file
// that may hold a suppression are always held (one may be suppressed, and
// an unused suppression is a finding), as are those without a position.
type findingBound struct {
	max     int
	perFile int // the cap of one file's findings, 0 for none
	fset    *token.FileSet
	ws      *sotparse.Workspace
	text    *textIndex

	mu      sync.Mutex
	limited bool               // past is set: a place after it is counted, not held
	past    place              // the last place held
	byBase  map[int]*boundFile // by token.File base
	last    *boundFile         // the file of the last finding: the next is most often in it too
	counted []*boundFile       // the files with a finding counted
	nheld   int                // the held findings evict last left; it runs again at twice as many
	nplaces int                // likewise, the places settlePlaces last left
	cats    []string           // dropped findings' categories, by index
	catAt   map[string]uint16
	places  []place // the places of the findings held, noted
}

func newFindingBound(max, perFile int, fset *token.FileSet, text *textIndex) *findingBound {
	return &findingBound{max: max, perFile: perFile, fset: fset, text: text, byBase: map[int]*boundFile{}, catAt: map[string]uint16{}}
}

// boundFile is what the bound knows of a file findings are in.
type boundFile struct {
	base        int
	name        string
	ignoreKnown bool
	ignore      bool // it may hold a suppression: its findings are held
	// dropped are its findings counted, not held: by file, so that count
	// sorts each file's by offset, which arrive nearly in order, where one
	// sort of every file's compared millions.
	dropped []droppedFinding
}

// fileLocked returns the bound's record of tf; the caller holds b.mu.
func (b *findingBound) fileLocked(tf *token.File) *boundFile {
	if b.last != nil && b.last.base == tf.Base() {
		return b.last
	}
	f := b.byBase[tf.Base()]
	if f == nil {
		f = &boundFile{base: tf.Base(), name: tf.Name()}
		b.byBase[tf.Base()] = f
	}
	b.last = f
	return f
}

type place struct {
	file   string
	offset int
}

func comparePlaces(a, b place) int {
	if c := strings.Compare(a.file, b.file); c != 0 {
		return c
	}
	return cmp.Compare(a.offset, b.offset)
}

// droppedFinding is what the bound keeps of a finding it counts: enough
// to merge it with the others of its place.
type droppedFinding struct {
	offset int32
	check  uint16
	cat    uint16 // in categories
	sev    uint8  // Severity.Rank
}

// placeOfLocked returns where pos is, and whether the bound may count a
// finding there rather than hold it; content, when set, is the text of
// the document pos is in. The caller holds b.mu.
func (b *findingBound) placeOfLocked(pos token.Pos, content []byte) (place, *token.File, bool) {
	if !pos.IsValid() {
		return place{}, nil, false
	}
	tf := b.fset.File(pos)
	if tf == nil {
		return place{}, nil, false
	}
	bf := b.fileLocked(tf)
	if !bf.ignoreKnown {
		var ig bool
		switch {
		case content != nil && pos <= token.Pos(tf.Base()+len(content)):
			ig = holdsIgnore(content)
		case b.ws == nil:
			return place{}, nil, false // not known yet: held
		default:
			ig = b.text.mayIgnoreIn(b.ws, tf.Name())
		}
		bf.ignore, bf.ignoreKnown = ig, true
	}
	return place{tf.Name(), int(pos) - tf.Base()}, tf, !bf.ignore
}

// note records a place a finding held is at; the caller holds b.mu.
func (b *findingBound) note(p place) {
	b.places = append(b.places, p)
	if len(b.places) >= max(2*b.max, 2*b.nplaces) {
		b.settlePlaces()
	}
}

// settlePlaces finds the places that can give the findings the report
// keeps, and forgets the others; the caller holds b.mu. It runs when the
// places noted double, so that a run pays for it in proportion.
func (b *findingBound) settlePlaces() {
	places := b.places
	slices.SortFunc(places, comparePlaces)
	places = slices.CompactFunc(places, func(a, c place) bool { return comparePlaces(a, c) == 0 })
	// The report keeps the first perFile findings of each file, and max
	// in all: the places that can give them end where max is reached.
	n, inFile := 0, 0
	for i, p := range places {
		if i == 0 || p.file != places[i-1].file {
			inFile = 0
		}
		if inFile++; b.perFile > 0 && inFile > b.perFile {
			continue
		}
		if n++; n == b.max && i < len(places)-1 {
			b.past, b.limited = p, true
			clear(places[i+1:])
			places = places[:i+1]
			break
		}
	}
	b.places, b.nplaces = places, len(places)
}

// over reports whether a finding at p, which may be counted, is past the
// places held; the caller holds b.mu.
func (b *findingBound) over(p place) bool {
	return b.limited && comparePlaces(p, b.past) > 0
}

// drop counts a finding at p; the caller holds b.mu.
func (b *findingBound) drop(tf *token.File, p place, check uint16, cat uint16, sev Severity) {
	if sev == SeverityOff {
		return // dropped by the run too, and counted nowhere
	}
	bf := b.fileLocked(tf)
	if bf.dropped == nil {
		b.counted = append(b.counted, bf)
	}
	bf.dropped = append(bf.dropped, droppedFinding{offset: int32(p.offset), check: check, cat: cat, sev: uint8(sev.Rank())})
}

// category returns the index of cat among the categories of dropped
// findings; the caller holds b.mu.
func (b *findingBound) category(cat string) (uint16, bool) {
	if i, ok := b.catAt[cat]; ok {
		return i, true
	}
	if len(b.cats) >= 1<<16 {
		return 0, false
	}
	b.catAt[cat] = uint16(len(b.cats))
	b.cats = append(b.cats, cat)
	return uint16(len(b.cats) - 1), true
}

// evict counts the held findings past the places the report can show
// and returns the others; the caller holds b.mu. It runs when the held
// findings double, and at the end.
func (b *findingBound) evict(held []heldFinding, sevOf func(check uint16, cat string) Severity) []heldFinding {
	if !b.limited {
		return held
	}
	kept := held[:0]
	for i := range held {
		d := held[i].diagnostic()
		if p, tf, ok := b.placeOfLocked(d.Pos, nil); ok && b.over(p) {
			if cat, ok := b.category(d.Category); ok {
				b.drop(tf, p, held[i].check, cat, sevOf(held[i].check, d.Category))
				continue
			}
		}
		kept = append(kept, held[i])
	}
	clear(held[len(kept):])
	return kept
}

// count adds the findings the bound counted to o, each place's merged as
// mergeClusters merges them: a place's findings are either all held or
// all counted.
func (b *findingBound) count(o *Omitted, name func(check uint16) string, code func(check uint16, cat string) string) {
	files := b.counted
	// Files of one name are merged, then sorted by offset: no stable sort.
	slices.SortFunc(files, func(x, y *boundFile) int { return strings.Compare(x.name, y.name) })
	// Counted by check and severity (check*4 + Severity.Rank), and added
	// once per file: a file may hold hundreds of thousands.
	var counts []int
	tally := func(check uint16, sev uint8) {
		k := int(check)*4 + int(sev)
		if k >= len(counts) {
			counts = append(counts, make([]int, k+1-len(counts))...)
		}
		counts[k]++
	}
	for i := 0; i < len(files); {
		// A path reached twice is two token.Files of one name: one group.
		j := i + 1
		ds := files[i].dropped
		for ; j < len(files) && files[j].name == files[i].name; j++ {
			ds = append(ds, files[j].dropped...)
		}
		slices.SortFunc(ds, func(x, y droppedFinding) int { return cmp.Compare(x.offset, y.offset) })
		for k := 0; k < len(ds); {
			m := k + 1
			for m < len(ds) && ds[m].offset == ds[k].offset {
				m++
			}
			group := ds[k:m]
			if len(group) == 1 || !droppedAbsorbs(group, name) {
				// nothing to fold into: each stays (foldInto compares
				// every pair, and a place may hold thousands)
				for _, d := range group {
					tally(d.check, d.sev)
				}
			} else {
				into := foldInto(len(group), func(n int) string { return code(group[n].check, b.cats[group[n].cat]) }, func(n int) int { return int(group[n].sev) })
				for n := range group {
					if stays(into, n) {
						tally(group[n].check, group[n].sev)
					}
				}
			}
			k = m
		}
		for k, n := range counts {
			if n > 0 {
				o.Add(name(uint16(k/4)), files[i].name, severityOfRank(k%4), n)
				counts[k] = 0
			}
		}
		for ; i < j; i++ {
			files[i].dropped = nil
		}
	}
	b.counted = nil
}

// droppedAbsorbs is anyAbsorbs for counted findings.
func droppedAbsorbs(group []droppedFinding, name func(check uint16) string) bool {
	for _, d := range group {
		if absorberChecks[name(d.check)] {
			return true
		}
	}
	return false
}

func severityOfRank(r int) Severity {
	for _, s := range []Severity{SeverityError, SeverityWarning, SeverityNote} {
		if s.Rank() == r {
			return s
		}
	}
	return SeverityOff
}
