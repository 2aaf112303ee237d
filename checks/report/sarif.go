package report

import (
	"bufio"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/svrnty/sotvet/checks"
)

const (
	sarifSchema      = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion     = "2.1.0"
	sarifInfoURI     = "https://github.com/svrnty/sotvet"
	sarifSrcRoot     = "%SRCROOT%"
	sarifFingerprint = "sotvetFingerprint/v1"
)

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	ShortDescription     sarifText          `json:"shortDescription"`
	FullDescription      sarifText          `json:"fullDescription"`
	Help                 sarifHelp          `json:"help"`
	HelpURI              string             `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// writeSARIF writes a SARIF 2.1.0 log with one run. A check's findings
// have the rule "check/category" (one per category the check declares in
// its Rule), or "check" when they have no category; rules come from
// opt.Rules in the order given (duplicates dropped), and a finding with no
// rule gets a minimal one appended, so every result's ruleIndex is valid.
// Paths are relative URIs under %SRCROOT%, which originalUriBaseIds
// resolves to opt.SrcRoot when given; an absolute path is a file: URI.
func writeSARIF(buf *bufio.Writer, res *checks.Result, opt Options) error {
	driver := sarifDriver{
		Name:           opt.Tool,
		Version:        opt.Version,
		InformationURI: sarifInfoURI,
		Rules:          []sarifRule{},
	}
	index := map[string]int{}
	addRule := func(r sarifRule) {
		if _, dup := index[r.ID]; dup {
			return
		}
		index[r.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, r)
	}
	byName := map[string]Rule{}
	for _, r := range opt.Rules {
		byName[r.Name] = r
		if len(r.Categories) == 0 {
			addRule(sarifRuleOf(r))
		}
		for _, c := range r.Categories {
			addRule(sarifCategoryRule(r, c))
		}
	}
	for i := range res.Findings {
		f := &res.Findings[i]
		r, ok := byName[f.Check]
		if !ok {
			r = Rule{Name: f.Check}
		}
		if f.Category == "" {
			addRule(sarifRuleOf(r))
		} else {
			addRule(sarifCategoryRule(r, f.Category))
		}
	}

	var baseIDs map[string]sarifArtifactLocation
	if opt.SrcRoot != "" {
		root := filepath.ToSlash(opt.SrcRoot)
		if !strings.HasSuffix(root, "/") {
			root += "/"
		}
		baseIDs = map[string]sarifArtifactLocation{
			sarifSrcRoot: {URI: (&url.URL{Scheme: "file", Path: root}).String()},
		}
	}

	// The log is written as encoding/json would encode a sarifLog, the
	// results one at a time.
	j := newJSONWriter(buf)
	j.open('{')
	j.key("$schema")
	j.str(sarifSchema)
	j.key("version")
	j.str(sarifVersion)
	j.key("runs")
	j.open('[')
	j.elem()
	j.open('{')
	j.key("tool")
	if err := j.value(sarifTool{Driver: driver}); err != nil {
		return err
	}
	if baseIDs != nil {
		j.key("originalUriBaseIds")
		if err := j.value(baseIDs); err != nil {
			return err
		}
	}
	j.key("results")
	j.open('[')
	uris := uriCache{}
	var lastCheck, lastCategory, lastID string // findings of one rule come in runs
	for i := range res.Findings {
		f := &res.Findings[i]
		if f.Check != lastCheck || f.Category != lastCategory {
			lastCheck, lastCategory, lastID = f.Check, f.Category, ruleID(f)
		}
		id := lastID
		j.elem()
		j.open('{')
		j.key("ruleId")
		j.str(id)
		j.key("ruleIndex")
		j.int(index[id])
		j.key("level")
		j.str(string(severity(f)))
		j.key("message")
		j.open('{')
		j.key("text")
		j.str(f.Message)
		j.close('}')
		if f.File != "" {
			rg := regionOf(f)
			uri, base := uris.of(f.File), sarifSrcRoot
			if path.IsAbs(f.File) {
				uri, base = (&url.URL{Scheme: "file", Path: f.File}).String(), ""
			}
			j.key("locations")
			j.open('[')
			j.elem()
			j.open('{')
			j.key("physicalLocation")
			writeSARIFPhysical(j, uri, base, region{rg.startLine, rg.startCol, rg.endLine, rg.endCol})
			j.close('}')
			j.close(']')
		}
		if len(f.Related) > 0 {
			j.key("relatedLocations")
			j.open('[')
			for k, rel := range f.Related {
				j.elem()
				j.open('{')
				j.key("id")
				j.int(k + 1)
				j.key("physicalLocation")
				l, c := max(rel.Line, 1), max(rel.Col, 1)
				writeSARIFPhysical(j, uris.of(rel.File), sarifSrcRoot, region{l, c, l, c})
				j.key("message")
				j.open('{')
				j.key("text")
				j.str(rel.Message)
				j.close('}')
				j.close('}')
			}
			j.close(']')
		}
		if f.Fingerprint != "" {
			j.key("partialFingerprints")
			j.open('{')
			j.key(sarifFingerprint)
			j.str(f.Fingerprint)
			j.close('}')
		}
		j.close('}')
	}
	j.close(']')
	j.close('}')
	j.close(']')
	j.close('}')
	j.b = append(j.b, '\n')
	j.flush()
	return nil
}

// writeSARIFPhysical writes a physicalLocation object.
func writeSARIFPhysical(j *jsonWriter, uri, base string, rg region) {
	j.open('{')
	j.key("artifactLocation")
	j.open('{')
	j.key("uri")
	j.str(uri)
	if base != "" {
		j.key("uriBaseId")
		j.str(base)
	}
	j.close('}')
	j.key("region")
	j.open('{')
	j.key("startLine")
	j.int(rg.startLine)
	j.key("startColumn")
	j.int(rg.startCol)
	j.key("endLine")
	j.int(rg.endLine)
	j.key("endColumn")
	j.int(rg.endCol)
	j.close('}')
	j.close('}')
}

// uriCache remembers the URI of the last file: findings come by file.
type uriCache struct{ file, uri string }

func (c *uriCache) of(file string) string {
	if file != c.file || c.uri == "" {
		c.file, c.uri = file, fileURI(file)
	}
	return c.uri
}

// ruleID is the SARIF rule of a finding: check/category, or the check.
func ruleID(f *checks.Finding) string {
	if f.Category == "" {
		return f.Check
	}
	return f.Check + "/" + f.Category
}

// sarifRuleOf fills the descriptions SARIF consumers display, falling back
// from the Doc to the Short description to the name so that none is empty.
func sarifRuleOf(r Rule) sarifRule {
	short := firstNonEmpty(r.Short, r.Name)
	full := firstNonEmpty(r.Doc, short)
	return sarifRule{
		ID:                   r.Name,
		ShortDescription:     sarifText{Text: short},
		FullDescription:      sarifText{Text: full},
		Help:                 sarifHelp{Text: full, Markdown: full},
		HelpURI:              r.URL,
		DefaultConfiguration: sarifConfiguration{Level: string(checks.SeverityError)},
	}
}

// sarifCategoryRule is the rule of one category of a check: its short
// description names the category within the check; the help is the check's.
func sarifCategoryRule(r Rule, category string) sarifRule {
	sr := sarifRuleOf(r)
	sr.ID = r.Name + "/" + category
	if r.Warning[category] {
		sr.DefaultConfiguration.Level = string(checks.SeverityWarning)
	}
	what := strings.ReplaceAll(category, "-", " ")
	if r.Short != "" {
		sr.ShortDescription = sarifText{Text: fmt.Sprintf("%s: %s (%s)", r.Name, what, r.Short)}
	} else {
		sr.ShortDescription = sarifText{Text: fmt.Sprintf("%s: %s", r.Name, what)}
	}
	return sr
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// fileURI turns a slash-separated relative path into a relative URI
// reference, percent-encoding what a URI cannot hold (spaces, '%', '#', '?').
func fileURI(path string) string {
	u := url.URL{Path: path}
	return u.String()
}
