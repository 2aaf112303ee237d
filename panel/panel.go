// Package panel serves the control summary as a read-only web panel: the
// overview with the proof ladder, the workboard, the findings with the
// files they point into, the runs with their evidence, and the approval
// packet. Its only inputs are the workspace and the runs root.
//
// It is read-only and defensive: only GET and HEAD are served; the Host
// header must name the address the panel is bound to (DNS rebinding);
// every response carries a strict Content-Security-Policy and no inline
// script; a path parameter is opened under its root (os.Root), so "..",
// absolute paths and links out of the workspace or the runs root are not
// found; every page and API response passes through the secrets engine's
// redaction before it leaves.
package panel

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/svrnty/sotvet/summary"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// DefaultAddr is the address the panel binds when none is given.
const DefaultAddr = "127.0.0.1:8742"

// CSP is the Content-Security-Policy of every response: scripts and
// styles from the panel itself only, nothing inline, no framing.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Redactor removes secrets from bytes (the secrets engine's Scanner).
type Redactor interface {
	Redact([]byte) []byte
}

// Options configure a panel.
type Options struct {
	// Summary says where the workspace and the runs root are and which
	// checks run, as for sotvet summary.
	Summary summary.Options
	// Addr is the address the panel listens on (host:port, the port
	// resolved): the Host header must name it.
	Addr string
	// Redactor redacts every response; required.
	Redactor Redactor
	// Ignore, when set, gives the workspace's ignore rules afresh (git's,
	// as sotvet check asks for them); it is called again whenever the
	// workspace changes, so a file ignored after the start stays unseen.
	Ignore func() (func(path string, dir bool) bool, error)
}

// Server is the panel's http.Handler.
type Server struct {
	opt   Options
	tmpl  map[string]*template.Template
	mux   *http.ServeMux
	hosts hostRule

	// The summary served and its token; computing while a newer one is
	// computed in the background; err, the failure of the summary of
	// errTok.
	mu        sync.Mutex
	token     string
	cached    *summary.Summary
	computing bool
	err       error
	errTok    string

	// The change token of the files on disk (changeToken): walked at
	// most once per tokenInterval, one walk at a time, so that many
	// clients do not each walk a large workspace.
	tokMu   sync.Mutex
	tok     string
	tokAt   time.Time
	tokWalk chan struct{} // closed when the walk in flight ends

	pages pageCache
}

// tokenInterval is how long a walked change token is reused: well within
// the two seconds in which the panel promises to see a change.
const tokenInterval = 250 * time.Millisecond

// ignoredFunc returns the ignore rules the current summary used.
func (s *Server) ignoredFunc() func(string, bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opt.Summary.Ignored
}

// New returns the panel for opt.
func New(opt Options) (*Server, error) {
	if opt.Redactor == nil {
		return nil, errors.New("panel: no redactor")
	}
	if opt.Summary.Root == "" {
		return nil, errors.New("panel: no workspace")
	}
	hr, err := newHostRule(opt.Addr)
	if err != nil {
		return nil, err
	}
	if opt.Summary.VerifyCache == nil {
		// Verify again only the runs that changed since the last summary.
		opt.Summary.VerifyCache = summary.NewVerifyCache()
	}
	s := &Server{opt: opt, hosts: hr, mux: http.NewServeMux()}
	if s.tmpl, err = parseTemplates(); err != nil {
		return nil, err
	}
	s.routes()
	return s, nil
}

func (s *Server) routes() {
	s.mux.HandleFunc("GET /{$}", s.overview)
	s.mux.HandleFunc("GET /workboard", s.workboard)
	s.mux.HandleFunc("GET /findings", s.findings)
	s.mux.HandleFunc("GET /files/{path...}", s.file)
	s.mux.HandleFunc("GET /runs", s.runs)
	s.mux.HandleFunc("GET /runs/{id...}", s.run)
	s.mux.HandleFunc("GET /approval", s.approval)
	s.mux.HandleFunc("GET /api/cto/control-summary", s.apiSummary)
	s.mux.HandleFunc("GET /api/findings", s.apiFindings)
	s.mux.HandleFunc("GET /api/runs/{id...}", s.apiRun)
	s.mux.HandleFunc("GET /api/token", s.apiToken)
	s.mux.HandleFunc("GET /static/{name}", s.static)
}

// ServeHTTP applies the rules every request meets, then routes it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "read-only panel: only GET and HEAD", http.StatusMethodNotAllowed)
		return
	}
	if !s.hosts.allows(r.Host) {
		http.Error(w, "host not allowed: the panel answers to the address it is bound to", http.StatusForbidden)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// hostRule is which Host headers the panel answers. A name other than
// "localhost" is never accepted: a DNS rebinding attack needs one.
type hostRule struct {
	port        string
	loopback    bool   // bound to a loopback address
	unspecified bool   // bound to every address (0.0.0.0, ::)
	ip          net.IP // the bound address otherwise
}

func newHostRule(addr string) (hostRule, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return hostRule{}, fmt.Errorf("panel: address %q: %w", addr, err)
	}
	hr := hostRule{port: port}
	switch ip := net.ParseIP(host); {
	case host == "localhost" || (ip != nil && ip.IsLoopback()):
		hr.loopback = true
	case host == "" || (ip != nil && ip.IsUnspecified()):
		hr.unspecified = true
	case ip != nil:
		hr.ip = ip
	default:
		return hostRule{}, fmt.Errorf("panel: bind to an IP address or localhost, not %q", host)
	}
	return hr, nil
}

// CheckAddr reports whether addr is an address the panel can bind and
// check Host headers against: an IP address or localhost, and a port.
func CheckAddr(addr string) error {
	_, err := newHostRule(addr)
	return err
}

// Loopback reports whether addr binds the loopback interface only.
func Loopback(addr string) bool {
	hr, err := newHostRule(addr)
	return err == nil && hr.loopback
}

func (hr hostRule) allows(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil && hr.port == "80" {
		// Browsers leave the default port out of Host.
		host, port, err = hostport, "80", nil
	}
	if err != nil || host == "" || port != hr.port {
		return false
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	switch {
	case strings.EqualFold(host, "localhost"):
		return hr.loopback || hr.unspecified
	case ip == nil:
		return false
	case hr.loopback:
		return ip.IsLoopback()
	case hr.unspecified:
		return true
	}
	return ip.Equal(hr.ip)
}

// current returns the summary to serve and its token. The first summary
// is computed while the caller waits; after that, a change on disk starts
// one computation in the background and every request is served the last
// summary until the new one is ready: no request waits for a summary of a
// large workspace, and the live poll (apiToken), which reports the served
// token, reloads a page once, onto the new summary.
func (s *Server) current() (*summary.Summary, string, error) {
	tok := s.changeToken()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.cached != nil && tok == s.token:
		return s.cached, s.token, nil
	case s.cached == nil:
		opt, err := s.summaryOptions()
		if err == nil {
			var sum *summary.Summary
			if sum, err = summary.Compute(opt); err == nil {
				s.opt.Summary.Ignored, s.cached, s.token = opt.Ignored, sum, tok
				s.err, s.errTok = nil, ""
				return sum, tok, nil
			}
		}
		s.err, s.errTok = err, tok
		return nil, "", err
	}
	s.startRecompute(tok)
	if s.errTok == tok {
		// The summary of the files as they are fails: say so (it is
		// being tried again) rather than serve one that is out of date.
		return nil, "", s.err
	}
	return s.cached, s.token, nil
}

// served returns the summary a request renders: the one pinned by a
// prerendering, else the current one.
func (s *Server) served(r *http.Request) (*summary.Summary, string, error) {
	if p, ok := r.Context().Value(summaryKey{}).(pinned); ok {
		return p.sum, p.tok, nil
	}
	return s.current()
}

// summaryOptions returns the summary options with the workspace's ignore
// rules asked for afresh.
func (s *Server) summaryOptions() (summary.Options, error) {
	opt := s.opt.Summary
	if s.opt.Ignore != nil {
		ign, err := s.opt.Ignore()
		if err != nil {
			return opt, err
		}
		opt.Ignored = ign
	}
	return opt, nil
}

// startRecompute starts computing the summary of tok in the background
// unless a computation runs already (it is started again, for the newer
// token, by the next request or walk after it ends). s.mu is held.
func (s *Server) startRecompute(tok string) {
	if !s.computing {
		s.computing = true
		go s.recompute(s.opt.Summary, tok)
	}
}

// recompute computes the summary of tok, serves it, and renders the pages
// most asked for.
func (s *Server) recompute(opt summary.Options, tok string) {
	var sum *summary.Summary
	var err error
	if s.opt.Ignore != nil {
		opt.Ignored, err = s.opt.Ignore()
	}
	if err == nil {
		sum, err = summary.Compute(opt)
	}
	s.mu.Lock()
	s.computing = false
	if err != nil {
		s.err, s.errTok = err, tok
		s.mu.Unlock()
		return
	}
	s.opt.Summary.Ignored, s.cached, s.token = opt.Ignored, sum, tok
	s.err, s.errTok = nil, ""
	s.mu.Unlock()
	s.prerender(sum, tok)
}

// prerendered are the pages rendered as soon as a summary is served, so
// that the reload a change causes finds them ready or under way.
var prerendered = []string{"/", "/workboard", "/findings", "/runs", "/approval"}

// prerender renders prerendered into the page cache for sum and tok.
func (s *Server) prerender(sum *summary.Summary, tok string) {
	for _, u := range prerendered {
		r, err := http.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			continue
		}
		r = r.WithContext(context.WithValue(r.Context(), summaryKey{}, pinned{sum, tok}))
		s.mux.ServeHTTP(discardWriter{}, r)
	}
}

// summaryKey carries a pinned summary in a prerendering request's
// context: it renders the summary not yet served.
type summaryKey struct{}

type pinned struct {
	sum *summary.Summary
	tok string
}

// discardWriter is the ResponseWriter of a prerendering: the page
// cache keeps the page, the response goes nowhere.
type discardWriter struct{}

func (discardWriter) Header() http.Header         { return http.Header{} }
func (discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (discardWriter) WriteHeader(int)             {}

// changeToken returns the change token. The first call walks the files
// (concurrent callers wait for that one walk); after that, a token older
// than tokenInterval is walked again in the background, one walk at a
// time, and callers get the last token meanwhile: no request waits for a
// walk of a large workspace, and a change on disk is seen within
// tokenInterval plus one walk.
func (s *Server) changeToken() string {
	s.tokMu.Lock()
	for s.tok == "" && s.tokWalk != nil {
		wait := s.tokWalk
		s.tokMu.Unlock()
		<-wait
		s.tokMu.Lock()
	}
	switch {
	case s.tok == "":
		done := make(chan struct{})
		s.tokWalk = done
		s.tokMu.Unlock()
		s.refreshToken(done)
		s.tokMu.Lock()
	case s.tokWalk == nil && time.Since(s.tokAt) >= tokenInterval:
		done := make(chan struct{})
		s.tokWalk = done
		go s.refreshToken(done)
	}
	tok := s.tok
	s.tokMu.Unlock()
	return tok
}

// refreshToken walks the files, records the token and closes done.
func (s *Server) refreshToken(done chan struct{}) {
	tok := s.walkToken()
	s.tokMu.Lock()
	s.tok, s.tokAt, s.tokWalk = tok, time.Now(), nil
	s.tokMu.Unlock()
	close(done)
	// A change starts its summary at once, not at the next request.
	s.mu.Lock()
	if s.cached != nil && tok != s.token {
		s.startRecompute(tok)
	}
	s.mu.Unlock()
}

// walkToken digests the name, size and modification time of every
// file under the workspace and the runs root (minus .git and the copied
// workspaces of runs): it changes when anything the summary reads does.
func (s *Server) walkToken() string {
	h := sha256.New()
	walk := func(root string, skipRunTrees bool) {
		if root == "" {
			return
		}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			name := d.Name()
			if d.IsDir() && (name == ".git" || (skipRunTrees && (name == "workspace" || name == "tmp"))) {
				return filepath.SkipDir
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			fmt.Fprintf(h, "%s\x00%d\x00%d\n", p, info.Size(), info.ModTime().UnixNano())
			return nil
		})
	}
	walk(s.opt.Summary.Root, false)
	walk(s.opt.Summary.RunsRoot, true)
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// send redacts body and writes it.
func (s *Server) send(w http.ResponseWriter, status int, contentType string, body []byte) {
	s.write(w, status, contentType, s.opt.Redactor.Redact(body))
}

// write writes body, already redacted.
func (s *Server) write(w http.ResponseWriter, status int, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if w.Header().Get("Cache-Control") == "" {
		w.Header().Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	w.Write(body)
}

func (s *Server) sendJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		s.fail(w, err)
		return
	}
	s.send(w, status, "application/json; charset=utf-8", append(b, '\n'))
}

func (s *Server) fail(w http.ResponseWriter, err error) {
	s.send(w, http.StatusInternalServerError, "text/plain; charset=utf-8", []byte("sotvet panel: "+err.Error()+"\n"))
}

func (s *Server) notFound(w http.ResponseWriter) {
	s.send(w, http.StatusNotFound, "text/plain; charset=utf-8", []byte("404 not found\n"))
}

// page renders a page template with the common layout data.
func (s *Server) page(w http.ResponseWriter, name, title string, sum *summary.Summary, tok string, data any) {
	b, err := s.render(name, title, sum, tok, data)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.send(w, http.StatusOK, "text/html; charset=utf-8", b)
}

type layoutData struct {
	Title   string
	Page    string
	Token   string
	Summary *summary.Summary
	Data    any
}

func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	b, err := staticFS.ReadFile("static/" + name)
	if err != nil || strings.Contains(name, "/") {
		s.notFound(w)
		return
	}
	ct := "text/plain; charset=utf-8"
	switch filepath.Ext(name) {
	case ".css":
		ct = "text/css; charset=utf-8"
	case ".js":
		ct = "text/javascript; charset=utf-8"
	case ".svg":
		ct = "image/svg+xml"
	}
	s.send(w, http.StatusOK, ct, b)
}

// apiToken answers the live poll with the token of the summary served
// (a page reloads once its new summary is ready): 304 while the client's
// tag names it, so that a page left open costs a header twice a second.
func (s *Server) apiToken(w http.ResponseWriter, r *http.Request) {
	_, tok, err := s.current()
	if err != nil {
		s.fail(w, err)
		return
	}
	etag := `W/"` + tok + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	if etagMatch(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	// The key is "change", not "token": the redactor masks a random value
	// under a secret's name (a "token" showed as "****", always the same,
	// so no change ever showed), and this digest holds nothing secret.
	s.sendJSON(w, http.StatusOK, map[string]string{"change": tok})
}

func (s *Server) apiSummary(w http.ResponseWriter, r *http.Request) {
	s.summaryPage(w, r, jsonType, jsonPage(func(sum *summary.Summary) any { return sum }))
}

func (s *Server) apiFindings(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.summaryPage(w, r, jsonType, jsonPage(func(sum *summary.Summary) any {
		return filterFindings(sum, q.Get("check"), q.Get("severity"))
	}))
}

const (
	jsonType = "application/json; charset=utf-8"
	htmlType = "text/html; charset=utf-8"
)

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// validRel reports whether p is a clean relative slash path that stays
// under its root by name: no "..", no absolute path, no backslash, no
// NUL, no .git. Links are then refused by os.Root.
func validRel(p string) bool {
	if p == "" || strings.ContainsAny(p, "\\\x00") || strings.HasPrefix(p, "/") {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." || seg == ".git" {
			return false
		}
	}
	return true
}

// openUnder reads the regular file rel under root, at most limit bytes.
func openUnder(root, rel string, limit int64) ([]byte, error) {
	if !validRel(rel) {
		return nil, fs.ErrNotExist
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := r.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fs.ErrNotExist
	}
	if info.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes, over the %d-byte limit", rel, info.Size(), limit)
	}
	return io.ReadAll(io.LimitReader(f, limit))
}
