package authority

import (
	"fmt"
	"go/token"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
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
	scope            = globList(slices.Clone(DefaultScope))
	exempt           globList
	allowedPromotion = wordList(slices.Clone(DefaultAllowedPromotion))
	disclaimer       = DefaultDisclaimer
	disclaimerKinds  = kindList(slices.Clone(DefaultDisclaimerKinds))
	claims           = NewClaimSet(DefaultClaims)
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
	c := &checker{routes: map[string][]*sotparse.Doc{}, states: map[string]*routeState{}, set: claims}
	for _, d := range ws.Docs {
		c.routes[d.Stem] = append(c.routes[d.Stem], d)
	}
	var runs []*docRun
	for _, d := range ws.Docs {
		if scope.match(d.Path) && !exempt.match(d.Path) {
			runs = append(runs, &docRun{checker: c, d: d})
		}
	}
	// Documents are judged in parallel (each re-parses its body), then
	// reported in path order.
	parallel(len(runs), func(i int) { runs[i].check() })
	for _, r := range runs {
		if traceCandidates != nil {
			for _, k := range r.cands {
				traceCandidates(k)
			}
		}
		for _, d := range r.diags {
			pass.Report(d)
		}
	}
	return nil, nil
}

// parallel calls fn(0) ... fn(n-1) on up to GOMAXPROCS goroutines.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// checker holds what the documents of one run share.
type checker struct {
	routes map[string][]*sotparse.Doc // by stem, in path order
	set    *ClaimSet

	mu     sync.Mutex
	states map[string]*routeState
}

// docRun judges one document; its findings and candidates are reported
// after every document is judged.
type docRun struct {
	*checker
	d     *sotparse.Doc
	diags []analysis.Diagnostic
	cands []candidate
}

func (c *docRun) report(pos, end token.Pos, category, msg string) {
	c.diags = append(c.diags, analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: msg})
}

func (c *docRun) check() {
	d := c.d
	c.promotion(d)
	needDisclaimer := disclaimerKinds.has(d.Kind)
	if !needDisclaimer && len(c.set.compiled) == 0 {
		return
	}
	b := parseBody(d)
	if needDisclaimer {
		c.disclaimer(d, b)
	}
	c.claims(d, b)
}

// promotion reports a core_promotion_status value that is not allowed. A
// missing or empty value is the frontmatter check's business.
func (c *docRun) promotion(d *sotparse.Doc) {
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
		c.report(f.ValuePos, f.ValueEnd, "promotion-status",
			fmt.Sprintf("core_promotion_status is %q; allowed: %s", v, strings.Join(allowedPromotion, ", ")))
	}
}

// disclaimer checks that the first block after the H1 is a paragraph that
// starts with the disclaimer line.
func (c *docRun) disclaimer(d *sotparse.Doc, b *body) {
	want := sotparse.PlainText(strings.TrimSpace(disclaimer))
	if want == "" {
		return
	}
	var h1 ast.Node
	for n := b.root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level == 1 {
			h1 = h
			break
		}
	}
	first := b.root.FirstChild()
	if h1 != nil {
		first = h1.NextSibling()
	}
	for first != nil && isComment(first) {
		first = first.NextSibling()
	}
	var firstText string
	if p, ok := first.(*ast.Paragraph); ok {
		line, _, _ := firstLine(b.src, p)
		if sotparse.PlainText(line) == want {
			return
		}
		firstText = sotparse.PlainText(line)
		firstText = excerpt(firstText)
	} else if first != nil {
		firstText = "a " + blockName(first)
	}
	// Elsewhere, as a line of a top-level paragraph?
	for n := b.root.FirstChild(); n != nil; n = n.NextSibling() {
		p, ok := n.(*ast.Paragraph)
		if !ok {
			continue
		}
		lines := p.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			// Markup only lengthens the line: a shorter one cannot be it.
			if seg.Len() < len(want) || sotparse.PlainText(strings.TrimSpace(string(seg.Value(b.src)))) != want {
				continue
			}
			pos := d.File.Pos(b.base + seg.Start)
			end := d.File.Pos(b.base + seg.Start + len(strings.TrimRight(string(seg.Value(b.src)), " \t\r\n")))
			where := "the start of the body"
			if h1 != nil {
				where = "the H1"
			}
			c.report(pos, end, "disclaimer-misplaced",
				fmt.Sprintf("the disclaimer line must be the first paragraph after %s, but %s comes first", where, firstText))
			return
		}
	}
	pos := d.BodyStart
	end := pos
	if h1 != nil {
		if l := h1.Lines(); l != nil && l.Len() > 0 {
			seg := l.At(0)
			pos = d.File.Pos(b.base + lineStart(b.src, seg.Start))
			end = d.File.Pos(b.base + seg.Stop)
		}
	}
	c.report(pos, end, "disclaimer-missing",
		fmt.Sprintf("no disclaimer line after the H1 of this %s document (want %q)", kindName(d.Kind), strings.TrimSpace(disclaimer)))
}

func kindName(k sotparse.Kind) string {
	if k == sotparse.KindOther {
		return "kind-less"
	}
	return string(k)
}

func isComment(n ast.Node) bool {
	h, ok := n.(*ast.HTMLBlock)
	return ok && h.HTMLBlockType == ast.HTMLBlockType2
}

func blockName(n ast.Node) string {
	switch n.(type) {
	case *ast.Heading:
		return "heading"
	case *ast.List:
		return "list"
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return "code block"
	case *ast.Blockquote:
		return "blockquote"
	case *ast.ThematicBreak:
		return "thematic break"
	}
	return strings.ToLower(n.Kind().String())
}

func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// excerpt quotes s, shortened to about 60 characters.
func excerpt(s string) string {
	const max = 60
	if r := []rune(s); len(r) > max {
		s = strings.TrimSpace(string(r[:max])) + "…"
	}
	return fmt.Sprintf("%q", s)
}
