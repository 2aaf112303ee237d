package secrets

import (
	"bytes"
	"math"
	"math/rand"
	"testing"
)

// TestEntropySame: Entropy gives, to the bit, what the walk over all 256
// counts gave (the rules compare it with thresholds).
func TestEntropySame(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for range 5000 {
		b := make([]byte, rng.Intn(200))
		span := 1 + rng.Intn(256)
		for i := range b {
			b[i] = byte(rng.Intn(span))
		}
		if got, want := Entropy(b), entropyDirect(b); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Entropy(%q) = %v, the walk gives %v", b, got, want)
		}
	}
}

// TestPlaceholderWordsSame: the indexed search finds a placeholder word
// exactly where a search for each word does.
func TestPlaceholderWordsSame(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	const alpha = "abcdehmnoprstuxy_-"
	for range 20000 {
		b := make([]byte, rng.Intn(40))
		for i := range b {
			b[i] = alpha[rng.Intn(len(alpha))]
		}
		if rng.Intn(4) == 0 {
			w := placeholderWords[rng.Intn(len(placeholderWords))]
			k := rng.Intn(len(b) + 1)
			b = append(b[:k:k], append([]byte(w[:1+rng.Intn(len(w))]), b[k:]...)...)
		}
		want := false
		for _, w := range placeholderWords {
			want = want || bytes.Contains(b, []byte(w))
		}
		if got := holdsPlaceholderWord(b); got != want {
			t.Fatalf("%q: indexed %v, each word %v", b, got, want)
		}
	}
}

// TestMadeUpSequenceSame: the one pass over the three kinds of runs, with
// its bitset, answers what a pass per kind with a byte per mark did
// (madeUpSequenceByKind), on values short and long (a PEM block's, past the stack's 1 KB).
func TestMadeUpSequenceSame(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	const alpha = "abcdefghijklmnopqrstuvwxyz0123456789-_/+="
	// run appends n bytes from c on, each step bytes after the one before
	// (a run up, down or repeated), or n/2 letter and digit pairs each
	// counting up when pairs is set.
	run := func(b []byte, c byte, n, step int, pairs bool) []byte {
		d := byte('0' + rng.Intn(10))
		if pairs {
			for k := range n / 2 {
				b = append(b, c+byte(k), d+byte(k))
			}
			return b
		}
		for k := range n {
			b = append(b, byte(int(c)+k*step))
		}
		return b
	}
	var long [2]int // the answers on values past 1 KB: false, true
	for range 20000 {
		size := rng.Intn(40)
		if rng.Intn(40) == 0 {
			size = 1024 + rng.Intn(2000) // past the stack's 1 KB
		}
		var b []byte
		if size > 1024 {
			// Runs of four to seven repeated bytes (marked, but short of
			// the eight that decide alone) between fillers: about half
			// the value is covered, all along it, so the bitset's count
			// decides.
			for len(b) < size {
				b = run(b, "abcdefghijklmnop"[rng.Intn(16)], 4+rng.Intn(4), 0, false)
				for range 3 + rng.Intn(6) {
					b = append(b, alpha[rng.Intn(len(alpha))])
				}
			}
		}
		for len(b) < size {
			switch rng.Intn(4) {
			case 0:
				b = run(b, "abcdefghijklmnop"[rng.Intn(16)], 2+rng.Intn(9), rng.Intn(3)-1, false)
			case 1:
				b = run(b, "987654"[rng.Intn(6)], 2+rng.Intn(4), -1, false)
			case 2:
				b = run(b, "abcdef"[rng.Intn(6)], 1+rng.Intn(4), 0, true)
			default:
				for range 1 + rng.Intn(6) {
					b = append(b, alpha[rng.Intn(len(alpha))])
				}
			}
		}
		got, want := madeUpSequence(b), madeUpSequenceByKind(b)
		if got != want {
			t.Fatalf("%q: madeUpSequence %v, by kind %v", b, got, want)
		}
		if len(b) > 1024 {
			long[b2i(want)]++
		}
	}
	if long[0] == 0 || long[1] == 0 {
		t.Fatalf("values past 1 KB answered false %d and true %d times: the bitset's count decided none of one side", long[0], long[1])
	}
}

// madeUpSequenceByKind is madeUpSequence as it was written first: a pass
// per kind of run, a bool per byte covered.
func madeUpSequenceByKind(l []byte) bool {
	if len(l) < 8 {
		return false
	}
	covered := make([]bool, len(l))
	mark := func(from, to int) {
		for k := from; k < to; k++ {
			covered[k] = true
		}
	}
	for _, step := range []int{1, -1, 0} {
		start := 0
		for i := 1; i <= len(l); i++ {
			if i < len(l) {
				a, b := l[i-1], l[i]
				ok := isAlnumLower(a) && isAlnumLower(b) && isDigitByte(a) == isDigitByte(b) && int(b)-int(a) == step
				if step == 0 {
					ok = a == b
				}
				if ok {
					continue
				}
			}
			if n := i - start; n >= 4 {
				if n >= 8 && step != 0 {
					return true
				}
				mark(start, i)
			}
			start = i
		}
	}
	for i := 0; i+4 <= len(l); i++ {
		x, y := l[i], l[i+1]
		if !isAlnumLower(x) || !isAlnumLower(y) || isDigitByte(x) == isDigitByte(y) {
			continue
		}
		j := i + 2
		for j+1 < len(l) && l[j] == l[j-2]+1 && l[j+1] == l[j-1]+1 {
			j += 2
		}
		if j-i >= 6 {
			mark(i, j)
		}
	}
	if stepLetters(l) {
		return true
	}
	n := 0
	for _, c := range covered {
		if c {
			n++
		}
	}
	return 2*n >= len(l)
}

// TestValueWordShapeSame: looking up only the words of the set's shape
// finds what looking up every word does.
func TestValueWordShapeSame(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	const alpha = "aAeEfFhHiIlLmMoOrRsStTuUyY019_-'/+. "
	for _, words := range []map[string]bool{placeholderWholeWords, passwordWords, hexMetaWords} {
		shape := shapeOf(words)
		var keys []string
		for w := range words {
			keys = append(keys, w)
		}
		for range 20000 {
			b := make([]byte, rng.Intn(60))
			for i := range b {
				b[i] = alpha[rng.Intn(len(alpha))]
			}
			if rng.Intn(3) == 0 {
				w := []byte(keys[rng.Intn(len(keys))])
				if rng.Intn(2) == 0 {
					w = bytes.ToUpper(w)
				}
				k := rng.Intn(len(b) + 1)
				b = append(b[:k:k], append(w, b[k:]...)...)
			}
			if got, want := anyValueWordIn(b, words, shape), anyValueWord(b, words); got != want {
				t.Fatalf("%q: by shape %v, every word %v", b, got, want)
			}
		}
	}
}
