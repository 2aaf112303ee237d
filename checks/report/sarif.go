package report

import (
	"bytes"
	"encoding/json"
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

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult                    `json:"results"`
}

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

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations,omitempty"`
	RelatedLocations    []sarifRelated    `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
}

// sarifRelated is a relatedLocation: a location with an id and a message.
type sarifRelated struct {
	ID               int                   `json:"id"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          sarifText             `json:"message"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

// writeSARIF writes a SARIF 2.1.0 log with one run. A check's findings
// have the rule "check/category" (one per category the check declares in
// its Rule), or "check" when they have no category; rules come from
// opt.Rules in the order given (duplicates dropped), and a finding with no
// rule gets a minimal one appended, so every result's ruleIndex is valid.
// Paths are relative URIs under %SRCROOT%, which originalUriBaseIds
// resolves to opt.SrcRoot when given; an absolute path is a file: URI.
func writeSARIF(buf *bytes.Buffer, res *checks.Result, opt Options) error {
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

	results := make([]sarifResult, 0, len(res.Findings))
	for i := range res.Findings {
		f := &res.Findings[i]
		id := ruleID(f)
		r := sarifResult{
			RuleID:    id,
			RuleIndex: index[id],
			Level:     string(severity(f)),
			Message:   sarifText{Text: f.Message},
		}
		if f.File != "" {
			rg := regionOf(f)
			loc := sarifArtifactLocation{URI: fileURI(f.File), URIBaseID: sarifSrcRoot}
			if path.IsAbs(f.File) {
				loc = sarifArtifactLocation{URI: (&url.URL{Scheme: "file", Path: f.File}).String()}
			}
			r.Locations = []sarifLocation{{PhysicalLocation: sarifPhysicalLocation{
				ArtifactLocation: loc,
				Region: sarifRegion{
					StartLine:   rg.startLine,
					StartColumn: rg.startCol,
					EndLine:     rg.endLine,
					EndColumn:   rg.endCol,
				},
			}}}
		}
		for k, rel := range f.Related {
			r.RelatedLocations = append(r.RelatedLocations, sarifRelated{
				ID: k + 1,
				PhysicalLocation: sarifPhysicalLocation{
					ArtifactLocation: sarifArtifactLocation{URI: fileURI(rel.File), URIBaseID: sarifSrcRoot},
					Region:           sarifRegion{StartLine: max(rel.Line, 1), StartColumn: max(rel.Col, 1), EndLine: max(rel.Line, 1), EndColumn: max(rel.Col, 1)},
				},
				Message: sarifText{Text: rel.Message},
			})
		}
		if f.Fingerprint != "" {
			r.PartialFingerprints = map[string]string{sarifFingerprint: f.Fingerprint}
		}
		results = append(results, r)
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, Results: results}
	if opt.SrcRoot != "" {
		root := filepath.ToSlash(opt.SrcRoot)
		if !strings.HasSuffix(root, "/") {
			root += "/"
		}
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{
			sarifSrcRoot: {URI: (&url.URL{Scheme: "file", Path: root}).String()},
		}
	}

	log := sarifLog{
		Schema:  sarifSchema,
		Version: sarifVersion,
		Runs:    []sarifRun{run},
	}
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
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
