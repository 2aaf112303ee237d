package panel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svrnty/sotvet/summary"
)

// A workboard with more items than a window shows each column's first
// window, and every item link leads to a page that has the item.
func TestWorkboardWindows(t *testing.T) {
	root := sampleCopy(t)
	wb := filepath.Join(root, "WORKBOARD.yaml")
	b, _ := os.ReadFile(wb)
	var extra strings.Builder
	n := 2*workboardPageSize + 50
	for i := range n {
		// Each waits on the one before, so links cross windows.
		fmt.Fprintf(&extra, "  - id: CTO-WORK-%d\n    title: Step %d\n    status: draft\n    blocked_by: [CTO-WORK-%d]\n    source: WORKBOARD.yaml\n", 2000+i, i, 2000+i-1)
	}
	os.WriteFile(wb, append(b, extra.String()...), 0o644)
	ts := serve(t, root, "")
	r := get(t, ts, "/workboard")
	if got := strings.Count(r.body, `<li class="item"`); got > 5*workboardPageSize {
		t.Errorf("%d items on the first page", got)
	}
	if !strings.Contains(r.body, `href="/workboard?page=2&amp;status=draft" rel="next"`) {
		t.Fatal("the draft column has no link to its next window")
	}
	if !strings.Contains(r.body, `id="blocked-more"`) {
		t.Error("the blocked list does not say that more wait")
	}
	ids := regexp.MustCompile(`id="item-([^"]+)"`)
	links := regexp.MustCompile(`href="([^"]*)#item-([^"]+)"`)
	pages := map[string]string{"": r.body}
	seen := 0
	for _, target := range []string{"", "/workboard?page=2&status=draft", "/workboard?page=3&status=draft"} {
		body, ok := pages[target]
		if !ok {
			body = get(t, ts, target).body
			pages[target] = body
		}
		for _, l := range links.FindAllStringSubmatch(body, -1) {
			page, id := html.UnescapeString(l[1]), l[2]
			if page == "" && target != "" {
				page = target
			}
			there, ok := pages[page]
			if !ok {
				there = get(t, ts, page).body
				pages[page] = there
			}
			found := false
			for _, m := range ids.FindAllStringSubmatch(there, -1) {
				found = found || m[1] == id
			}
			if !found && id != "CTO-WORK-1999" && id != "CTO-WORK-999" {
				t.Errorf("%s: the link to %s leads to %q, which does not show it", target, id, page)
			}
			seen++
		}
	}
	if seen < 2*workboardPageSize {
		t.Errorf("%d links checked", seen)
	}
	// The last window of the draft column, and one out of range.
	last := get(t, ts, "/workboard?status=draft&page=99")
	if !strings.Contains(last.body, `rel="prev"`) || strings.Contains(last.body, `rel="next"`) || !strings.Contains(last.body, `id="item-CTO-WORK-2449"`) {
		t.Error("page 99 is not the draft column's last window")
	}
	if strings.Contains(last.body, `id="col-validated"`) {
		t.Error("a column window shows other columns")
	}
}

// A workspace with more findings than one page shows pages of them,
// the filter kept from page to page.
func TestFindingsPages(t *testing.T) {
	root := sampleCopy(t)
	wb := filepath.Join(root, "WORKBOARD.yaml")
	b, _ := os.ReadFile(wb)
	var extra bytes.Buffer
	for i := range findingsPageSize + 100 {
		fmt.Fprintf(&extra, "  - id: CTO-WORK-%d\n    title: Waits on a ghost\n    status: draft\n    blocked_by: [CTO-WORK-99999]\n    source: WORKBOARD.yaml\n", 2000+i)
	}
	os.WriteFile(wb, append(b, extra.Bytes()...), 0o644)
	ts := serve(t, root, "")
	rows := regexp.MustCompile(`<tr data-check="([^"]+)"`)
	r := get(t, ts, "/findings")
	n := len(rows.FindAllString(r.body, -1))
	if n != findingsPageSize {
		t.Fatalf("page 1 shows %d findings, want %d", n, findingsPageSize)
	}
	m := regexp.MustCompile(`Showing findings 1–500 of (\d+) that match, of (\d+) findings.`).FindStringSubmatch(r.body)
	if m == nil || m[1] != m[2] {
		t.Fatalf("page 1 count: %v\n%.2000s", m, r.body[strings.Index(r.body, "<h1>"):])
	}
	if !strings.Contains(r.body, `data-paged="true"`) || !strings.Contains(r.body, `href="/findings?page=2" rel="next"`) || strings.Contains(r.body, `rel="prev"`) {
		t.Error("page 1 has no next link, or a previous one")
	}
	var total int
	fmt.Sscan(m[2], &total)
	pages := (total + findingsPageSize - 1) / findingsPageSize
	last := get(t, ts, fmt.Sprintf("/findings?page=%d", pages))
	if got := len(rows.FindAllString(last.body, -1)); got != total-(pages-1)*findingsPageSize {
		t.Errorf("the last page shows %d of %d", got, total)
	}
	if strings.Contains(last.body, `rel="next"`) || !strings.Contains(last.body, `rel="prev"`) {
		t.Error("the last page has a next link, or no previous one")
	}
	// Out of range and nonsense clamp to a page.
	if r := get(t, ts, "/findings?page=9999"); r.code != 200 || !strings.Contains(r.body, fmt.Sprintf("Page %d of %d", pages, pages)) {
		t.Errorf("page 9999: %d", r.code)
	}
	if r := get(t, ts, "/findings?page=-3"); r.code != 200 || !strings.Contains(r.body, fmt.Sprintf("Page 1 of %d", pages)) {
		t.Errorf("page -3: %d", r.code)
	}
	// The filter stays in the page links; every row shown matches it.
	check := rows.FindStringSubmatch(r.body)[1]
	f := get(t, ts, "/findings?check="+check+"&severity=error")
	for _, row := range rows.FindAllStringSubmatch(f.body, -1) {
		if row[1] != check {
			t.Fatalf("filter %s shows %s", check, row[1])
		}
	}
	if strings.Contains(f.body, `data-paged`) && !strings.Contains(f.body, `href="/findings?check=`+check+`&amp;page=2&amp;severity=error"`) {
		t.Error("the next link drops the filter")
	}
	// The API lists every finding, unpaged.
	if api := get(t, ts, "/api/findings"); strings.Count(api.body, `"check": `) < total {
		t.Errorf("the API lists %d findings of %d", strings.Count(api.body, `"check": `)-1, total)
	}
}

// A change is summarised in the background: the summary that fails is
// reported (not hidden behind the last one), and the next good one is
// served.
func TestBackgroundSummaryFailure(t *testing.T) {
	root := sampleCopy(t)
	var fail atomic.Bool
	ts := httptest.NewUnstartedServer(nil)
	h, err := New(Options{Summary: summary.Options{Root: root}, Addr: ts.Listener.Addr().String(), Redactor: scanner(t),
		Ignore: func() (func(string, bool) bool, error) {
			if fail.Load() {
				return nil, errors.New("git check-ignore broke")
			}
			return nil, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = h
	ts.Start()
	t.Cleanup(ts.Close)
	if r := get(t, ts, "/"); r.code != 200 {
		t.Fatalf("/: %d", r.code)
	}
	fail.Store(true)
	wb := filepath.Join(root, "WORKBOARD.yaml")
	b, _ := os.ReadFile(wb)
	os.WriteFile(wb, append(b, "  - id: CTO-WORK-107\n    title: New\n    status: draft\n    blocked_by: []\n    source: WORKBOARD.yaml\n"...), 0o644)
	r := eventually(t, ts, "/workboard", "git check-ignore broke")
	if r.code != 500 {
		t.Fatalf("the failing summary: %d %.200s", r.code, r.body)
	}
	fail.Store(false)
	if r := eventually(t, ts, "/workboard", "item-CTO-WORK-107"); r.code != 200 || !strings.Contains(r.body, "item-CTO-WORK-107") {
		t.Fatalf("after the failure: %d", r.code)
	}
}

// A new summary's main pages are rendered as soon as it is served,
// without a request for them: the reload a change causes finds them ready.
func TestPrerendered(t *testing.T) {
	root := sampleCopy(t)
	ts := httptest.NewUnstartedServer(nil)
	h, err := New(Options{Summary: summary.Options{Root: root}, Addr: ts.Listener.Addr().String(), Redactor: scanner(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = h
	ts.Start()
	t.Cleanup(ts.Close)
	get(t, ts, "/api/token")
	wb := filepath.Join(root, "WORKBOARD.yaml")
	b, _ := os.ReadFile(wb)
	os.WriteFile(wb, append(b, "  - id: CTO-WORK-108\n    title: New\n    status: draft\n    blocked_by: []\n    source: WORKBOARD.yaml\n"...), 0o644)
	before := get(t, ts, "/api/token").body
	for deadline := time.Now().Add(3 * time.Second); get(t, ts, "/api/token").body == before && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	h.mu.Lock()
	tok := h.token
	h.mu.Unlock()
	// Rendered without a request for them, soon after the summary.
	rendered := func() (missing []string, wb string) {
		h.pages.mu.Lock()
		defer h.pages.mu.Unlock()
		for _, g := range h.pages.gens {
			if g.tok != tok {
				continue
			}
			for _, u := range prerendered {
				if p, ok := g.pages[u]; !ok || !p.done.Load() || p.body == nil {
					missing = append(missing, u)
				}
			}
			if p := g.pages["/workboard"]; p != nil && p.done.Load() {
				wb = string(p.body)
			}
			return missing, wb
		}
		return prerendered, ""
	}
	missing, wb := rendered()
	for deadline := time.Now().Add(3 * time.Second); len(missing) > 0 && time.Now().Before(deadline); missing, wb = rendered() {
		time.Sleep(50 * time.Millisecond)
	}
	if len(missing) > 0 {
		t.Fatalf("not rendered for the served summary: %v", missing)
	}
	if !strings.Contains(wb, "item-CTO-WORK-108") {
		t.Error("the prerendered workboard is not of the new summary")
	}
}

// A summary over its caps lists what they allow and counts the rest: the
// findings page says how many it cannot show, and the counts (the
// navigation's, the filter's) cover every finding.
func TestFindingsOverCaps(t *testing.T) {
	root := sampleCopy(t)
	wb := filepath.Join(root, "WORKBOARD.yaml")
	b, _ := os.ReadFile(wb)
	var extra bytes.Buffer
	for i := range 40 {
		fmt.Fprintf(&extra, "  - id: CTO-WORK-%d\n    title: Waits on a ghost\n    status: draft\n    blocked_by: [CTO-WORK-99999]\n    source: WORKBOARD.yaml\n", 2000+i)
	}
	os.WriteFile(wb, append(b, extra.Bytes()...), 0o644)
	all, err := summary.Compute(summary.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	total := all.Findings.Total()
	if total < 40 || all.Findings.Omitted != 0 || len(all.Findings.Items) != total {
		t.Fatalf("uncapped: %d findings, %d listed, %d omitted", total, len(all.Findings.Items), all.Findings.Omitted)
	}
	ts := httptest.NewUnstartedServer(nil)
	h, err := New(Options{Summary: summary.Options{Root: root, MaxFindings: 7}, Addr: ts.Listener.Addr().String(), Redactor: scanner(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = h
	ts.Start()
	t.Cleanup(ts.Close)
	r := get(t, ts, "/findings")
	if n := len(regexp.MustCompile(`<tr data-check="`).FindAllString(r.body, -1)); n != 7 {
		t.Errorf("the page shows %d findings, want the 7 listed", n)
	}
	if want := fmt.Sprintf("Showing 7 of %d findings.", total); !strings.Contains(r.body, want) {
		t.Errorf("no %q in %.1500s", want, r.body[strings.Index(r.body, "<h1>"):])
	}
	if want := fmt.Sprintf(`<p id="findings-omitted">%d findings of the workspace are counted but not listed`, total-7); !strings.Contains(r.body, want) {
		t.Errorf("no %q", want)
	}
	if want := fmt.Sprintf(`Findings <span class="count">%d</span>`, total); !strings.Contains(r.body, want) {
		t.Errorf("the navigation does not count every finding: no %q", want)
	}
	var v FindingsView
	if err := json.Unmarshal([]byte(get(t, ts, "/api/findings").body), &v); err != nil {
		t.Fatal(err)
	}
	if v.Total != total || v.Omitted != total-7 || len(v.Items) != 7 {
		t.Errorf("/api/findings: total %d, omitted %d, %d items; want %d, %d, 7", v.Total, v.Omitted, len(v.Items), total, total-7)
	}
}
