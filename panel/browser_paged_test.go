package panel

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserPaged drives the windows of a large workspace in chromium:
// more findings than a page and more draft items than a column shows.
// The filter goes to the server, the page links keep it, a finding's
// link still opens its line, a dependency link crosses windows, and the
// live poll (answered 304) keeps watching.
func TestBrowserPaged(t *testing.T) {
	needChromium(t)
	root := sampleCopy(t)
	wb := filepath.Join(root, "WORKBOARD.yaml")
	b, _ := os.ReadFile(wb)
	var extra strings.Builder
	for i := range 2*workboardPageSize + 50 {
		fmt.Fprintf(&extra, "  - id: CTO-WORK-%d\n    title: Step %d\n    status: draft\n    blocked_by: [CTO-WORK-%d]\n    source: WORKBOARD.yaml\n", 2000+i, i, 2000+i+1)
	}
	for i := range findingsPageSize + 50 {
		fmt.Fprintf(&extra, "  - id: CTO-WORK-%d\n    title: Waits on a ghost\n    status: draft\n    blocked_by: [CTO-WORK-99999]\n    source: WORKBOARD.yaml\n", 5000+i)
	}
	os.WriteFile(wb, append(b, extra.String()...), 0o644)
	ts := serve(t, root, "")
	ctx, problems := newBrowser(t)
	open := func(path, ready string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+path), chromedp.WaitVisible(ready)); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	rows := `document.querySelectorAll("#findings-table tbody tr").length`

	open("/findings", "#filters")
	if n := eval[int](t, ctx, rows); n != findingsPageSize {
		t.Fatalf("%d rows on the first page", n)
	}
	a11y(t, ctx, "findings (paged)")
	// The filter, picked by keyboard and applied, asks the server.
	steps := eval[int](t, ctx, `[...document.getElementById("f-check").options].findIndex(o => o.value === document.querySelector("#findings-table tbody tr").dataset.check)`)
	act(t, ctx, chromedp.Focus("#f-check"))
	for range steps {
		act(t, ctx, chromedp.KeyEvent(kb.ArrowDown))
	}
	if got := act(t, ctx, chromedp.Text("#findings-count")); !strings.Contains(got, "Apply the filter") {
		t.Errorf("after picking a check the count says %q", got)
	}
	act(t, ctx, chromedp.KeyEvent(kb.Tab))
	act(t, ctx, chromedp.KeyEvent(kb.Tab))
	act(t, ctx, chromedp.KeyEvent(kb.Enter))
	check := ""
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		u, _ := url.Parse(act(t, ctx, chromedp.Location()))
		if check = u.Query().Get("check"); check != "" {
			break
		}
	}
	if check == "" {
		t.Fatal("picking a check on a paged list did not ask the server")
	}
	act(t, ctx, chromedp.WaitVisible("#findings-count"))
	if bad := eval[int](t, ctx, `[...document.querySelectorAll("#findings-table tbody tr")].filter(r => r.dataset.check !== `+fmt.Sprintf("%q", check)+`).length`); bad != 0 {
		t.Errorf("%d rows of another check after filtering on %s", bad, check)
	}
	if got := eval[string](t, ctx, `document.getElementById("f-check").value`); got != check {
		t.Errorf("the filter shows %q after the reload, want %q", got, check)
	}
	// The next page keeps the filter.
	if eval[bool](t, ctx, `!!document.getElementById("page-next")`) {
		if err := chromedp.Do(ctx, chromedp.Click("#page-next"), chromedp.WaitVisible("#page-prev")); err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(act(t, ctx, chromedp.Location()))
		if u.Query().Get("check") != check || u.Query().Get("page") != "2" {
			t.Errorf("the next page is %s", u)
		}
	}
	// A finding's link opens its line.
	link := eval[string](t, ctx, `document.querySelector("a.loc").textContent`)
	parts := strings.Split(link, ":")
	if err := chromedp.Do(ctx, chromedp.Click("a.loc"), chromedp.WaitVisible("tr.hl")); err != nil {
		t.Fatal(err)
	}
	if id := eval[string](t, ctx, `document.querySelector("tr.hl").id`); len(parts) != 3 || id != "L"+parts[1] {
		t.Errorf("highlighted %s for %s", id, link)
	}

	// The workboard: a dependency on an item of the next window goes there.
	open("/workboard", ".columns")
	a11y(t, ctx, "workboard (windowed)")
	href := eval[string](t, ctx, `[...document.querySelectorAll(".deps a")].map(a => a.getAttribute("href")).find(h => h.startsWith("/workboard?"))`)
	if href == "" {
		t.Fatal("no dependency link to another window")
	}
	act(t, ctx, chromedp.Click(`.deps a[href="`+href+`"]`))
	id := href[strings.Index(href, "#")+1:]
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#"+id)); err != nil {
		t.Fatalf("after %s: %v", href, err)
	}
	if got := eval[string](t, ctx, `location.pathname + location.search + location.hash`); got != href {
		t.Errorf("at %s, want %s", got, href)
	}
	// The live poll, answered 304 while nothing changes, keeps watching.
	time.Sleep(1500 * time.Millisecond)
	if live := act(t, ctx, chromedp.Text("#live")); !strings.Contains(live, "watching") {
		t.Errorf("live status %q", live)
	}
	for _, p := range problems() {
		t.Errorf("browser console: %s", p)
	}
}
