package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
)

func relatedFixture() *checks.Result {
	return &checks.Result{
		Checked: []string{"status"},
		Files:   2,
		Findings: []checks.Finding{{
			Check: "status", Category: "stale-issue", Severity: checks.SeverityWarning,
			File: "docs/a.md", Line: 5, Col: 9, EndLine: 5, EndCol: 18,
			Message: "CTO-WORK-001 is \"candidate\" here", Fingerprint: "0123456789abcdef:1",
			Related: []checks.Related{
				{File: "WORKBOARD.yaml", Line: 4, Col: 13, Message: "the workboard says validated"},
				{File: "docs/b two.md", Line: 7, Col: 1, Message: "this says it is validated"},
			},
		}},
	}
}

func TestRelatedText(t *testing.T) {
	got := string(render(t, "text", relatedFixture(), Options{}))
	want := "docs/a.md:5:9: warning [status/stale-issue] CTO-WORK-001 is \"candidate\" here\n" +
		"WORKBOARD.yaml:4:13: note: the workboard says validated\n" +
		"docs/b two.md:7:1: note: this says it is validated\n"
	if got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

func TestRelatedJSON(t *testing.T) {
	var doc struct {
		Errors []struct {
			Fingerprint string           `json:"fingerprint"`
			Related     []checks.Related `json:"related"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(render(t, "json", relatedFixture(), Options{}), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Errors) != 1 || len(doc.Errors[0].Related) != 2 {
		t.Fatalf("errors %+v", doc.Errors)
	}
	if r := doc.Errors[0].Related[1]; r.File != "docs/b two.md" || r.Line != 7 || r.Col != 1 || r.Message != "this says it is validated" {
		t.Errorf("related[1] = %+v", r)
	}
	// A finding without related places has no "related" member at all.
	out := string(render(t, "json", fixture(), fixtureOptions()))
	if strings.Contains(out, `"related"`) {
		t.Errorf("related member on findings without related places:\n%s", out)
	}
}

func TestRelatedSARIF(t *testing.T) {
	var doc struct {
		Runs []struct {
			Results []struct {
				RelatedLocations []struct {
					ID               int `json:"id"`
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"relatedLocations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(render(t, "sarif", relatedFixture(), Options{}), &doc); err != nil {
		t.Fatal(err)
	}
	rl := doc.Runs[0].Results[0].RelatedLocations
	if len(rl) != 2 {
		t.Fatalf("relatedLocations %+v", rl)
	}
	r := rl[1]
	if r.ID != 2 || r.PhysicalLocation.ArtifactLocation.URI != "docs/b%20two.md" || r.PhysicalLocation.ArtifactLocation.URIBaseID != "%SRCROOT%" ||
		r.PhysicalLocation.Region.StartLine != 7 || r.PhysicalLocation.Region.StartColumn != 1 || r.Message.Text != "this says it is validated" {
		t.Errorf("relatedLocations[1] = %+v", r)
	}
}
