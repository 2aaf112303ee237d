package workboard

import (
	_ "embed"
	"fmt"
	"go/token"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/checks/internal/pathutil"
	"github.com/svrnty/sotvet/checks/internal/vocab"
	"github.com/svrnty/sotvet/sotparse"
)

//go:embed doc.go
var doc string

// Analyzer checks WORKBOARD.yaml.
var Analyzer = &analysis.Analyzer{
	Name:     "workboard",
	Doc:      docutil.MustExtract(doc, "workboard"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#workboard",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

// DefaultIDPattern is the default of the -id-pattern flag.
const DefaultIDPattern = `^CTO-WORK-\d{3,}$`

var (
	statuses  vocab.Statuses
	idPattern = regexpFlag{regexp.MustCompile(DefaultIDPattern)}
)

func init() {
	Analyzer.Flags.Var(&statuses, vocab.FlagName, "comma-separated statuses accepted besides "+strings.Join(vocab.Base, ", "))
	Analyzer.Flags.Var(&idPattern, "id-pattern", "regular expression every work item id must match")
}

// regexpFlag is a flag.Value holding a compiled regular expression.
type regexpFlag struct{ re *regexp.Regexp }

func (f *regexpFlag) String() string {
	if f == nil || f.re == nil {
		return ""
	}
	return f.re.String()
}

func (f *regexpFlag) Set(v string) error {
	re, err := regexp.Compile(v)
	if err != nil {
		return err
	}
	f.re = re
	return nil
}

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	for _, p := range ws.ProblemsFor("workboard") {
		pass.Report(analysis.Diagnostic{Pos: p.Pos, End: p.End, Category: "syntax", Message: p.Message})
	}
	wb := ws.Workboard
	if wb == nil || !ws.Focused(wb.File.Path) {
		return nil, nil // every finding of the check is in the workboard
	}
	c := &checker{pass: pass, ws: ws, wb: wb, res: pathutil.NewResolver(ws)}
	c.items()
	c.cycles()
	return nil, nil
}

type checker struct {
	pass *analysis.Pass
	ws   *sotparse.Workspace
	wb   *sotparse.Workboard
	res  *pathutil.Resolver

	first map[string]int // id -> index of the first item with it
}

func (c *checker) report(pos, end token.Pos, category, format string, args ...any) {
	if end < pos {
		end = pos
	}
	c.pass.Report(analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: fmt.Sprintf(format, args...)})
}

// name is how messages refer to the i'th item: its id, or its place in the
// list when it has none.
func name(it *sotparse.WorkboardItem, i int) string {
	if it.ID != nil && it.ID.Value != "" {
		return "work item " + it.ID.Value
	}
	return fmt.Sprintf("work item #%d", i+1)
}

// at returns the span to report an item-level finding at: the id value, or
// the start of the item.
func at(it *sotparse.WorkboardItem) (token.Pos, token.Pos) {
	if it.ID != nil {
		return it.ID.ValuePos, it.ID.ValueEnd
	}
	return it.Pos, it.Pos
}

func (c *checker) items() {
	c.first = make(map[string]int, len(c.wb.Items))
	re := idPattern.re
	for i, it := range c.wb.Items {
		nm := name(it, i)
		pos, end := at(it)
		if len(it.Missing) == 1 {
			c.report(pos, end, "schema", "%s has no %s key", nm, it.Missing[0])
		} else if len(it.Missing) > 1 {
			c.report(pos, end, "schema", "%s has no %s keys", nm, strings.Join(it.Missing, ", "))
		}
		for _, f := range []*sotparse.Field{it.ID, it.Title, it.Status, it.Source} {
			if f != nil && strings.TrimSpace(f.Value) == "" {
				c.report(f.KeyPos, f.KeyPos+token.Pos(len(f.Key)), "schema", "%s has an empty %s", nm, f.Key)
			}
		}
		for _, f := range it.Unknown {
			c.report(f.KeyPos, f.KeyPos+token.Pos(len(f.Key)), "schema", "unknown key %q in %s (want id, title, status, blocked_by, source)", f.Key, nm)
		}
		if it.ID != nil && it.ID.Value != "" {
			id := it.ID.Value
			if re != nil && !re.MatchString(id) {
				c.report(pos, end, "id-format", "work item id %q does not match %s", id, re)
			}
			if j, dup := c.first[id]; dup {
				c.report(pos, end, "duplicate-id", "duplicate work item id %s: also the id of item #%d%s", id, j+1, titled(c.wb.Items[j]))
			} else {
				c.first[id] = i
			}
		}
		if it.Status != nil && strings.TrimSpace(it.Status.Value) != "" && !statuses.Has(it.Status.Value) {
			c.report(it.Status.ValuePos, it.Status.ValueEnd, "status", "%s has status %q, not one of %s", nm, it.Status.Value, strings.Join(statuses.List(), ", "))
		}
		if it.Source != nil && strings.TrimSpace(it.Source.Value) != "" {
			if p, ok := pathutil.SourcePath(it.Source.Value); ok && !c.res.Exists(p) {
				c.report(it.Source.ValuePos, it.Source.ValueEnd, "missing-source", "%s names source %s, which does not exist in the workspace", nm, p)
			}
		}
	}
	// Blockers need the full id set: check them once every id is known.
	for i, it := range c.wb.Items {
		nm := name(it, i)
		for _, b := range it.BlockedBy {
			switch {
			case strings.TrimSpace(b.Value) == "":
				c.report(b.ValuePos, b.ValueEnd, "schema", "%s has an empty blocked_by entry", nm)
			case it.ID != nil && b.Value == it.ID.Value:
				c.report(b.ValuePos, b.ValueEnd, "cycle", "%s is blocked by itself", nm)
			default:
				if _, ok := c.first[b.Value]; !ok {
					c.report(b.ValuePos, b.ValueEnd, "missing-blocker", "%s is blocked by %s, which is not in the workboard", nm, b.Value)
				}
			}
		}
	}
}

func titled(it *sotparse.WorkboardItem) string {
	if it.Title != nil && it.Title.Value != "" {
		return fmt.Sprintf(" (%q)", it.Title.Value)
	}
	return ""
}

// edge is one blocked_by entry between two distinct work items.
type edge struct {
	to    int // node index
	field *sotparse.Field
}

// cycles reports every strongly connected component of the blocked_by graph
// with more than one item, once, at its smallest id. Self-blocking is
// reported by items. Nodes are distinct ids; an id used by several items has
// the union of their blocked_by entries.
func (c *checker) cycles() {
	ids := make([]string, 0, len(c.wb.Items)) // node -> id
	node := make(map[string]int, len(c.wb.Items))
	for _, it := range c.wb.Items {
		if it.ID == nil || it.ID.Value == "" {
			continue
		}
		if _, ok := node[it.ID.Value]; !ok {
			node[it.ID.Value] = len(ids)
			ids = append(ids, it.ID.Value)
		}
	}
	adj := make([][]edge, len(ids))
	for _, it := range c.wb.Items {
		if it.ID == nil || it.ID.Value == "" {
			continue
		}
		from := node[it.ID.Value]
		for _, b := range it.BlockedBy {
			if to, ok := node[b.Value]; ok && to != from {
				adj[from] = append(adj[from], edge{to, b})
			}
		}
	}
	for _, scc := range tarjan(adj) {
		if len(scc) < 2 {
			continue
		}
		in := make(map[int]bool, len(scc))
		start := scc[0]
		for _, v := range scc {
			in[v] = true
			if lessID(ids[v], ids[start]) {
				start = v
			}
		}
		path := shortestCycle(adj, in, start)
		names := make([]string, 0, len(path)+1)
		names = append(names, ids[start])
		for _, e := range path {
			names = append(names, ids[e.to])
		}
		msg := "blocked_by cycle: " + strings.Join(names, " -> ")
		if len(scc) > len(path) {
			msg += fmt.Sprintf(" (one of the cycles among %d mutually blocking work items)", len(scc))
		}
		f := path[0].field
		c.report(f.ValuePos, f.ValueEnd, "cycle", "%s", msg)
	}
}

// tarjan returns the strongly connected components of the graph, each a list
// of nodes, without recursion (the workboard may hold many thousands of
// items in one long chain).
func tarjan(adj [][]edge) [][]int {
	n := len(adj)
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var out [][]int
	type frame struct{ v, next int }
	counter := 0
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			fr := &call[len(call)-1]
			v := fr.v
			if fr.next < len(adj[v]) {
				w := adj[v][fr.next].to
				fr.next++
				if index[w] < 0 {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			if low[v] == index[v] {
				var scc []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					scc = append(scc, w)
					if w == v {
						break
					}
				}
				out = append(out, scc)
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				if u := call[len(call)-1].v; low[v] < low[u] {
					low[u] = low[v]
				}
			}
		}
	}
	return out
}

// shortestCycle returns the edges of a shortest cycle from start back to
// start that stays inside the component in, found breadth first with edges
// taken in blocked_by order.
func shortestCycle(adj [][]edge, in map[int]bool, start int) []edge {
	via := map[int]edge{} // node -> edge it was first reached by
	prev := map[int]int{}
	queue := []int{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, e := range adj[v] {
			if !in[e.to] {
				continue
			}
			if e.to == start {
				path := []edge{e}
				for u := v; u != start; u = prev[u] {
					path = append(path, via[u])
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			if _, seen := via[e.to]; !seen {
				via[e.to] = e
				prev[e.to] = v
				queue = append(queue, e.to)
			}
		}
	}
	return nil // unreachable for a component of two or more nodes
}

// lessID orders ids naturally: equal prefixes compare by their trailing
// number, so CTO-WORK-999 < CTO-WORK-1000.
func lessID(a, b string) bool {
	pa, na := splitNum(a)
	pb, nb := splitNum(b)
	if pa != pb || na == "" || nb == "" {
		return a < b
	}
	na, nb = strings.TrimLeft(na, "0"), strings.TrimLeft(nb, "0")
	if len(na) != len(nb) {
		return len(na) < len(nb)
	}
	if na != nb {
		return na < nb
	}
	return a < b
}

func splitNum(s string) (prefix, num string) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	return s[:i], s[i:]
}
