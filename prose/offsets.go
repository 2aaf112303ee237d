package prose

import "sort"

// Offsets maps each byte of a block's text to its offset in the file. A
// block's text is a few runs of source copied whole, so it is kept as runs
// rather than one int per byte: a corpus's blocks would otherwise cost
// eight bytes of map per byte of prose.
type Offsets struct {
	runs []offRun
	from int // the first byte of the text this view maps
	n    int
}

// offRun maps the text from byte at on: to src, src+1, … or, when fixed,
// every byte to src (text markdown made up, placed at one source byte).
type offRun struct {
	at, src int
	fixed   bool
}

// Len is the number of bytes mapped.
func (o Offsets) Len() int { return o.n }

// At returns the file offset of byte i of the text.
func (o Offsets) At(i int) int {
	t := o.from + i
	k := sort.Search(len(o.runs), func(k int) bool { return o.runs[k].at > t }) - 1
	r := o.runs[k]
	if r.fixed {
		return r.src
	}
	return r.src + t - r.at
}

// Slice returns the map of bytes [i, j) of the text.
func (o Offsets) Slice(i, j int) Offsets {
	return Offsets{runs: o.runs, from: o.from + i, n: j - i}
}

// identity maps n bytes starting at file offset start.
func identity(start, n int) Offsets {
	return Offsets{runs: []offRun{{at: 0, src: start}}, n: n}
}

// offsetsBuilder builds an Offsets byte run by byte run.
type offsetsBuilder struct {
	runs []offRun
	n    int
	last int // the file offset of the last byte added
}

// add maps the next n bytes to src, src+1, …
func (b *offsetsBuilder) add(src, n int) {
	if n == 0 {
		return
	}
	if k := len(b.runs) - 1; k < 0 || b.runs[k].fixed || b.runs[k].src+b.n-b.runs[k].at != src {
		b.runs = append(b.runs, offRun{at: b.n, src: src})
	}
	b.n += n
	b.last = src + n - 1
}

// addFixed maps the next n bytes all to src.
func (b *offsetsBuilder) addFixed(src, n int) {
	if n == 0 {
		return
	}
	b.runs = append(b.runs, offRun{at: b.n, src: src, fixed: true})
	b.n += n
	b.last = src
}

func (b *offsetsBuilder) offsets() Offsets { return Offsets{runs: b.runs, n: b.n} }
