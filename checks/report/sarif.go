package report

import (
	"bufio"
	"fmt"
	"net/url"
	"path"
	"strconv"
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

// sarifRule is a rule's metadata, kept short: a log has a rule per check
// and category (hundreds), and the full documentation lives at helpUri
// (and in sotvet explain), not in every log.
type sarifRule struct {
	ID                   string             `json:"id"`
	ShortDescription     sarifText          `json:"shortDescription"`
	HelpURI              string             `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifArtifactLocation struct {
	URI         string     `json:"uri,omitempty"`
	URIBaseID   string     `json:"uriBaseId,omitempty"`
	Description *sarifText `json:"description,omitempty"`
}

// sarifBaseIDs defines %SRCROOT% without its absolute URI: a log uploaded
// from CI must not carry the runner's paths, and code scanning resolves
// the base to the checkout itself.
var sarifBaseIDs = map[string]sarifArtifactLocation{
	sarifSrcRoot: {Description: &sarifText{Text: "The root of the git repository (outside git, the directory sotvet ran in): every relative uri is under it."}},
}

// writeSARIF writes a SARIF 2.1.0 log with one run. A check's findings
// have the rule "check/category" (one per category the check declares in
// its Rule), or "check" when they have no category; rules come from
// opt.Rules in the order given (duplicates dropped), and a finding with no
// rule gets a minimal one appended, so every result's ruleIndex is valid.
// Paths are relative URIs under %SRCROOT%, which originalUriBaseIds
// describes (without the absolute path) when opt.SrcRoot is given; an
// absolute path is a file: URI.
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
	found := foundRules(res.Findings)
	for _, r := range opt.Rules {
		byName[r.Name] = r
		if len(r.Categories) == 0 || !found[ruleKey{r.Name, ""}] {
			// A check that ran without a finding is one rule: the log
			// still says it ran, in a few hundred bytes, not one rule
			// per category (hundreds in all).
			addRule(sarifRuleOf(r))
			continue
		}
		for _, c := range r.Categories {
			if found[ruleKey{r.Name, c}] {
				addRule(sarifCategoryRule(r, c))
			}
		}
	}
	// A finding's rule is looked up once per check and category, and once
	// per run of findings of one rule; its ID and index are encoded then.
	rules := map[ruleKey]int{} // -> index in driver.Rules
	ruleOf := make([]int32, len(res.Findings))
	last := -1
	for i := range res.Findings {
		f := &res.Findings[i]
		if last >= 0 && f.Check == res.Findings[i-1].Check && f.Category == res.Findings[i-1].Category {
			ruleOf[i] = int32(last)
			continue
		}
		k := ruleKey{f.Check, f.Category}
		n, seen := rules[k]
		if !seen {
			id := ruleID(f)
			if _, ok := index[id]; !ok {
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
			n = index[id]
			rules[k] = n
		}
		ruleOf[i], last = int32(n), n
	}

	var baseIDs map[string]sarifArtifactLocation
	if opt.SrcRoot != "" {
		baseIDs = sarifBaseIDs
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
	writeSARIFTool(j, &driver)
	if baseIDs != nil {
		j.key("originalUriBaseIds")
		if err := j.value(baseIDs); err != nil {
			return err
		}
	}
	if note := omittedNote(res, opt); note != "" {
		// The findings beyond the caps: a notification of the run, so a
		// capped log is never read as complete.
		level := "note"
		if omittedFail(res, opt.FailOn) {
			level = "error"
		}
		j.key("invocations")
		if err := j.value([]map[string]any{{
			"executionSuccessful": true,
			"toolExecutionNotifications": []map[string]any{{
				"level":   level,
				"message": map[string]string{"text": note},
			}},
			"properties": map[string]any{"omitted": res.Omitted},
		}}); err != nil {
			return err
		}
	}
	j.key("results")
	j.open('[')
	w := newSARIFResult(len(j.count), driver.Rules)
	for i := range res.Findings {
		j.elem()
		j.b = w.append(j.b, &res.Findings[i], int(ruleOf[i]))
		if len(j.b) > 32<<10 {
			j.flush()
		}
	}
	j.count[len(j.count)-1] = len(res.Findings)
	j.close(']')
	j.close('}')
	j.close(']')
	j.close('}')
	j.b = append(j.b, '\n')
	j.flush()
	return nil
}

// writeSARIFTool writes the tool object as encoding/json encodes a
// sarifTool: the rules' documentation is megabytes, with many rules.
func writeSARIFTool(j *jsonWriter, d *sarifDriver) {
	text := func(key, s string) {
		j.key(key)
		j.open('{')
		j.key("text")
		j.str(s)
		j.close('}')
	}
	j.open('{')
	j.key("driver")
	j.open('{')
	j.key("name")
	j.str(d.Name)
	if d.Version != "" {
		j.key("version")
		j.str(d.Version)
	}
	j.key("informationUri")
	j.str(d.InformationURI)
	j.key("rules")
	j.open('[')
	for i := range d.Rules {
		r := &d.Rules[i]
		j.elem()
		j.open('{')
		j.key("id")
		j.str(r.ID)
		text("shortDescription", r.ShortDescription.Text)
		if r.HelpURI != "" {
			j.key("helpUri")
			j.str(r.HelpURI)
		}
		j.key("defaultConfiguration")
		j.open('{')
		j.key("level")
		j.str(r.DefaultConfiguration.Level)
		j.close('}')
		j.close('}')
	}
	j.close(']')
	j.close('}')
	j.close('}')
}

// sarifResult writes a result as jsonWriter would, member by member, but
// with the keys and indentation appended as they are, and a rule's ID and
// index encoded once: a log has tens of thousands of results.
type sarifResult struct {
	in         [6]string // a newline and the indentation k levels below the result
	sep        [6]string // "," before in[k]
	ruleMember [][]byte  // by rule index: "ruleId": ..., "ruleIndex": ...
	uris       uriCache
}

// newSARIFResult prepares to write results as the elements of an array at
// depth d (the number of objects and arrays open) with the given rules.
func newSARIFResult(d int, rules []sarifRule) *sarifResult {
	w := &sarifResult{ruleMember: make([][]byte, len(rules))}
	for k := range w.in {
		w.in[k] = indent(d + k)
		w.sep[k] = "," + w.in[k]
	}
	for n, r := range rules {
		var b []byte
		b = append(b, `"ruleId": `...)
		b = appendJSONString(b, r.ID)
		b = append(b, w.sep[1]...)
		b = append(b, `"ruleIndex": `...)
		w.ruleMember[n] = strconv.AppendInt(b, int64(n), 10)
	}
	return w
}

func (w *sarifResult) append(b []byte, f *checks.Finding, rule int) []byte {
	b = append(b, '{')
	b = append(b, w.in[1]...)
	b = append(b, w.ruleMember[rule]...)
	b = append(b, w.sep[1]...)
	if sev := severity(f); sev != checks.SeverityError {
		b = append(b, `"level": "`...)
		b = append(b, sev...)
		b = append(b, '"')
	} else {
		b = append(b, `"level": "error"`...)
	}
	b = append(b, w.sep[1]...)
	b = append(b, `"message": {`...)
	b = append(b, w.in[2]...)
	b = append(b, `"text": `...)
	b = appendJSONString(b, f.Message)
	b = append(b, w.in[1]...)
	b = append(b, '}')
	if f.File != "" {
		uri, base := w.uris.of(f.File), sarifSrcRoot
		if path.IsAbs(f.File) {
			uri, base = (&url.URL{Scheme: "file", Path: f.File}).String(), ""
		}
		b = append(b, w.sep[1]...)
		b = append(b, `"locations": [`...)
		b = append(b, w.in[2]...)
		b = append(b, '{')
		b = append(b, w.in[3]...)
		b = append(b, `"physicalLocation": `...)
		b = w.appendPhysical(b, uri, base, regionOf(f))
		b = append(b, w.in[2]...)
		b = append(b, '}')
		b = append(b, w.in[1]...)
		b = append(b, ']')
	}
	if len(f.Related) > 0 {
		b = append(b, w.sep[1]...)
		b = append(b, `"relatedLocations": [`...)
		for k, rel := range f.Related {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, w.in[2]...)
			b = append(b, '{')
			b = appendJSONInt(b, w.in[3], `"id": `, k+1)
			b = append(b, w.sep[3]...)
			b = append(b, `"physicalLocation": `...)
			l, c := max(rel.Line, 1), max(rel.Col, 1)
			b = w.appendPhysical(b, w.uris.of(rel.File), sarifSrcRoot, region{l, c, l, c})
			b = append(b, w.sep[3]...)
			b = append(b, `"message": {`...)
			b = append(b, w.in[4]...)
			b = append(b, `"text": `...)
			b = appendJSONString(b, rel.Message)
			b = append(b, w.in[3]...)
			b = append(b, '}')
			b = append(b, w.in[2]...)
			b = append(b, '}')
		}
		b = append(b, w.in[1]...)
		b = append(b, ']')
	}
	if f.Fingerprint != "" {
		b = append(b, w.sep[1]...)
		b = append(b, `"partialFingerprints": {`...)
		b = append(b, w.in[2]...)
		b = append(b, `"`+sarifFingerprint+`": `...)
		b = appendJSONString(b, f.Fingerprint)
		b = append(b, w.in[1]...)
		b = append(b, '}')
	}
	b = append(b, w.in[0]...)
	return append(b, '}')
}

// appendPhysical appends a physicalLocation object, the value of a member
// three levels below the result.
func (w *sarifResult) appendPhysical(b []byte, uri, base string, rg region) []byte {
	b = append(b, '{')
	b = append(b, w.in[4]...)
	b = append(b, `"artifactLocation": {`...)
	b = append(b, w.in[5]...)
	b = append(b, `"uri": `...)
	b = appendJSONString(b, uri)
	if base != "" {
		b = append(b, w.sep[5]...)
		b = append(b, `"uriBaseId": `...)
		b = appendJSONString(b, base)
	}
	b = append(b, w.in[4]...)
	b = append(b, '}')
	b = append(b, w.sep[4]...)
	b = append(b, `"region": {`...)
	b = appendJSONInt(b, w.in[5], `"startLine": `, rg.startLine)
	b = appendJSONInt(b, w.sep[5], `"startColumn": `, rg.startCol)
	b = appendJSONInt(b, w.sep[5], `"endLine": `, rg.endLine)
	b = appendJSONInt(b, w.sep[5], `"endColumn": `, rg.endCol)
	b = append(b, w.in[4]...)
	b = append(b, '}')
	b = append(b, w.in[3]...)
	return append(b, '}')
}

// uriCache remembers the URI of the last file: findings come by file.
type uriCache struct{ file, uri string }

func (c *uriCache) of(file string) string {
	if file != c.file || c.uri == "" {
		c.file, c.uri = file, fileURI(file)
	}
	return c.uri
}

// ruleKey is a check and a category of its findings.
type ruleKey struct{ check, category string }

// foundRules returns the checks and categories of findings: each category
// found, and each check under the empty category.
func foundRules(fs []checks.Finding) map[ruleKey]bool {
	found := map[ruleKey]bool{}
	for i := range fs {
		if i > 0 && fs[i].Check == fs[i-1].Check && fs[i].Category == fs[i-1].Category {
			continue
		}
		found[ruleKey{fs[i].Check, fs[i].Category}] = true
		found[ruleKey{fs[i].Check, ""}] = true
	}
	return found
}

// ruleID is the SARIF rule of a finding: check/category, or the check.
func ruleID(f *checks.Finding) string {
	if f.Category == "" {
		return f.Check
	}
	return f.Check + "/" + f.Category
}

// sarifRuleOf fills the description SARIF consumers display, falling back
// from the Short description to the name so that it is never empty; the
// Doc is at the help URI.
func sarifRuleOf(r Rule) sarifRule {
	short := firstNonEmpty(r.Short, r.Name)
	return sarifRule{
		ID:                   r.Name,
		ShortDescription:     sarifText{Text: short},
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
