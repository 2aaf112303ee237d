package prose

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/svrnty/sotvet/cache"
	"github.com/svrnty/sotvet/internal/atomicfile"
	"github.com/svrnty/sotvet/internal/safefs"
)

// Decoding a style set's YAML is most of what reading it costs (~40 ms of
// CPU for four packages, every run). The style cache keeps the rules
// ParseRule read from a set's files, before compiling, in one file under
// a cache directory, named by a hash of the sotvet build's key and of
// every file's path and content: a changed, added or removed rule file,
// or another build, names another file. What is read back is checked
// (its magic, the key written in it, a SHA-256 of the rest, every length
// against what is left) and, like any rule, compiled: a file that fails
// any of it is ignored and the set is read from its YAML. The cache only
// saves time; it is the user's own directory, trusted as the styles are.

// StyleCache is where and under which key style sets are cached.
type StyleCache struct {
	Dir string // the directory the cache files are in; created on first write
	Key string // the build that writes them: a rule file is read as this build reads it
}

var styleCache atomic.Pointer[StyleCache]

// SetStyleCache keeps style sets under c.Dir from now on, or no longer when
// c is nil or c.Dir empty.
func SetStyleCache(c *StyleCache) {
	if c != nil && c.Dir == "" {
		c = nil
	}
	styleCache.Store(c)
}

const styleCacheMagic = "sotvet prose styles 4\n"

// maxStyleCache bounds a cache file read: a set's rule files are bounded
// (maxRuleFile each), what is kept of them is smaller.
const maxStyleCache = 64 << 20

// ruleFile is one rule file of a set, read.
type ruleFile struct {
	name, file string
	data       []byte
}

// cachedRule is what the cache keeps of one rule file: its rule before
// compiling, or why it is skipped; what compiling its expressions derived,
// and what the filter requires of it (nil: worked out when needed).
type cachedRule struct {
	rule  *Rule
	skip  string
	facts []patternFacts
	pre   *prefilterFacts
	alts  []altFact // what the filter reads of its tokens, if it runs token by token
}

// nameHash hashes length-prefixed fields into a cache file's name.
type nameHash struct {
	h hash.Hash
	n [binary.MaxVarintLen64]byte
}

func newNameHash() *nameHash { return &nameHash{h: sha256.New()} }

func (x *nameHash) num(v uint64) { x.h.Write(x.n[:binary.PutUvarint(x.n[:], v)]) }

func (x *nameHash) field(s []byte) {
	x.num(uint64(len(s)))
	x.h.Write(s)
}

func (x *nameHash) name(ext string) string { return hex.EncodeToString(x.h.Sum(nil)) + ext }

// styleCacheName is the cache file of files under key.
func styleCacheName(key string, files []ruleFile) string {
	x := newNameHash()
	x.field([]byte(styleCacheMagic))
	x.field([]byte(key))
	for _, f := range files {
		x.field([]byte(f.name))
		x.field([]byte(f.file))
		x.field(f.data)
	}
	return x.name(".rules")
}

// readStyleCache returns the cached rules of files, in their order, or
// false.
func readStyleCache(c *StyleCache, files []ruleFile) ([]cachedRule, bool) {
	return readStyleCacheAt(filepath.Join(c.Dir, styleCacheName(c.Key, files)), c.Key, files)
}

// readStyleCacheAt returns the rules of files the cache file name keeps
// under key, or false, and marks the file used.
func readStyleCacheAt(name, key string, files []ruleFile) ([]cachedRule, bool) {
	data, err := safefs.ReadPath(name, maxStyleCache)
	if err != nil {
		return nil, false
	}
	rules, err := decodeStyleCache(data, key, files)
	if err != nil {
		return nil, false
	}
	markUsed(name)
	return rules, true
}

// markUsed marks a cache file read by this run, for cache.Trim, which
// removes those no run read for a long time (every build writes its own).
func markUsed(name string) {
	now := time.Now()
	_ = os.Chtimes(name, now, now)
}

// writeStyleCache keeps rules, read from files, for the next run, and
// reports whether it did. Failing to is no error: the next run reads the
// YAML again.
func writeStyleCache(c *StyleCache, files []ruleFile, rules []cachedRule) bool {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return false
	}
	return atomicfile.Write(filepath.Join(c.Dir, styleCacheName(c.Key, files)), encodeStyleCache(c.Key, files, rules), 0o600) == nil
}

var errStyleCache = errors.New("style cache: damaged")

func encodeStyleCache(key string, files []ruleFile, rules []cachedRule) []byte {
	var e encoder
	e.uint(uint64(len(files)))
	for i, f := range files {
		e.str(f.name)
		e.str(f.file)
		cr := rules[i]
		e.str(cr.skip)
		if cr.skip == "" {
			e.rule(cr.rule)
			e.uint(uint64(len(cr.facts)))
			for _, f := range cr.facts {
				e.str(f.src)
				e.bool(f.back)
				e.strs(f.lits)
				e.req(f.req)
				e.bool(f.litReqSet)
				e.req(f.litReq)
			}
			// Worked out now if need be: the filter needs it every run.
			pf := cr.pre
			if pf == nil {
				pf = prefilterOf(cr.rule)
			}
			e.strs(pf.lits)
			e.req(pf.req)
			if cr.alts == nil {
				e.uint(0)
			} else {
				e.uint(uint64(len(cr.alts)) + 1)
				for _, a := range cr.alts {
					e.strs(a.lits)
					e.req(a.req)
					e.bool(a.back)
				}
			}
		}
	}
	out := append([]byte(styleCacheMagic), binary.AppendUvarint(nil, uint64(len(key)))...)
	out = append(out, key...)
	sum := sha256.Sum256(e.b)
	out = append(out, sum[:]...)
	return append(out, e.b...)
}

// decodeStyleCache reads what encodeStyleCache wrote. The rules' strings
// share data's array: data must not be written afterwards.
func decodeStyleCache(data []byte, key string, files []ruleFile) ([]cachedRule, error) {
	rest, ok := bytes.CutPrefix(data, []byte(styleCacheMagic))
	if !ok {
		return nil, errStyleCache
	}
	d := decoder{b: rest}
	if d.str() != key || d.bad || len(d.b) < sha256.Size {
		return nil, errStyleCache
	}
	sum, payload := d.b[:sha256.Size], d.b[sha256.Size:]
	if got := sha256.Sum256(payload); !bytes.Equal(got[:], sum) {
		return nil, errStyleCache
	}
	d = decoder{b: payload, alias: true}
	if d.uint() != uint64(len(files)) {
		return nil, errStyleCache
	}
	out := make([]cachedRule, len(files))
	for i, f := range files {
		if d.str() != f.name || d.str() != f.file {
			return nil, errStyleCache
		}
		out[i].skip = d.str()
		if out[i].skip == "" {
			out[i].rule = d.rule()
			n := d.uint()
			if !d.fits(n, minFactSize) {
				return nil, errStyleCache
			}
			out[i].facts = make([]patternFacts, n)
			for k := range out[i].facts {
				f := &out[i].facts[k]
				f.src = d.str()
				f.back = d.bool()
				f.lits = d.strs()
				f.req = d.req()
				f.litReqSet = d.bool()
				f.litReq = d.req()
			}
			out[i].pre = &prefilterFacts{lits: d.strs(), req: d.req()}
			if n, ok := d.count(minAltSize); ok {
				out[i].alts = make([]altFact, n)
				for k := range out[i].alts {
					out[i].alts[k] = altFact{lits: d.strs(), req: d.req(), back: d.bool()}
				}
			}
		}
		if d.bad {
			return nil, errStyleCache
		}
	}
	if d.bad || len(d.b) != 0 {
		return nil, errStyleCache
	}
	return out, nil
}

type encoder struct{ b []byte }

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}
func (e *encoder) strs(s []string) {
	if s == nil {
		e.uint(0)
		return
	}
	e.uint(uint64(len(s)) + 1) // nil and empty stay apart
	for _, x := range s {
		e.str(x)
	}
}
func (e *encoder) bool(v bool) {
	if v {
		e.uint(1)
	} else {
		e.uint(0)
	}
}

// rule writes every field ParseRule sets (TestStyleCacheRoundTrip holds
// this list to Rule's fields).
func (e *encoder) rule(r *Rule) {
	e.str(r.Name)
	e.str(r.File)
	e.str(r.Extends)
	e.str(r.Message)
	e.str(r.Link)
	e.uint(uint64(r.Level))
	e.strs(r.Scopes)
	e.bool(r.IgnoreCase)
	e.bool(r.Nonword)
	e.bool(r.Append)
	e.bool(r.Vocab)
	e.str(r.Action.Name)
	e.strs(r.Action.Params)
	e.strs(r.Tokens)
	e.strs(r.Raw)
	e.strs(r.Exceptions)
	if r.Swap == nil {
		e.uint(0)
	} else {
		e.uint(uint64(len(r.Swap)) + 1)
		for _, s := range r.Swap {
			e.str(s.Find)
			e.str(s.Replace)
		}
	}
	e.uint(uint64(r.Max))
	e.uint(uint64(r.Min))
	e.str(r.Token)
	e.str(r.First)
	e.str(r.Second)
	e.str(r.Match)
	e.strs(r.Indicators)
	if r.Either == nil {
		e.uint(0)
	} else {
		e.uint(uint64(len(r.Either)) + 1)
		for _, p := range r.Either {
			e.str(p[0])
			e.str(p[1])
		}
	}
	e.bool(r.Alpha)
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(r.Threshold))
}

// req writes a requirement: nil, or its factors' byte sets and ascii.
func (e *encoder) req(r *requirement) {
	if r == nil {
		e.uint(0)
		return
	}
	e.uint(uint64(len(r.factors)) + 1)
	for _, f := range r.factors {
		e.uint(uint64(len(f)))
		for _, set := range f {
			for _, w := range set {
				e.b = binary.LittleEndian.AppendUint64(e.b, w)
			}
		}
	}
	e.bool(r.ascii)
}

// decoder reads what encoder wrote; past a damage it reads zeros and
// sets bad.
type decoder struct {
	b   []byte
	bad bool
	// alias: strings share b's array rather than copy it, for a buffer
	// read for the decoder alone and never written again (a style cache
	// file: ~30,000 strings, the rules' tokens among them).
	alias bool
}

func (d *decoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) str() string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return ""
	}
	var s string
	if d.alias && n > 0 {
		s = unsafe.String(&d.b[0], int(n))
	} else {
		s = string(d.b[:n])
	}
	d.b = d.b[n:]
	return s
}

// The fewest bytes one element takes encoded: a count of more elements
// than what is left could hold is refused before anything is allocated
// for it (a hostile file of 64 MB could otherwise ask for gigabytes).
const (
	minStrSize  = 1 // its length
	minPairSize = 2 // two strings (a swap, an either)
	minFactSize = 6 // src, back, lits, req, litReqSet, litReq
	minAltSize  = 3 // lits, req, back
	minReqSize  = 1 // a factor's length
	setSize     = 32
)

// fits reports whether n elements of at least minSize bytes each fit in
// what is left; if not, the decoder is bad.
func (d *decoder) fits(n uint64, minSize int) bool {
	if n > uint64(len(d.b)/minSize) {
		d.bad, d.b = true, nil
		return false
	}
	return true
}

// count reads a length written as n+1 (0: nil) of elements of at least
// minSize bytes each, bounded by what is left.
func (d *decoder) count(minSize int) (int, bool) {
	n := d.uint()
	if n == 0 || !d.fits(n-1, minSize) {
		return 0, false
	}
	return int(n - 1), true
}

func (d *decoder) strs() []string {
	n, ok := d.count(minStrSize)
	if !ok {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *decoder) bool() bool {
	switch d.uint() {
	case 0:
		return false
	case 1:
		return true
	}
	d.bad = true
	return false
}

func (d *decoder) int() int {
	v := d.uint()
	if v > math.MaxInt32 {
		d.bad = true
		return 0
	}
	return int(v)
}

func (d *decoder) rule() *Rule {
	r := &Rule{}
	r.Name = d.str()
	r.File = d.str()
	r.Extends = d.str()
	r.Message = d.str()
	r.Link = d.str()
	r.Level = Level(d.int())
	r.Scopes = d.strs()
	r.IgnoreCase = d.bool()
	r.Nonword = d.bool()
	r.Append = d.bool()
	r.Vocab = d.bool()
	r.Action.Name = d.str()
	r.Action.Params = d.strs()
	r.Tokens = d.strs()
	r.Raw = d.strs()
	r.Exceptions = d.strs()
	if n, ok := d.count(minPairSize); ok {
		r.Swap = make([]Swap, n)
		for i := range r.Swap {
			r.Swap[i] = Swap{d.str(), d.str()}
		}
	}
	r.Max = d.int()
	r.Min = d.int()
	r.Token = d.str()
	r.First = d.str()
	r.Second = d.str()
	r.Match = d.str()
	r.Indicators = d.strs()
	if n, ok := d.count(minPairSize); ok {
		r.Either = make([][2]string, n)
		for i := range r.Either {
			r.Either[i] = [2]string{d.str(), d.str()}
		}
	}
	r.Alpha = d.bool()
	if len(d.b) < 8 {
		d.bad, d.b = true, nil
		return r
	}
	r.Threshold = math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return r
}

func (d *decoder) req() *requirement {
	n, ok := d.count(minReqSize)
	if !ok {
		return nil
	}
	r := &requirement{factors: make([]factor, n)}
	for i := range r.factors {
		k := d.uint()
		if !d.fits(k, setSize) {
			return nil
		}
		f := make(factor, k)
		for j := range f {
			for w := range f[j] {
				f[j][w] = binary.LittleEndian.Uint64(d.b)
				d.b = d.b[8:]
			}
		}
		r.factors[i] = f
	}
	r.ascii = d.bool()
	return r
}

// Naming a set's cache file takes reading every rule file. The stamp
// index names it from what stat says of them instead, as the summary
// cache's stat index (cache/stamp.go) finds a document's content id: a
// small file, named by a hash of the build's key and of every rule file's
// path and stamp (size, times, inode), holds the name of the set's cache
// file. A rule file changed, added or removed changes a stamp or the list,
// and so the name; a stamp too recent to stand for its content (the racy
// rule) is never indexed, and its set is read as before. What is read back
// is checked (its magic, the key, a SHA-256 of the rest, the cache file's
// name as one a hash makes) and the cache file it names is checked as any.

const styleStampsMagic = "sotvet prose stamps 1\n"

// maxStyleStamps bounds a stamp index file read: it holds a key and a name.
const maxStyleStamps = 4 << 10

// ruleReads counts the rule files read from disk, for the tests.
var ruleReads atomic.Int64

func styleStampsName(key string, files []ruleFile, stamps []cache.Stamp) string {
	x := newNameHash()
	x.field([]byte(styleStampsMagic))
	x.field([]byte(key))
	x.num(uint64(len(files)))
	for i, f := range files {
		x.field([]byte(f.name))
		x.field([]byte(f.file))
		st := stamps[i]
		x.num(uint64(st.Size))
		x.num(uint64(st.Mtime))
		x.num(uint64(st.Ctime))
		x.num(st.Ino)
	}
	return x.name(".stamps")
}

func encodeStyleStamps(key, rules string) []byte {
	var e encoder
	e.b = append(e.b, styleStampsMagic...)
	e.str(key)
	e.str(rules)
	sum := sha256.Sum256(e.b)
	return append(e.b, sum[:]...)
}

// decodeStyleStamps returns the cache file name an index file holds.
func decodeStyleStamps(data []byte, key string) (string, error) {
	if len(data) < len(styleStampsMagic)+sha256.Size {
		return "", errStyleCache
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return "", errStyleCache
	}
	rest, ok := bytes.CutPrefix(body, []byte(styleStampsMagic))
	if !ok {
		return "", errStyleCache
	}
	d := decoder{b: rest}
	k, name := d.str(), d.str()
	if d.bad || len(d.b) != 0 || k != key || !isCacheName(name, ".rules") {
		return "", errStyleCache
	}
	return name, nil
}

// isCacheName reports whether name is one styleCacheName makes: hex of a
// SHA-256 and ext, nothing that could lead out of the cache directory.
func isCacheName(name, ext string) bool {
	h, ok := strings.CutSuffix(name, ext)
	if !ok || len(h) != 2*sha256.Size {
		return false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// readStampedCache returns the cached rules of files, found through the
// stamp index without reading the files, or false.
func readStampedCache(c *StyleCache, files []ruleFile, stamps []cache.Stamp) ([]cachedRule, bool) {
	index := filepath.Join(c.Dir, styleStampsName(c.Key, files, stamps))
	data, err := safefs.ReadPath(index, maxStyleStamps)
	if err != nil {
		return nil, false
	}
	rules, err := decodeStyleStamps(data, c.Key)
	if err != nil {
		return nil, false
	}
	out, ok := readStyleCacheAt(filepath.Join(c.Dir, rules), c.Key, files)
	if ok {
		markUsed(index)
	}
	return out, ok
}

// writeStyleStamps indexes files, read at stamps, under their cache file.
func writeStyleStamps(c *StyleCache, files []ruleFile, stamps []cache.Stamp) {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return
	}
	index := filepath.Join(c.Dir, styleStampsName(c.Key, files, stamps))
	_ = atomicfile.Write(index, encodeStyleStamps(c.Key, styleCacheName(c.Key, files)), 0o600)
}
