package panel

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/svrnty/sotvet/summary"
)

// maxCachedPages bounds the rendered pages kept for one summary: the
// findings filters make URLs a client chooses.
const maxCachedPages = 64

// minGzip is the smallest body worth compressing.
const minGzip = 1 << 10

// pageCache keeps the rendered, redacted pages of the last two summaries
// (change tokens): the one served and the one being prerendered. Many
// clients asking for a page cost one rendering: a page of a 10,000-
// document workspace takes far longer to render and redact than to send.
type pageCache struct {
	mu   sync.Mutex
	gens []pageGen // newest last, at most two
}

type pageGen struct {
	tok   string
	pages map[string]*cachedPage
}

// cachedPage is one page as it is sent: the redacted body, the same
// compressed once for every client that accepts gzip, and its entity tag.
// Only redacted bytes are ever compressed, so neither form holds a secret
// in clear. The panel reflects no secret an attacker could guess at by
// compression (BREACH): there is no session, no CSRF token, and every
// secret in a page is masked before compression.
type cachedPage struct {
	once sync.Once
	body []byte
	gzip []byte // nil when body is too small to gain from it
	etag string
	err  error
	done atomic.Bool // set once made: body and err may be read
}

// fill sets the page from its redacted body.
func (p *cachedPage) fill(body []byte) {
	p.body = body
	sum := sha256.Sum256(body)
	// Weak: the same tag stands for the plain and the gzip form.
	p.etag = `W/"` + hex.EncodeToString(sum[:12]) + `"`
	if len(body) >= minGzip {
		var buf bytes.Buffer
		buf.Grow(len(body) / 4)
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		zw.Write(body)
		if zw.Close() == nil && buf.Len() < len(body) {
			p.gzip = buf.Bytes()
		}
	}
}

// get returns the page for url under tok, made by make (which returns the
// redacted body) the first time; concurrent callers for one page wait for
// that one rendering.
func (c *pageCache) get(tok, url string, make func() ([]byte, error)) (*cachedPage, error) {
	c.mu.Lock()
	var pages map[string]*cachedPage
	for _, g := range c.gens {
		if g.tok == tok {
			pages = g.pages
		}
	}
	if pages == nil {
		pages = map[string]*cachedPage{}
		c.gens = append(c.gens, pageGen{tok, pages})
		if len(c.gens) > 2 {
			c.gens = c.gens[1:]
		}
	}
	p, ok := pages[url]
	if !ok {
		if len(pages) >= maxCachedPages {
			c.mu.Unlock()
			p = &cachedPage{}
			body, err := make()
			if err != nil {
				return nil, err
			}
			p.fill(body)
			return p, nil
		}
		p = &cachedPage{}
		pages[url] = p
	}
	c.mu.Unlock()
	p.once.Do(func() {
		defer p.done.Store(true)
		body, err := make()
		if err != nil {
			p.err = err
			return
		}
		p.fill(body)
	})
	if p.err != nil {
		return nil, p.err
	}
	return p, nil
}

// summaryPage serves a page made from the summary and the request's URL
// alone, from the page cache: render returns the page and its content
// type.
func (s *Server) summaryPage(w http.ResponseWriter, r *http.Request, contentType string, render func(sum *summary.Summary, tok string) ([]byte, error)) {
	sum, tok, err := s.served(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	p, err := s.pages.get(tok, r.URL.RequestURI(), func() ([]byte, error) {
		b, err := render(sum, tok)
		if err != nil {
			return nil, err
		}
		return s.opt.Redactor.Redact(b), nil
	})
	if err != nil {
		s.fail(w, err)
		return
	}
	s.writeCached(w, r, contentType, p)
}

// writeCached sends a cached page without copying it: 304 when the
// client already holds it (If-None-Match), the gzip form when the client
// accepts it, else the plain body.
func (s *Server) writeCached(w http.ResponseWriter, r *http.Request, contentType string, p *cachedPage) {
	h := w.Header()
	h.Set("Vary", "Accept-Encoding")
	h.Set("ETag", p.etag)
	// Kept, but asked for again every time: the tag makes that cheap.
	h.Set("Cache-Control", "no-cache")
	if etagMatch(r.Header.Get("If-None-Match"), p.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := p.body
	if p.gzip != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		body = p.gzip
	}
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// etagMatch reports whether an If-None-Match header names tag (weak
// comparison, as RFC 9110 asks for If-None-Match).
func etagMatch(header, tag string) bool {
	if header == "" {
		return false
	}
	want := strings.TrimPrefix(tag, "W/")
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == want {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether an Accept-Encoding header accepts gzip
// (by name or by "*") with a quality above zero.
func acceptsGzip(header string) bool {
	gz, star := -1.0, -1.0
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(k, "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				} else {
					q = 0
				}
			}
		}
		switch name = strings.ToLower(strings.TrimSpace(name)); name {
		case "gzip", "x-gzip":
			gz = q
		case "*":
			star = q
		}
	}
	if gz >= 0 {
		return gz > 0
	}
	return star > 0
}

// htmlPage renders a page template for summaryPage.
func (s *Server) htmlPage(name, title string, data func(sum *summary.Summary) any) func(*summary.Summary, string) ([]byte, error) {
	return func(sum *summary.Summary, tok string) ([]byte, error) {
		var d any
		if data != nil {
			d = data(sum)
		}
		return s.render(name, title, sum, tok, d)
	}
}

// jsonPage renders v for summaryPage.
func jsonPage(v func(sum *summary.Summary) any) func(*summary.Summary, string) ([]byte, error) {
	return func(sum *summary.Summary, _ string) ([]byte, error) {
		b, err := json.MarshalIndent(v(sum), "", "  ")
		return append(b, '\n'), err
	}
}

// render executes a page template with the common layout data.
func (s *Server) render(name, title string, sum *summary.Summary, tok string, data any) ([]byte, error) {
	var buf bytes.Buffer
	err := s.tmpl[name].ExecuteTemplate(&buf, "layout", layoutData{
		Title: title, Page: name, Token: tok, Summary: sum, Data: data,
	})
	return buf.Bytes(), err
}
