package summary

import (
	"sort"
	"strings"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/sotparse"
)

// Workboard is WORKBOARD.yaml by status.
type Workboard struct {
	Present bool `json:"present"`
	// NotRead says why a WORKBOARD.yaml that is there was not read (over
	// the size limit, not UTF-8, unreadable): an empty workboard is not
	// the same as one sotvet could not read. A workboard read with YAML
	// errors is present; its errors are findings of the workboard check.
	NotRead string `json:"not_read,omitempty"`
	// Columns are the statuses in a fixed order (finished first, then
	// alphabetical), each with its items in workboard order.
	Columns []Column `json:"columns"`
	// Edges are the dependencies: From is blocked by To.
	Edges []Edge `json:"edges"`
	// Blocked are the unfinished items waiting on an unfinished item.
	Blocked []BlockedItem `json:"blocked"`
}

// Column is one status.
type Column struct {
	Status string `json:"status"`
	Items  []Item `json:"items"`
}

// Item is one work item.
type Item struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Status    string   `json:"status"`
	Source    string   `json:"source"`
	BlockedBy []string `json:"blocked_by"`
	Line      int      `json:"line"` // in WORKBOARD.yaml
}

// Edge is one dependency.
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// BlockedItem is an unfinished item and the unfinished items it waits on.
type BlockedItem struct {
	ID string  `json:"id"`
	By []Waits `json:"by"`
}

// Waits is one unfinished blocker and its status ("missing" when the
// workboard does not list it).
type Waits struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

func fieldValue(f *sotparse.Field) string {
	if f == nil {
		return ""
	}
	return f.Value
}

func workboardOf(ws *sotparse.Workspace) Workboard {
	wb := Workboard{Columns: []Column{}, Edges: []Edge{}, Blocked: []BlockedItem{}}
	if ws.Workboard == nil {
		for _, p := range ws.Problems {
			if p.Path == "WORKBOARD.yaml" {
				wb.NotRead = strings.TrimSuffix(p.Message, "; not read")
				break
			}
		}
		return wb
	}
	wb.Present = true
	cols := map[string]*Column{}
	var order []string
	for _, it := range ws.Workboard.Items {
		id := fieldValue(it.ID)
		if id == "" {
			continue
		}
		status := fieldValue(it.Status)
		if status == "" {
			status = "unknown"
		}
		item := Item{ID: id, Title: fieldValue(it.Title), Status: status, Source: fieldValue(it.Source), BlockedBy: []string{}}
		if f := ws.Workboard.File; f != nil && f.Tok != nil && it.Pos.IsValid() {
			item.Line = ws.Fset.Position(it.Pos).Line
		}
		var waits []Waits
		for _, b := range it.BlockedBy {
			to := fieldValue(b)
			if to == "" {
				continue
			}
			item.BlockedBy = append(item.BlockedBy, to)
			wb.Edges = append(wb.Edges, Edge{From: id, To: to})
			dep := ws.Workboard.Item(to)
			switch {
			case dep == nil:
				waits = append(waits, Waits{ID: to, Status: "missing"})
			case !doneStatus(fieldValue(dep.Status)):
				st := fieldValue(dep.Status)
				if st == "" {
					st = "unknown"
				}
				waits = append(waits, Waits{ID: to, Status: st})
			}
		}
		if len(waits) > 0 && !doneStatus(status) {
			wb.Blocked = append(wb.Blocked, BlockedItem{ID: id, By: waits})
		}
		c := cols[status]
		if c == nil {
			c = &Column{Status: status}
			cols[status] = c
			order = append(order, status)
		}
		c.Items = append(c.Items, item)
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := doneStatus(order[i]), doneStatus(order[j])
		if a != b {
			return a
		}
		return order[i] < order[j]
	})
	for _, s := range order {
		wb.Columns = append(wb.Columns, *cols[s])
	}
	return wb
}

// Findings are the checks' findings, as sotvet check reports them: the
// counts cover every finding, Items lists those within the caps
// (Options.MaxPerFile, MaxFindings) and Omitted counts the others (absent
// when none is: a summary within its caps reads as schema 1 always did).
type Findings struct {
	Checked  []string         `json:"checked"`
	Errors   int              `json:"errors"`
	Warnings int              `json:"warnings"`
	ByCheck  []CheckCount     `json:"by_check"`
	Items    []checks.Finding `json:"items"`
	Omitted  int              `json:"omitted,omitempty"`
}

// Total is the number of findings, listed or not.
func (f Findings) Total() int { return f.Errors + f.Warnings }

// CheckCount counts one check's findings by severity.
type CheckCount struct {
	Check    string `json:"check"`
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
}

func findingsOf(res *checks.Result) Findings {
	f := Findings{Checked: res.Checked, ByCheck: []CheckCount{}, Items: res.Findings, Omitted: res.Omitted.Total}
	if f.Items == nil {
		f.Items = []checks.Finding{}
	}
	if f.Checked == nil {
		f.Checked = []string{}
	}
	idx := map[string]int{}
	count := func(check string, sev checks.Severity, n int) {
		i, ok := idx[check]
		if !ok {
			i = len(f.ByCheck)
			idx[check] = i
			f.ByCheck = append(f.ByCheck, CheckCount{Check: check})
		}
		if sev == checks.SeverityError {
			f.Errors += n
			f.ByCheck[i].Errors += n
		} else {
			f.Warnings += n
			f.ByCheck[i].Warnings += n
		}
	}
	for _, x := range res.Findings {
		count(x.Check, x.Severity, 1)
	}
	for k, n := range res.Omitted.ByCheck {
		count(k.Check, k.Severity, n)
	}
	sort.Slice(f.ByCheck, func(i, j int) bool { return f.ByCheck[i].Check < f.ByCheck[j].Check })
	return f
}

// corePromotion gathers the documents' core_promotion_status: the one
// value when they agree, "mixed" when they do not, "unknown" when no
// document states one.
func corePromotion(ws *sotparse.Workspace) (string, map[string]int) {
	counts := map[string]int{}
	for _, d := range ws.Docs {
		if d.Frontmatter == nil {
			continue
		}
		if f := d.Frontmatter.Get("core_promotion_status"); f != nil && f.Value != "" {
			counts[f.Value]++
		}
	}
	switch len(counts) {
	case 0:
		return "unknown", counts
	case 1:
		for k := range counts {
			return k, counts
		}
	}
	return "mixed", counts
}
