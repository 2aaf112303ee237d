package authority

import (
	"bytes"
	"fmt"
	"go/token"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/checks/internal/flagutil"
	"github.com/svrnty/sotvet/sotparse"
)

// Analyzer checks that local planning documents do not claim authority they
// do not have.
var Analyzer = &analysis.Analyzer{
	Name:     "authority",
	Doc:      docutil.MustExtract(doc, "authority"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#authority",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

// Defaults of the flags.
var (
	DefaultScope            = []string{".sot/**"}
	DefaultAllowedPromotion = []string{"not-promoted"}
	DefaultDisclaimer       = "Local planning SOT only. Not a Core Protocol. Not active Core authority."
	// DefaultDisclaimerKinds are the kinds every corpus document of which
	// carries the disclaimer (see the package doc).
	DefaultDisclaimerKinds = []sotparse.Kind{
		sotparse.KindPRD, sotparse.KindIssues, sotparse.KindEvidence, sotparse.KindCloseout,
		sotparse.KindRecord, sotparse.KindContract, sotparse.KindTemplate, sotparse.KindPacket,
		sotparse.KindGuard, sotparse.KindMatrix, sotparse.KindGates, sotparse.KindBlocker,
		sotparse.KindAttempt,
	}
)

var (
	scope            = flagutil.Globs(slices.Clone(DefaultScope))
	exempt           flagutil.Globs
	allowedPromotion = wordList(slices.Clone(DefaultAllowedPromotion))
	disclaimer       = DefaultDisclaimer
	disclaimerKinds  = flagutil.Kinds(slices.Clone(DefaultDisclaimerKinds))
	claims           = newLazyClaimSet(DefaultClaims)
)

func init() {
	Analyzer.Flags.Var(&scope, "scope", "comma-separated doublestar globs of the documents the check judges")
	Analyzer.Flags.Var(&exempt, "exempt", "comma-separated doublestar globs of documents exempt from every rule of the check")
	Analyzer.Flags.Var(&allowedPromotion, "allowed-promotion", "comma-separated allowed values of core_promotion_status")
	Analyzer.Flags.StringVar(&disclaimer, "disclaimer", DefaultDisclaimer, "the disclaimer line that must follow the H1")
	Analyzer.Flags.Var(&disclaimerKinds, "disclaimer-kinds", `comma-separated document kinds that must carry the disclaimer ("other" for documents without a kind suffix)`)
	Analyzer.Flags.Var(claims, "claims", "forbidden-claim rules: a YAML list of {id, pattern, scope, message, unless, contradicts}; replaces the built-in set")
}

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	c := &checker{ws: ws, states: map[stateKey]*routeState{}}
	results := DocCheck.Each(pass, ws)
	for i, d := range ws.Docs {
		if !judged(d, ws.Focused(d.Path)) {
			continue
		}
		promotion(pass, d)
		if r, _ := results[i].(*docFindings); r != nil {
			c.claims(pass, d, r)
		}
	}
	return nil, nil
}

// judged reports whether the check judges d.
func judged(d *sotparse.Doc, focused bool) bool {
	return focused && scope.Match(d.Path) && !exempt.Match(d.Path)
}

// DocCheck judges what each document says on its own: it reports on its
// disclaimer, and finds the claims its text makes. run judges the claims of
// the rules that contradict a record against the records of the document's
// route, which are other documents, and reports them.
var DocCheck = &sotparse.DocCheck{Prepare: prepare, Run: checkDoc, KeepsKeyValue: recordsKey,
	KeepsField: func(p any, _ *sotparse.Doc, f *sotparse.Field) bool { return contradictedKey(p, f.Key) }}

// recordsKey reports whether f states the key of a rule that contradicts a
// record: run reads those of every document of a route (routeState).
func recordsKey(p any, _ *sotparse.Doc, f *sotparse.Fact) bool {
	return contradictedKey(p, f.Key)
}

// contradictedKey reports whether key is the key of a rule that
// contradicts a record (prepared p): run reads the facts and frontmatter
// fields stating it of every document of a route (routeState, factValues).
func contradictedKey(p any, key string) bool {
	for _, cc := range p.(*prepared).set.compiled {
		if cc.Contradicts != "" && keyIs(key, cc.key) {
			return true
		}
	}
	return false
}

// prepared is what DocCheck reads of the flags, once per run.
type prepared struct {
	set *ClaimSet
	// disclaimer is the -disclaimer line as plain text, what a
	// document's first paragraph is compared with.
	disclaimer string
	// plain is set when the disclaimer is its own plain text: a line
	// that is the disclaimer as it stands then needs no PlainText.
	plain bool
}

func prepare() any {
	want := sotparse.PlainText(strings.TrimSpace(disclaimer))
	return &prepared{set: claims.load(), disclaimer: want, plain: sotparse.PlainText(want) == want}
}

// docFindings is what DocCheck found in one document for run: positions
// and excerpts, never its text.
type docFindings struct {
	claims []claimMatch // the matches the text states, in the order they were found
	traced []candidate  // every candidate, when traceCandidates is set
}

// claimMatch is a match the document states: a claim, unless its rule
// contradicts a record the document's route does not have.
type claimMatch struct {
	claim    *compiledClaim
	pos, end token.Pos
	excerpt  string // of the matched text, quoted for the message
}

// docCheck is DocCheck's run on one document.
type docCheck struct {
	*prepared
	p   *sotparse.DocPass
	d   *sotparse.Doc
	out docFindings
	sc  *scratch
	// all is the document's blocks once decoded (decoded: see blocks).
	all     []*sotparse.Block
	decoded bool
	// plainBody is the body when its blocks are not read (see body).
	plainBody body
}

func (c *docCheck) report(pos, end token.Pos, category, msg string) {
	c.p.Report(analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: msg})
}

func checkDoc(p *sotparse.DocPass) any {
	d := p.Doc
	if !judged(d, p.Focused()) {
		return nil
	}
	c := &docCheck{prepared: p.Prepared.(*prepared), p: p, d: d}
	needDisclaimer := disclaimerKinds.Has(d.Kind)
	if !needDisclaimer && len(c.set.compiled) == 0 {
		return nil
	}
	c.sc = scratches.Get().(*scratch)
	defer scratches.Put(c.sc)
	if needDisclaimer {
		c.checkDisclaimer(p.Content)
	}
	if len(c.set.compiled) > 0 {
		c.claims(c.body())
	}
	// run reports nearly every claim: the driver keeps the text they
	// flag now, not reading it back.
	for _, k := range c.out.claims {
		p.Flag(k.pos, k.end)
	}
	if len(c.out.claims) == 0 && len(c.out.traced) == 0 {
		return nil
	}
	return &c.out
}

// blocks returns the document's blocks, decoded on first use into memory
// reused from document to document: nothing of them outlives the run on
// the document but the findings, whose messages and excerpts are built
// anew. The candidates a test traces keep their text, so they get blocks
// of their own.
func (c *docCheck) blocks() []*sotparse.Block {
	if !c.decoded {
		if traceCandidates == nil {
			c.all = c.sc.blocks.BlocksIn(c.d, c.p.Content)
		} else {
			c.all = c.d.BlocksIn(c.p.Content)
		}
		c.decoded = true
	}
	return c.all
}

// body reads the document's body for the claims. Most bodies say nothing
// a sentence rule may match: when one holds no markup (markupBytes) and no
// sentence rule admits the literals of its source, none admits a block's
// text, and the blocks are not decoded unless a fact asks for its section
// (body.mentionAt).
func (c *docCheck) body() *body {
	if content := c.p.Content; !readEveryBody && len(content) == c.d.File.Tok.Size() {
		bodyText := content[c.d.File.Tok.Offset(c.d.BodyStart):]
		f := c.set.matcher.scanBody(bodyText)
		// A sentence read in its canonical form (canonical) may hold
		// literals the body does not.
		if f&(markupClause|rewriteClause) == 0 && !c.set.admits(ScopeSentence, f) {
			c.plainBody = body{doc: c}
			return &c.plainBody
		}
	}
	return readBody(c.blocks(), c.set, &c.sc.found)
}

// checker holds what the documents of one run share.
type checker struct {
	ws     *sotparse.Workspace
	routes map[string][]*sotparse.Doc // by stem, in path order; built on first use
	states map[stateKey]*routeState
}

// scratch is the memory DocCheck reuses from document to document.
type scratch struct {
	blocks sotparse.BlockDecoder
	found  []clauseBits // of the prose blocks (readBody)
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// wrapped reports whether the first lines of para, joined, are the
// disclaimer want: a disclaimer wrapped over lines of its paragraph reads
// as one line.
func wrapped(para, want string) bool {
	for i := strings.IndexByte(para, '\n'); i >= 0; {
		j := strings.IndexByte(para[i+1:], '\n')
		end := len(para)
		if j >= 0 {
			end = i + 1 + j
		}
		// PlainText collapses the line breaks with the other white space.
		got := sotparse.PlainText(strings.TrimSpace(para[:end]))
		if got == want {
			return true
		}
		if len(got) > len(want) || j < 0 {
			return false
		}
		i = end
	}
	return false
}

// promotion reports a core_promotion_status value that is not allowed. A
// missing or empty value is the frontmatter check's business.
func promotion(pass *analysis.Pass, d *sotparse.Doc) {
	fm := d.Frontmatter
	if fm == nil {
		return
	}
	for _, f := range fm.Fields {
		if f.Key != "core_promotion_status" || !f.Scalar {
			continue
		}
		v := strings.TrimSpace(f.Value)
		if v == "" || slices.Contains(allowedPromotion, v) {
			continue
		}
		pass.Report(analysis.Diagnostic{Pos: f.ValuePos, End: f.ValueEnd, Category: "promotion-status",
			Message: fmt.Sprintf("core_promotion_status is %q; allowed: %s", v, strings.Join(allowedPromotion, ", "))})
	}
}

// checkDisclaimer checks that the first block after the H1 is a paragraph
// that starts with the disclaimer line.
func (c *docCheck) checkDisclaimer(content []byte) {
	d, want := c.d, c.disclaimer
	// A released document's blocks are parsed again from its text: once.
	if want == "" || !d.Released() && c.disclaimerFirst(content) {
		return
	}
	blocks := c.blocks()
	// next returns the index of the first top-level block from i on, or -1.
	next := func(i int) int {
		for ; i < len(blocks); i++ {
			if blocks[i].TopLevel() {
				return i
			}
		}
		return -1
	}
	h1 := -1
	for i, b := range blocks {
		if b.TopLevel() && b.Kind == sotparse.BlockHeading && b.Level == 1 {
			h1 = i
			break
		}
	}
	first := next(h1 + 1)
	for first >= 0 && blocks[first].Kind == sotparse.BlockHTML && blocks[first].Comment {
		first = next(first + 1)
	}
	var firstText string
	if first >= 0 {
		if b := blocks[first]; b.Kind == sotparse.BlockParagraph {
			if c.isDisclaimer(content, b) {
				return
			}
			o, e := d.File.Tok.Offset(b.Pos), d.File.Tok.Offset(b.End)
			line, _, _ := strings.Cut(string(content[o:e]), "\n")
			firstText = excerpt(sotparse.PlainText(strings.TrimSpace(line)))
		} else {
			firstText = "a " + blockName(b.Kind)
		}
	}
	// Elsewhere, as a line of a top-level paragraph?
	for _, b := range blocks {
		if !b.TopLevel() || b.Kind != sotparse.BlockParagraph {
			continue
		}
		o, e := d.File.Tok.Offset(b.Pos), d.File.Tok.Offset(b.End)
		for o < e {
			eol := e
			if k := bytes.IndexByte(content[o:e], '\n'); k >= 0 {
				eol = o + k
			}
			// A paragraph line starts after its indentation.
			raw := content[o:eol]
			start := o + len(raw) - len(bytes.TrimLeft(raw, " \t\v\f\r"))
			o = eol + 1
			line := bytes.TrimRight(content[start:eol], " \t\r")
			// Markup only lengthens the line: a shorter one cannot be it.
			if len(line) < len(want) || sotparse.PlainText(strings.TrimSpace(string(line))) != want {
				continue
			}
			where := "the start of the body"
			if h1 >= 0 {
				where = "the H1"
			}
			c.report(d.File.Pos(start), d.File.Pos(start+len(line)), "disclaimer-misplaced",
				fmt.Sprintf("the disclaimer line must be the first paragraph after %s, but %s comes first", where, firstText))
			return
		}
	}
	pos := d.BodyStart
	end := pos
	if h1 >= 0 {
		pos, end = blocks[h1].Pos, blocks[h1].End
	}
	c.report(pos, end, "disclaimer-missing",
		fmt.Sprintf("no disclaimer line after the H1 of this %s document (want %q)", kindName(d.Kind), strings.TrimSpace(disclaimer)))
}

// disclaimerFirst reports whether the first top-level block after the H1,
// HTML comments aside, is the disclaimer paragraph: checkDisclaimer's
// common outcome, read from the outline of the blocks up to it, with no
// text decoded. Otherwise (no H1 either) checkDisclaimer reads on.
func (c *docCheck) disclaimerFirst(content []byte) bool {
	h1 := false
	for b := range c.sc.blocks.Outline(c.d, content) {
		switch {
		case !b.TopLevel():
		case !h1:
			h1 = b.Kind == sotparse.BlockHeading && b.Level == 1
		case b.Kind == sotparse.BlockHTML && b.Comment:
		default:
			return b.Kind == sotparse.BlockParagraph && c.isDisclaimer(content, b)
		}
	}
	return false
}

// isDisclaimer reports whether the paragraph b starts with the disclaimer
// line, or with the disclaimer wrapped over its first lines.
func (c *docCheck) isDisclaimer(content []byte, b *sotparse.Block) bool {
	tok := c.d.File.Tok
	para := content[tok.Offset(b.Pos):tok.Offset(b.End)]
	line, _, _ := bytes.Cut(para, []byte("\n"))
	// Most documents state the disclaimer as it is.
	if c.plain && string(bytes.TrimSpace(line)) == c.disclaimer {
		return true
	}
	return sotparse.PlainText(strings.TrimSpace(string(line))) == c.disclaimer || wrapped(string(para), c.disclaimer)
}

func kindName(k sotparse.Kind) string {
	if k == sotparse.KindOther {
		return "kind-less"
	}
	return string(k)
}

// blockName names a block kind in a message.
func blockName(k sotparse.BlockKind) string {
	switch k {
	case sotparse.BlockHTML:
		return "htmlblock"
	case sotparse.BlockLinkDef:
		return "linkreferencedefinition"
	}
	return k.String()
}

// excerpt quotes s, shortened to about 60 characters.
func excerpt(s string) string {
	const max = 60
	if r := []rune(s); len(r) > max {
		s = strings.TrimSpace(string(r[:max])) + "…"
	}
	return fmt.Sprintf("%q", s)
}
