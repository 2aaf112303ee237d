package panel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/summary"
)

// Limits on what one page shows.
const (
	maxFileShown     = 4 << 20
	maxArtifactShown = 2 << 20
)

var pageNames = []string{"overview", "workboard", "findings", "file", "runs", "run", "approval"}

var funcs = template.FuncMap{
	"stageMark": func(status string) string {
		switch status {
		case "validated":
			return "✔"
		case "documented", "evidence-only":
			return "◐"
		case "in-progress":
			return "…"
		}
		return "○"
	},
	"statusClass": func(s string) string {
		return "st-" + strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
				return r
			}
			return '-'
		}, strings.ToLower(s))
	},
	// verdictText and verdictClass say what verify's verdict on a run is
	// worth, in the CLI's words: green only for a run a trusted key signed.
	"verdictText": func(r summary.Run) string {
		if !r.Verified {
			return "rejected"
		}
		return "valid (" + r.Authenticity + ")"
	},
	"verdictClass": func(r summary.Run) string {
		switch {
		case !r.Verified:
			return "st-no"
		case r.Trusted:
			return "st-yes"
		}
		return "st-warning"
	},
	"yesno": func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	},
	"fileURL": func(p string, line int) string {
		u := (&url.URL{Path: "/files/" + p}).EscapedPath()
		if line > 0 {
			u += "?line=" + strconv.Itoa(line) + "#L" + strconv.Itoa(line)
		}
		return u
	},
	"runURL": func(dir string) string { return (&url.URL{Path: "/runs/" + dir}).EscapedPath() },
	"base":   path.Base,
	"ago":    ago,
	"join":   strings.Join,
}

// ago says how long ago, in the largest whole unit.
func ago(seconds int64) string {
	switch {
	case seconds < 60:
		return strconv.FormatInt(seconds, 10) + " s"
	case seconds < 3600:
		return strconv.FormatInt(seconds/60, 10) + " min"
	case seconds < 48*3600:
		return strconv.FormatInt(seconds/3600, 10) + " h"
	}
	return strconv.FormatInt(seconds/86400, 10) + " days"
}

func parseTemplates() (map[string]*template.Template, error) {
	out := map[string]*template.Template{}
	for _, n := range pageNames {
		t, err := template.New(n).Funcs(funcs).ParseFS(templateFS, "templates/base.html", "templates/"+n+".html")
		if err != nil {
			return nil, err
		}
		out[n] = t
	}
	return out, nil
}

func (s *Server) overview(w http.ResponseWriter, r *http.Request) {
	s.summaryPage(w, r, htmlType, s.htmlPage("overview", "Overview", nil))
}

func (s *Server) workboard(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.summaryPage(w, r, htmlType, s.htmlPage("workboard", "Workboard", func(sum *summary.Summary) any {
		return workboardWindow(sum.Workboard, q.Get("status"), q.Get("page"))
	}))
}

// workboardPageSize is how many items of a column one workboard page
// shows, and how many blocked items it lists.
const workboardPageSize = 200

// WorkboardView is the workboard page: each column's first
// workboardPageSize items, or, for ?status=, one window of that column.
// A link to an item on another window goes to that window.
type WorkboardView struct {
	Blocked     map[string][]summary.Waits // the items waiting, by id
	BlockedList []summary.BlockedItem      // the first of them
	BlockedMore int                        // how many more wait
	Columns     []WorkboardColumn
	Status      string // the one column shown, if any
	where       map[string]string
}

// WorkboardColumn is one status's window of items.
type WorkboardColumn struct {
	Status          string
	Items           []summary.Item
	Total, From, To int
	Page, Pages     int
	Prev, Next      string
}

func workboardWindow(wb summary.Workboard, status, page string) WorkboardView {
	v := WorkboardView{Blocked: map[string][]summary.Waits{}, Status: status, where: map[string]string{}}
	for _, b := range wb.Blocked {
		v.Blocked[b.ID] = b.By
	}
	v.BlockedList = wb.Blocked[:min(len(wb.Blocked), workboardPageSize)]
	v.BlockedMore = len(wb.Blocked) - len(v.BlockedList)
	link := func(status string, n int) string {
		q := url.Values{"status": {status}}
		if n > 1 {
			q.Set("page", strconv.Itoa(n))
		}
		return "/workboard?" + q.Encode()
	}
	for _, c := range wb.Columns {
		pages := max(1, (len(c.Items)+workboardPageSize-1)/workboardPageSize)
		for i, it := range c.Items {
			v.where[it.ID] = link(c.Status, i/workboardPageSize+1)
		}
		if status != "" && c.Status != status {
			continue
		}
		col := WorkboardColumn{Status: c.Status, Total: len(c.Items), Pages: pages, Page: 1}
		if status != "" {
			col.Page, _ = strconv.Atoi(page)
			col.Page = min(max(col.Page, 1), pages)
		}
		lo := (col.Page - 1) * workboardPageSize
		hi := min(lo+workboardPageSize, len(c.Items))
		col.Items, col.From, col.To = c.Items[lo:hi], lo+1, hi
		if status != "" && col.Page > 1 {
			col.Prev = link(c.Status, col.Page-1)
		}
		if col.Page < pages {
			col.Next = link(c.Status, col.Page+1)
		}
		v.Columns = append(v.Columns, col)
	}
	for _, c := range v.Columns {
		for _, it := range c.Items {
			delete(v.where, it.ID)
		}
	}
	return v
}

// ItemHref links the item id: on this page, or on the window showing it.
func (v WorkboardView) ItemHref(id string) string {
	return v.where[id] + "#item-" + id
}

// FindingsView is the findings page and /api/findings: the findings that
// match the filter. The API lists them all; the page shows one window of
// findingsPageSize of them at a time, so that a workspace with many
// thousand findings is not one page of megabytes.
type FindingsView struct {
	Check    string           `json:"check"`
	Severity string           `json:"severity"`
	Checks   []CheckOption    `json:"checks"`
	Total    int              `json:"total"`
	Items    []checks.Finding `json:"items"`
	// Omitted is how many of Total the summary counts but does not list
	// (over its caps): no filter or page shows them.
	Omitted int `json:"omitted"`

	// The page's window of the matching findings: Items[From-1:To] of
	// Matched, page Page of Pages; Prev and Next link the neighbours with
	// the filter kept.
	Matched    int    `json:"-"`
	Page       int    `json:"-"`
	Pages      int    `json:"-"`
	From, To   int    `json:"-"`
	Prev, Next string `json:"-"`
}

// findingsPageSize is how many findings one findings page shows.
const findingsPageSize = 500

// CheckOption is one check of the filter and its number of findings.
type CheckOption struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

func filterFindings(sum *summary.Summary, check, severity string) FindingsView {
	v := FindingsView{Check: check, Severity: severity, Checks: []CheckOption{}, Total: sum.Findings.Total(), Omitted: sum.Findings.Omitted, Items: []checks.Finding{}}
	counts := map[string]int{}
	for _, c := range sum.Findings.ByCheck {
		counts[c.Check] = c.Errors + c.Warnings
	}
	for _, name := range sum.Findings.Checked {
		v.Checks = append(v.Checks, CheckOption{Name: name, Count: counts[name]})
	}
	for _, f := range sum.Findings.Items {
		if (check == "" || f.Check == check) && (severity == "" || string(f.Severity) == severity) {
			v.Items = append(v.Items, f)
		}
	}
	v.Matched = len(v.Items)
	return v
}

// window narrows v.Items to page (1-based, clamped) of findingsPageSize.
func (v *FindingsView) window(page string) {
	v.Pages = max(1, (v.Matched+findingsPageSize-1)/findingsPageSize)
	v.Page, _ = strconv.Atoi(page)
	v.Page = min(max(v.Page, 1), v.Pages)
	lo := (v.Page - 1) * findingsPageSize
	hi := min(lo+findingsPageSize, v.Matched)
	v.Items = v.Items[lo:hi]
	v.From, v.To = lo+1, hi
	link := func(n int) string {
		q := url.Values{}
		if v.Check != "" {
			q.Set("check", v.Check)
		}
		if v.Severity != "" {
			q.Set("severity", v.Severity)
		}
		if n > 1 {
			q.Set("page", strconv.Itoa(n))
		}
		if len(q) == 0 {
			return "/findings"
		}
		return "/findings?" + q.Encode()
	}
	if v.Page > 1 {
		v.Prev = link(v.Page - 1)
	}
	if v.Page < v.Pages {
		v.Next = link(v.Page + 1)
	}
}

func (s *Server) findings(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.summaryPage(w, r, htmlType, s.htmlPage("findings", "Findings", func(sum *summary.Summary) any {
		v := filterFindings(sum, q.Get("check"), q.Get("severity"))
		v.window(q.Get("page"))
		return v
	}))
}

type fileView struct {
	Path     string
	Line     int
	Lines    []fileLine
	Binary   bool
	Findings []checks.Finding // the findings in this file
}

type fileLine struct {
	N       int
	Text    string
	HL      bool // the line asked for
	Finding bool // a finding starts on this line
}

func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	p := r.PathValue("path")
	sum, tok, err := s.served(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	if s.ignored(p) {
		s.notFound(w)
		return
	}
	data, err := openUnder(s.opt.Summary.Root, p, maxFileShown)
	if err != nil {
		s.notFoundOr(w, err)
		return
	}
	v := fileView{Path: p}
	marked := map[int]bool{}
	for _, f := range sum.Findings.Items {
		if f.File == p {
			v.Findings = append(v.Findings, f)
			marked[f.Line] = true
		}
	}
	v.Line, _ = strconv.Atoi(r.URL.Query().Get("line"))
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		v.Binary = true
	} else {
		data = s.opt.Redactor.Redact(data)
		for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			v.Lines = append(v.Lines, fileLine{N: i + 1, Text: l, HL: i+1 == v.Line, Finding: marked[i+1]})
		}
	}
	s.page(w, "file", p, sum, tok, v)
}

// ignored reports whether p, or a directory above it, is one the
// workspace's git ignore rules leave out: the panel shows what the
// checks read, not what git ignores (.env files and the like).
func (s *Server) ignored(p string) bool {
	ign := s.ignoredFunc()
	if ign == nil {
		return false
	}
	segs := strings.Split(p, "/")
	for i := 1; i < len(segs); i++ {
		if ign(strings.Join(segs[:i], "/"), true) {
			return true
		}
	}
	return ign(p, false)
}

// notFoundOr answers 404 for anything that is not there (or not ours to
// show) and 500 for a file that is there but could not be read.
func (s *Server) notFoundOr(w http.ResponseWriter, err error) {
	var pe *fs.PathError
	if errors.Is(err, fs.ErrNotExist) || errors.As(err, &pe) {
		s.notFound(w)
		return
	}
	s.fail(w, err)
}

func (s *Server) runs(w http.ResponseWriter, r *http.Request) {
	s.summaryPage(w, r, htmlType, s.htmlPage("runs", "Runs", nil))
}

// RunView is a run page and /api/runs/{id}.
type RunView struct {
	Run     summary.Run       `json:"run"`
	Events  []Event           `json:"events"`
	Digests []Digest          `json:"artifact_digests"`
	Patch   []PatchLine       `json:"-"`
	TestLog string            `json:"-"`
	Notes   map[string]string `json:"notes"` // artifacts that could not be shown, and why
}

// Event is one normalized event, as the timeline shows it.
type Event struct {
	Seq    int    `json:"seq"`
	Type   string `json:"type"`
	Time   string `json:"time"`
	Source string `json:"source"`
}

// Digest is one artifact's recorded sha256, and whether verify found
// nothing wrong with that artifact.
type Digest struct {
	Artifact string `json:"artifact"`
	SHA256   string `json:"sha256"`
	Verified bool   `json:"verified"`
}

// PatchLine is one line of patch.diff with its kind: add, del, hunk,
// file or context.
type PatchLine struct {
	Kind, Text string
}

func (s *Server) loadRunView(id string) (*RunView, error) {
	root := s.opt.Summary.RunsRoot
	if root == "" || !validRel(id) {
		return nil, fs.ErrNotExist
	}
	run, err := summary.LoadRun(root, id, s.opt.Summary.Trust)
	if err != nil {
		return nil, err
	}
	v := &RunView{Run: run, Events: []Event{}, Digests: []Digest{}, Notes: map[string]string{}}
	read := func(name string) []byte {
		b, err := openUnder(root, id+"/"+name, maxArtifactShown)
		if err != nil {
			v.Notes[name] = err.Error()
			return nil
		}
		return s.opt.Redactor.Redact(b)
	}
	if b := read(evidence.EventsFile); b != nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 64<<10), maxArtifactShown)
		for sc.Scan() {
			var e Event
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				v.Events = append(v.Events, e)
			}
		}
	}
	if b := read(evidence.PatchFile); len(bytes.TrimSpace(b)) > 0 {
		for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			v.Patch = append(v.Patch, PatchLine{Kind: patchKind(l), Text: l})
		}
	}
	v.TestLog = string(read(evidence.TestLog))
	if b := read(evidence.ReportJSON); b != nil {
		var rep struct {
			Digests map[string]string `json:"artifact_digests"`
		}
		if json.Unmarshal(b, &rep) == nil {
			for _, k := range sortedKeys(rep.Digests) {
				ok := true
				for _, viol := range run.Violations {
					ok = ok && !strings.HasPrefix(viol, k+":")
				}
				v.Digests = append(v.Digests, Digest{Artifact: k, SHA256: rep.Digests[k], Verified: ok})
			}
		}
	}
	sort.Slice(v.Events, func(i, j int) bool { return v.Events[i].Seq < v.Events[j].Seq })
	return v, nil
}

func patchKind(l string) string {
	switch {
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "diff "), strings.HasPrefix(l, "index "):
		return "file"
	case strings.HasPrefix(l, "@@"):
		return "hunk"
	case strings.HasPrefix(l, "+"):
		return "add"
	case strings.HasPrefix(l, "-"):
		return "del"
	}
	return "context"
}

func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	s.runPage(w, r, htmlType, func(sum *summary.Summary, tok string, v *RunView) ([]byte, error) {
		return s.render("run", "Run "+v.Run.ID, sum, tok, v)
	})
}

func (s *Server) apiRun(w http.ResponseWriter, r *http.Request) {
	s.runPage(w, r, jsonType, func(_ *summary.Summary, _ string, v *RunView) ([]byte, error) {
		b, err := json.MarshalIndent(v, "", "  ")
		return append(b, '\n'), err
	})
}

// runPage serves a run's page from the page cache: verifying a run reads
// all its artifacts, once per change token however many clients ask (the
// token covers the run directory).
func (s *Server) runPage(w http.ResponseWriter, r *http.Request, contentType string, render func(*summary.Summary, string, *RunView) ([]byte, error)) {
	sum, tok, err := s.served(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	page, err := s.pages.get(tok, r.URL.RequestURI(), func() ([]byte, error) {
		v, err := s.loadRunView(r.PathValue("id"))
		if err != nil {
			return nil, err
		}
		b, err := render(sum, tok, v)
		if err != nil {
			return nil, err
		}
		return s.opt.Redactor.Redact(b), nil
	})
	if err != nil {
		s.notFoundOr(w, err)
		return
	}
	s.writeCached(w, r, contentType, page)
}

func (s *Server) approval(w http.ResponseWriter, r *http.Request) {
	s.summaryPage(w, r, htmlType, s.htmlPage("approval", "Approval packet", nil))
}
