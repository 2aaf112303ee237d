package sotparse

import (
	"fmt"
	"go/token"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRefsPacked holds what Refs unpack to: the references as added, in
// order, positions going back as well as forward (the parse adds a
// document's work ids before its paths), NoPos included, spans as long as
// their texts (End not packed) and not.
func TestRefsPacked(t *testing.T) {
	want := []Ref{
		{RefSource, "x.md", 900, 904},
		{RefWorkID, "CTO-WORK-1", 10, 20},
		{RefSOTPath, ".sot/a.md", 5000000, 5000009},
		{RefWorkID, "CTO-WORK-1", 30, 40},
		{RefCommit, "", token.NoPos, token.NoPos},
		{RefAbsPath, "/tmp/r", 41, 47},
		{RefSource, "y.md", 950, 952},        // a span shorter than its text
		{RefSOTPath, ".sot/b.md", 960, 1000}, // and longer
		{RefCommit, "abc1234", 1001, 1008},   // after one whose End was packed
	}
	b := (*modelSlabs)(nil).refsBuilder()
	for _, r := range want {
		b.add(r.Kind, r.Text, r.Pos, r.End)
	}
	rs := b.refs(nil)
	if rs.Len() != len(want) {
		t.Fatalf("Len = %d, want %d", rs.Len(), len(want))
	}
	for i, r := range rs.All() {
		if r != want[i] {
			t.Errorf("ref %d = %+v, want %+v", i, r, want[i])
		}
	}
	set := rs.TextSet(RefWorkID, "")
	if !set.Has("CTO-WORK-1") || set.Has(".sot/a.md") || set.Has("CTO-WORK-2") || len(set.ids) != 1 {
		t.Errorf("TextSet(RefWorkID) = %v", set.ids)
	}
	if (Refs{}).TextSet(RefWorkID, "").Has("CTO-WORK-1") {
		t.Error("empty Refs has a text")
	}
}

// TestRefsOf: Of yields the references of the kinds given, each with its
// index among all of them, as All does, and no other; with no kind, none.
func TestRefsOf(t *testing.T) {
	b := (*modelSlabs)(nil).refsBuilder()
	in := []Ref{
		{RefWorkID, "CTO-WORK-1", 10, 20},
		{RefSOTPath, ".sot/a.md", 30, 39},
		{RefSource, "y.md", 950, 952}, // a span shorter than its text
		{RefWorkID, "CTO-WORK-2", 960, 970},
		{RefSOTPath, ".sot/b.md", 980, 1000}, // and longer
		{RefAbsPath, "/tmp/r", 1001, 1007},
	}
	for _, r := range in {
		b.add(r.Kind, r.Text, r.Pos, r.End)
	}
	rs := b.refs(nil)
	for _, kinds := range [][]RefKind{{RefSOTPath}, {RefSource, RefSOTPath}, {RefWorkID}, {RefAbsPath}, {RefCommit}, nil} {
		var want, got []string
		for i, r := range rs.All() {
			if slices.Contains(kinds, r.Kind) {
				want = append(want, fmt.Sprint(i, r))
			}
		}
		for i, r := range rs.Of(kinds...) {
			got = append(got, fmt.Sprint(i, r))
		}
		if !slices.Equal(got, want) {
			t.Errorf("Of(%v) = %v, want %v", kinds, got, want)
		}
	}
	n := 0
	for range rs.Of(RefWorkID, RefSOTPath) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("Of went on after its loop broke")
	}
}

// TestRefsPackedIDDeltas: ids are packed as differences from the one
// before, so references to texts far into a large table, going back to an
// early text and forward again, read back as added; and a run of texts new
// to the table (a line of ids no other document names) packs in three
// bytes a reference (kind, difference, position), not the 5 of an id of
// over 2^14 packed whole (the first, a difference from 0, takes 3).
func TestRefsPackedIDDeltas(t *testing.T) {
	texts := NewTexts()
	for i := range 1<<14 + 10 {
		texts.ID(fmt.Sprintf("T-%d", i))
	}
	b := &refsBuilder{texts: texts}
	var want []Ref
	pos := token.Pos(1)
	add := func(text string) {
		r := Ref{RefWorkID, text, pos, pos + token.Pos(len(text))}
		want = append(want, r)
		b.add(r.Kind, r.Text, r.Pos, r.End)
		pos = r.End + 2
	}
	for i := range 100 {
		add(fmt.Sprintf("NEW-%07d", i))
	}
	if len(b.packed) > 3*100+2 {
		t.Errorf("100 references to new texts packed in %d bytes, want at most 302", len(b.packed))
	}
	add("T-0") // back to the first id
	add("NEW-0000050")
	add(fmt.Sprintf("T-%d", 1<<14+9))
	add("T-0")
	add("LAST")
	rs := b.refs(nil)
	if rs.Len() != len(want) {
		t.Fatalf("Len = %d, want %d", rs.Len(), len(want))
	}
	for i, r := range rs.All() {
		if r != want[i] {
			t.Errorf("ref %d = %+v, want %+v", i, r, want[i])
		}
	}
	i := 0
	rs.ids(func(kind RefKind, id TextID) bool {
		if got := texts.Text(id); kind != RefWorkID || got != want[i].Text {
			t.Errorf("ids: ref %d is %v %q, want %q", i, kind, got, want[i].Text)
		}
		i++
		return true
	})
	if i != len(want) {
		t.Errorf("ids yielded %d references, want %d", i, len(want))
	}
}

// TestRefCursor: At finds the id of a reference of its kind at a place
// with the text asked, asked in order; not one of another kind, another
// text, another table, nor a place it has passed.
func TestRefCursor(t *testing.T) {
	b := (*modelSlabs)(nil).refsBuilder()
	b.add(RefSource, "x.md", 5, 9)
	b.add(RefWorkID, "CTO-WORK-1", 10, 20)
	b.add(RefWorkID, "cto-work-2", 30, 40)
	b.add(RefWorkID, "CTO-WORK-3", 50, 60)
	b.add(RefSOTPath, ".sot/a.md", 70, 79)
	b.add(RefWorkID, "CTO-WORK-4", 80, 90)
	rs := b.refs(nil)
	texts := b.texts
	c := rs.Cursor(RefWorkID)
	if _, ok := c.At(texts, 5, "x.md"); ok {
		t.Error("found a source where it reads work ids")
	}
	if id, ok := c.At(texts, 10, "CTO-WORK-1"); !ok || texts.Text(id) != "CTO-WORK-1" {
		t.Errorf("At(10) = %d, %v", id, ok)
	}
	if _, ok := c.At(texts, 30, "CTO-WORK-2"); ok {
		t.Error("found CTO-WORK-2 where the text says cto-work-2")
	}
	if _, ok := c.At(NewTexts(), 50, "CTO-WORK-3"); ok {
		t.Error("found an id of another table")
	}
	if _, ok := c.At(texts, 45, "CTO-WORK-3"); ok {
		t.Error("found a reference at a place with none")
	}
	if id, ok := c.At(texts, 50, "CTO-WORK-3"); !ok || texts.Text(id) != "CTO-WORK-3" {
		t.Errorf("At(50) = %d, %v", id, ok)
	}
	if _, ok := c.At(texts, 10, "CTO-WORK-1"); ok {
		t.Error("found a reference the cursor has passed")
	}
	if id, ok := c.At(texts, 80, "CTO-WORK-4"); !ok || texts.Text(id) != "CTO-WORK-4" {
		t.Errorf("At(80) = %d, %v", id, ok)
	}
	if _, ok := c.At(texts, 95, "CTO-WORK-5"); ok {
		t.Error("found a reference past the last")
	}
}

// TestTextSetTrim: TextSet compares its texts less the suffix it trims,
// so a directory named with and without its slash is one text.
func TestTextSetTrim(t *testing.T) {
	b := (*modelSlabs)(nil).refsBuilder()
	b.add(RefSOTPath, ".sot/a/", 10, 17)
	b.add(RefSOTPath, ".sot/a", 20, 26)
	b.add(RefSOTPath, ".sot/b/", 30, 37)
	set := b.refs(nil).TextSet(RefSOTPath, "/")
	if !set.Has(".sot/a") || !set.Has(".sot/b") || set.Has(".sot/a/") || len(set.ids) != 2 {
		t.Errorf("TextSet(RefSOTPath, \"/\") holds %d ids; Has(.sot/a) %v, Has(.sot/b) %v, Has(.sot/a/) %v",
			len(set.ids), set.Has(".sot/a"), set.Has(".sot/b"), set.Has(".sot/a/"))
	}
}

// TestTextsAfterDropIndex: once a releasing parse lets the index go, a
// text given again gets its id back, a lookup finds it, and a new text
// gets the next id, also while other goroutines drop the index again.
func TestTextsAfterDropIndex(t *testing.T) {
	texts := NewTexts()
	lengths := []int{0, 1, 126, 127, 128, 129, 1022, 1023, 1024, 1025, 4096}
	var want []string
	for i := range 3000 {
		want = append(want, fmt.Sprintf("%d-", i)+strings.Repeat("é", lengths[i%len(lengths)]/2))
	}
	ids := make([]TextID, len(want))
	for i, s := range want {
		ids[i] = texts.ID(s)
	}
	n := texts.n
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := g; i < len(want); i += 4 {
				if i%50 == 0 {
					texts.DropIndex()
				}
				if id, ok := texts.Lookup(want[i]); !ok || id != ids[i] {
					t.Errorf("after DropIndex, Lookup(%.20q) = %d, %v, want %d", want[i], id, ok, ids[i])
				}
				if id := texts.ID(want[i]); id != ids[i] {
					t.Errorf("after DropIndex, ID(%.20q) = %d, want %d", want[i], id, ids[i])
				}
			}
		})
	}
	wg.Wait()
	texts.DropIndex()
	if id := texts.ID("a text never given"); id != TextID(n) {
		t.Errorf("a new text after DropIndex got id %d, want %d", id, n)
	}
}

// TestRefTextsConcurrent gives out ids from several goroutines, as the
// parse does, past the first blocks and the first full block of spans
// (textPlaceBlock groups of ids), where a block is added while others read: every
// text keeps its id and reads back as itself. Run under -race it also
// holds that reads need no lock.
func TestRefTextsConcurrent(t *testing.T) {
	texts := NewTexts()
	const n = textGroup*textPlaceBlock + 1001 // prime to 7: (i*7+g)%n visits every text
	ids := make([][n]TextID, 4)
	var wg sync.WaitGroup
	for g := range ids {
		wg.Go(func() {
			for i := range n {
				s := fmt.Sprintf("text-%d", (i*7+g)%n)
				id := texts.ID(s)
				if got := texts.Text(id); got != s {
					t.Errorf("text(%d) = %q, want %q", id, got, s)
					return
				}
				ids[g][(i*7+g)%n] = id
			}
		})
	}
	wg.Wait()
	for g := range ids {
		if ids[g] != ids[0] {
			t.Fatal("one text was given two ids")
		}
	}
	if texts.n != n {
		t.Errorf("%d ids for %d texts", texts.n, n)
	}
}

// TestTextsPlaces gives out ids for texts of every size a place encodes
// (empty, short, filling shared chunks past their boundaries, longer than
// a shared chunk takes) and reads each back, by id and by Lookup.
func TestTextsPlaces(t *testing.T) {
	texts := NewTexts()
	var want []string
	for i := range textGroup*textPlaceBlock + 5000 { // past the first block of places
		var s string
		switch {
		case i%7 == 0 && (i < 20000 || i > textGroup*textPlaceBlock):
			s = strings.Repeat(fmt.Sprintf("long-%d-", i), 1+textShared/6) // over textShared
		case i%7 == 1:
			s = strings.Repeat("x", textShared) // the longest shared
		default:
			s = fmt.Sprintf("CTO-WORK-%07d", i)
		}
		want = append(want, s)
	}
	want = append(want, "")
	ids := make([]TextID, len(want))
	for i, s := range want {
		if i%7 == 1 && i > 1 && s != "" {
			if id := texts.ID(s); id != ids[1] {
				t.Fatalf("at %d: a text given again got a new id %d, want %d; Text(%d) = %.60q", i, id, ids[1], ids[1], texts.Text(ids[1]))
			}
			ids[i] = ids[1]
			continue
		}
		ids[i] = texts.IDBytes([]byte(s))
	}
	for i, s := range want {
		if got := texts.Text(ids[i]); got != s {
			t.Fatalf("Text(%d) = %.40q, want %.40q", ids[i], got, s)
		}
		if id, ok := texts.Lookup(s); !ok || id != ids[i] {
			t.Fatalf("Lookup(%.40q) = %d, %v, want %d", s, id, ok, ids[i])
		}
	}
	if _, ok := texts.Lookup("CTO-WORK-absent"); ok {
		t.Error("Lookup found a text never given")
	}
}

// TestTextsPastFullChunks: once the shared chunks are full, a group's
// texts are held whole one after the other, and every text given before
// and after reads back, by id and by Lookup, the empty text and forward
// records among them.
func TestTextsPastFullChunks(t *testing.T) {
	defer func(n int) { maxTextChunks = n }(maxTextChunks)
	maxTextChunks = 3
	texts := NewTexts()
	var want []string
	for i := range 5000 {
		switch i % 5 {
		case 0:
			want = append(want, "")
		case 1:
			want = append(want, strings.Repeat("y", textShared+1+i%3))
		default:
			want = append(want, fmt.Sprintf("CTO-WORK-%07d", i))
		}
	}
	ids := make([]TextID, len(want))
	for i, s := range want {
		ids[i] = texts.ID(s)
	}
	if n := len(*texts.chunks.Load()); n != maxTextChunks {
		t.Fatalf("%d shared chunks, want the %d allowed", n, maxTextChunks)
	}
	for i, s := range want {
		if got := texts.Text(ids[i]); got != s {
			t.Fatalf("Text(%d) = %.40q, want %.40q", ids[i], got, s)
		}
		if id, ok := texts.Lookup(s); !ok || texts.Text(id) != s {
			t.Fatalf("Lookup(%.40q) = %d, %v", s, id, ok)
		}
	}
}

// TestTextsPlaceAGroup: a table of many short distinct texts keeps a place
// (4 bytes) for each group of textGroup of them, not for each.
func TestTextsPlaceAGroup(t *testing.T) {
	texts := NewTexts()
	const n = 3 * textPlaceBlock
	for i := range n {
		texts.ID(fmt.Sprintf("CTO-WORK-%07d", i))
	}
	places := 0
	for _, blk := range *texts.places.Load() {
		places += len(blk)
	}
	if places > n/textGroup+textPlaceBlock {
		t.Errorf("%d places for %d texts, want at most %d", places, n, n/textGroup+textPlaceBlock)
	}
}

// BenchmarkTextsDistinct gives ids to texts no other names (a workspace
// whose every reference is a text of its own), then to each again.
func BenchmarkTextsDistinct(b *testing.B) {
	names := make([]string, 200000)
	for i := range names {
		names[i] = fmt.Sprintf("CTO-WORK-%07d", i)
	}
	b.ReportAllocs()
	for b.Loop() {
		texts := NewTexts()
		for _, s := range names {
			texts.ID(s)
		}
		for _, s := range names {
			texts.ID(s)
		}
	}
}

// TestTextsFrontCoded gives out ids for texts that share their start with
// the one before them by every length around textFrontMin, some longer
// than textFrontMax or than textShared, some empty, and holds that each
// reads back (Text, Lookup, the index made again, eachLocked), and that
// equal, compare and a TextSet agree with the texts themselves.
func TestTextsFrontCoded(t *testing.T) {
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	alphabet := "abcdefgh/-.0123456789"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	texts := NewTexts()
	seen := map[string]bool{}
	var want []string
	prev := ""
	for len(want) < 20000 {
		var s string
		switch r := rng.IntN(20); {
		case r == 0:
			s = ""
		case r == 1:
			s = word(textFrontMax - 2 + rng.IntN(5)) // around the longest front-coded
		case r == 2:
			s = word(textShared + rng.IntN(3)) // held whole
		case r < 6:
			s = word(1 + rng.IntN(40))
		default: // the start of the one before, cut anywhere, and more
			cut := min(len(prev), textFrontMin-2+rng.IntN(textFrontMax))
			s = prev[:cut] + word(rng.IntN(12))
		}
		if seen[s] {
			continue
		}
		seen[s] = true
		want = append(want, s)
		prev = s
	}
	ids := make([]TextID, len(want))
	for i, s := range want {
		if i%3 == 0 {
			ids[i] = texts.IDBytes([]byte(s))
		} else {
			ids[i] = texts.ID(s)
		}
		if ids[i] != TextID(i) {
			t.Fatalf("seed %d: text %d got id %d", seed, i, ids[i])
		}
	}
	check := func(when string) {
		t.Helper()
		for i, s := range want {
			if got := texts.Text(ids[i]); got != s {
				t.Fatalf("seed %d, %s: Text(%d) = %.40q, want %.40q", seed, when, ids[i], got, s)
			}
			if id, ok := texts.Lookup(s); !ok || id != ids[i] {
				t.Fatalf("seed %d, %s: Lookup(%.40q) = %d, %v, want %d", seed, when, s, id, ok, ids[i])
			}
			if !texts.equal(ids[i], s) || texts.equal(ids[i], s+"x") || (s != "" && texts.equal(ids[i], s[:len(s)-1])) {
				t.Fatalf("seed %d, %s: equal(%d) disagrees with %.40q", seed, when, ids[i], s)
			}
			j := rng.IntN(len(want))
			if got, w := texts.compare(ids[i], ids[j], ""), strings.Compare(s, want[j]); got != w {
				t.Fatalf("seed %d, %s: compare(%.40q, %.40q) = %d, want %d", seed, when, s, want[j], got, w)
			}
		}
	}
	check("as given")
	texts.DropIndex()
	texts.mu.Lock()
	texts.indexLocked(indexSize(int(texts.n)))
	texts.mu.Unlock()
	check("the index made again")
	n := 0
	texts.mu.Lock()
	texts.eachLocked(func(id TextID, s []byte) {
		if id != TextID(n) || string(s) != want[n] {
			t.Errorf("seed %d: eachLocked gave %d %.40q, want %d %.40q", seed, id, s, n, want[n])
		}
		n++
	})
	texts.mu.Unlock()
	if n != len(want) {
		t.Errorf("seed %d: eachLocked gave %d texts, want %d", seed, n, len(want))
	}

	b := (*modelSlabs)(nil).refsBuilder()
	b.texts = texts
	for i, s := range want[:2000] {
		b.add(RefSOTPath, s, token.Pos(10*i+1), token.Pos(10*i+1+len(s)))
	}
	set := b.refs(nil).TextSet(RefSOTPath, "")
	sorted := slices.Clone(want[:2000])
	slices.Sort(sorted)
	for i, id := range set.ids {
		if got := texts.Text(id); got != sorted[i] {
			t.Fatalf("seed %d: TextSet's text %d is %.40q, want %.40q", seed, i, got, sorted[i])
		}
	}
	for _, s := range want[:2000] {
		if !set.Has(s) || set.Has(s+"\x00") {
			t.Fatalf("seed %d: TextSet.Has(%.40q) disagrees", seed, s)
		}
	}
}

// TestTextsFrontCodedSmaller: ids named one after the other, as a line
// of a document names them, take under half the bytes their texts do
// (a group's first text whole, 17 bytes, then ~3 bytes each: what
// differs, its length and the length of the start shared).
func TestTextsFrontCodedSmaller(t *testing.T) {
	texts := NewTexts()
	size := 0
	for i := range 100000 {
		s := fmt.Sprintf("CTO-WORK-%07d", 298800+i)
		texts.ID(s)
		size += len(s)
	}
	used := 0
	for _, c := range *texts.chunks.Load() {
		used += len(c)
	}
	used -= len(texts.free)
	if used > size/2 {
		t.Errorf("%d texts of %d bytes in all take %d bytes of records, want under half", 100000, size, used)
	}
}

// FuzzTexts gives out ids for the lines of the input, in order, and holds
// that every text reads back and compares as itself: front-coded records
// of any shared start, lengths around the limits, repeats.
func FuzzTexts(f *testing.F) {
	f.Add([]byte("CTO-WORK-0298800\nCTO-WORK-0298801\nCTO-WORK-02988\n\nCTO-WORK-0298801x\n"))
	f.Add([]byte(strings.Repeat("a", textFrontMax) + "\n" + strings.Repeat("a", textFrontMax+1) + "\n" + strings.Repeat("a", textFrontMax-1) + "b\n"))
	long := strings.Repeat("0123456789", textShared/10+2)
	f.Add([]byte(long + "\n" + long[:9] + "\n" + long[:9] + "x" + long[:200] + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		texts := NewTexts()
		lines := strings.Split(string(data), "\n")
		ids := make([]TextID, len(lines))
		for i, s := range lines {
			ids[i] = texts.ID(s)
		}
		for i, s := range lines {
			if got := texts.Text(ids[i]); got != s {
				t.Fatalf("Text(%d) = %q, want %q", ids[i], got, s)
			}
			if !texts.equal(ids[i], s) {
				t.Fatalf("equal(%d, %q) is false", ids[i], s)
			}
			j := (i * 7) % len(lines)
			if got, want := texts.compare(ids[i], ids[j], ""), strings.Compare(s, lines[j]); got != want {
				t.Fatalf("compare(%q, %q) = %d, want %d", s, lines[j], got, want)
			}
		}
	})
}
