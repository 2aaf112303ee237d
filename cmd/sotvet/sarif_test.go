package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchema compiles the OASIS SARIF 2.1.0 schema shipped in testdata,
// with format assertions on.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("../../testdata/sarif/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSARIFSchema validates the SARIF of check (a workspace with findings in
// a sub-directory, and the clean sample) and of scan (given an absolute
// path) against the OASIS schema, and holds them to what the SARIF
// Multitool's rules ask: relative URIs under a base that
// originalUriBaseIds defines (without the runner's absolute path), rule
// names never equal to ids, rules without their full documentation.
func TestSARIFSchema(t *testing.T) {
	schema := sarifSchema(t)
	root := t.TempDir()
	ws := filepath.Join(root, "planning")
	os.MkdirAll(filepath.Join(ws, ".sot"), 0o755)
	os.WriteFile(filepath.Join(ws, ".sot", "My PRD.md"), []byte("---\nname: x\nstatus: Validated\ntags: [a]\n---\n# X\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "WORKBOARD.yaml"), []byte("items:\n  - {id: CTO-WORK-001, title: A, status: open}\n  - {id: CTO-WORK-001, title: B, status: open}\n"), 0o644)
	tok := filepath.Join(root, "notes.txt")
	os.WriteFile(tok, []byte("token = "+"gl"+"pat-"+"xY7kQ2mR9vB4nL6tW1cZ\n"), 0o644)
	sample, _ := filepath.Abs("../../testdata/workspace")

	for _, c := range []struct {
		name     string
		args     []string
		findings bool
	}{
		{"check", []string{"check", "--no-git", "--format", "sarif", root}, true},
		{"check-sample", []string{"check", "--format", "sarif", sample}, false},
		{"scan-absolute", []string{"scan", "--format", "sarif", tok}, true},
		{"scan-absolute-in-cwd", []string{"scan", "--format", "sarif", tok}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if strings.HasSuffix(c.name, "-in-cwd") {
				t.Chdir(root)
			}
			var out, errb bytes.Buffer
			code := run(c.args, &out, &errb)
			if want := map[bool]int{true: exitFindings, false: exitClean}[c.findings]; code != want {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, want, errb.String())
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(inst); err != nil {
				t.Fatalf("not valid SARIF 2.1.0: %v", err)
			}
			checkSARIFRules(t, out.Bytes(), c.findings)
			if c.name == "check" && bytes.Contains(out.Bytes(), []byte(filepath.ToSlash(root))) {
				t.Errorf("the log carries the absolute path %s:\n%s", root, out.String())
			}
			if strings.HasSuffix(c.name, "-in-cwd") && !bytes.Contains(out.Bytes(), []byte(`"uri": "notes.txt"`)) {
				t.Errorf("an absolute path inside the current directory is not reported relative to it:\n%s", out.String())
			}
		})
	}
}

func checkSARIFRules(t *testing.T, data []byte, findings bool) {
	t.Helper()
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string
					Rules   []map[string]any
				}
			}
			OriginalURIBaseIDs map[string]struct {
				URI         string
				Description struct{ Text string }
			} `json:"originalUriBaseIds"`
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string
							URIBaseID string `json:"uriBaseId"`
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	r := log.Runs[0]
	if r.Tool.Driver.Version == "" {
		t.Error("driver has no version")
	}
	for _, rule := range r.Tool.Driver.Rules {
		if rule["name"] != nil && rule["name"] == rule["id"] {
			t.Errorf("rule %v: name repeats the id", rule["id"])
		}
		if rule["fullDescription"] != nil || rule["help"] != nil {
			t.Errorf("rule %v carries its documentation; helpUri points to it", rule["id"])
		}
	}
	if findings && len(r.Results) == 0 {
		t.Fatal("no results")
	}
	for _, res := range r.Results {
		for _, l := range res.Locations {
			a := l.PhysicalLocation.ArtifactLocation
			switch {
			case a.URIBaseID != "":
				base, ok := r.OriginalURIBaseIDs[a.URIBaseID]
				if !ok || base.URI != "" || base.Description.Text == "" {
					t.Errorf("%s: uriBaseId %q not described (without an absolute URI) in originalUriBaseIds (%v)", a.URI, a.URIBaseID, r.OriginalURIBaseIDs)
				}
				if strings.HasPrefix(a.URI, "/") || strings.Contains(a.URI, ":") {
					t.Errorf("%s: not a relative URI under %s", a.URI, a.URIBaseID)
				}
			case !strings.HasPrefix(a.URI, "file:///"):
				t.Errorf("%s: neither relative to a base nor an absolute file URI", a.URI)
			}
		}
	}
}

// TestSARIFMultitool runs Microsoft's SARIF Multitool (validate: the schema
// plus the rules GitHub code scanning applies, SARIF1001 to SARIF2016) over
// the SARIF of check and scan: no error and no warning. scripts/ci/tools.sh
// installs it; elsewhere the test skips unless CI is set.
func TestSARIFMultitool(t *testing.T) {
	tool, err := exec.LookPath("Sarif.Multitool")
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skip("Sarif.Multitool is not on PATH (scripts/ci/tools.sh installs it from npm); CI runs this")
		}
		t.Fatal("Sarif.Multitool is not on PATH under CI: scripts/ci/tools.sh installs it")
	}
	root := t.TempDir()
	ws := filepath.Join(root, "planning")
	os.MkdirAll(filepath.Join(ws, ".sot"), 0o755)
	os.WriteFile(filepath.Join(ws, ".sot", "My PRD.md"), []byte("---\nname: x\nstatus: Validated\ntags: [a]\n---\n# X\n"), 0o644)
	tok := filepath.Join(root, "notes.txt")
	os.WriteFile(tok, []byte("token = "+"gl"+"pat-"+"xY7kQ2mR9vB4nL6tW1cZ\n"), 0o644)
	// The logs are written before t.Parallel: versionString is a global
	// that the other tests' in-process runs read.
	// A version that starts with a number, as releases stamp one (SARIF2005).
	old := versionString
	versionString = "0.1.0"
	out := t.TempDir()
	var logs []string
	for _, c := range []struct {
		name string
		args []string
	}{
		{"check", []string{"check", "--no-git", "--format", "sarif", root}},
		{"scan", []string{"scan", "--format", "sarif", tok}},
	} {
		var stdout, stderr bytes.Buffer
		run(c.args, &stdout, &stderr)
		if !json.Valid(stdout.Bytes()) {
			t.Errorf("%s: not JSON: %s\n%s", c.name, stdout.Bytes(), stderr.Bytes())
		}
		in := filepath.Join(out, c.name+".sarif")
		os.WriteFile(in, stdout.Bytes(), 0o644)
		logs = append(logs, in)
	}
	versionString = old
	// The Multitool is a .NET program: its start costs seconds of wall
	// time, so one run validates both logs (each problem it prints names
	// its file), beside the other tests rather than before them.
	t.Parallel()
	cmd := exec.Command(tool, append([]string{"validate", "--output", filepath.Join(out, "validation.sarif")}, logs...)...)
	cmd.Env = append(os.Environ(), "DOTNET_CLI_TELEMETRY_OPTOUT=1")
	msg, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("Sarif.Multitool validate: %v\n%s", err, msg)
	}
	if !bytes.Contains(msg, []byte(fmt.Sprintf("%d files scanned", len(logs)))) {
		t.Errorf("the Multitool did not validate the %d logs:\n%s", len(logs), msg)
	}
	if regexp.MustCompile(`(error|warning) [A-Z]+\d+`).Match(msg) {
		t.Errorf("the Multitool objects:\n%s", msg)
	}
}
