package panel

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/svrnty/sotvet/summary"
)

// maxCachedPages bounds the rendered pages kept for one summary: the
// findings filters make URLs a client chooses.
const maxCachedPages = 64

// pageCache keeps the rendered, redacted pages of one summary (one change
// token), so that many clients asking for a page cost one rendering: a
// page of a 10,000-document workspace takes far longer to render and
// redact than to send.
type pageCache struct {
	mu    sync.Mutex
	tok   string
	pages map[string]*cachedPage
}

type cachedPage struct {
	once sync.Once
	body []byte
	err  error
}

// get returns the page for url under tok, made by make the first time;
// concurrent callers for one page wait for that one rendering.
func (c *pageCache) get(tok, url string, make func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	if c.tok != tok || c.pages == nil {
		c.tok, c.pages = tok, map[string]*cachedPage{}
	}
	p, ok := c.pages[url]
	if !ok {
		if len(c.pages) >= maxCachedPages {
			c.mu.Unlock()
			return make()
		}
		p = &cachedPage{}
		c.pages[url] = p
	}
	c.mu.Unlock()
	p.once.Do(func() { p.body, p.err = make() })
	return p.body, p.err
}

// summaryPage serves a page made from the summary and the request's URL
// alone, from the page cache: render returns the page and its content
// type.
func (s *Server) summaryPage(w http.ResponseWriter, r *http.Request, contentType string, render func(sum *summary.Summary, tok string) ([]byte, error)) {
	sum, tok, err := s.current()
	if err != nil {
		s.fail(w, err)
		return
	}
	body, err := s.pages.get(tok, r.URL.RequestURI(), func() ([]byte, error) {
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
	s.write(w, http.StatusOK, contentType, body)
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
