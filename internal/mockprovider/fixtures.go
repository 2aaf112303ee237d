package mockprovider

import (
	"encoding/base64"
	"strings"
)

// Fixture scenarios: one named after each of the harness's failure
// fixtures that needs the backend's misbehaviour, and Solve. Each drives
// whichever CLI is calling (a Case agent, told by its role, or codex and
// pi) into the misbehaviour; the harness judges what the CLI then did.
// The fixtures that change only the run's surroundings (missing test
// command, approval denied, dirty start, artifact write failure, provider
// unavailable) are answered like Solve: the harness does the rest.
// `harness matrix` on a real lane fills the scenario in when the base URL
// holds {fixture}.
const (
	Solve                 = "solve"           // the healthy run: Case's roles or an edit
	NoDiffFixture         = "no-diff"         // claims success, changes nothing
	DisallowedFileFixture = "disallowed-file" // solves, and writes a file outside allowed_writes
	FailedTestsFixture    = "failed-tests"    // changes an allowed file without fixing it
	// MissingEventFixture solves through a shell command that then exits
	// 3: the files change, but the CLI reports no applied patch (codex
	// reports none for a failed command, pi none for a failed tool).
	MissingEventFixture   = "missing-event"
	ReviewerRejectFixture = "reviewer-reject" // Case's reviewer fails a valid change
	DirtyEndFixture       = "dirty-end"       // solves so that the tests leave a file behind
	TimeoutFixture        = "timeout"         // never answers: the CLI waits until the harness stops it
)

// UnapprovedFile and DirtyOutput are the files the disallowed-file and
// dirty-end scenarios leave.
const (
	UnapprovedFile = "MOCK-UNAPPROVED-CHANGE.md"
	DirtyOutput    = "mock-dirty.out"
)

// fixtureFiles are the edits a fixture scenario makes.
func (s *Server) fixtureFiles(scenario string) []File {
	files := append([]File(nil), s.Files...)
	switch scenario {
	case NoDiffFixture:
		return nil
	case DisallowedFileFixture:
		return append(files, File{Path: UnapprovedFile, New: "Changed outside allowed_writes.\n"})
	case FailedTestsFixture:
		for i, f := range files {
			if strings.HasSuffix(f.Path, ".go") && !strings.HasSuffix(f.Path, "_test.go") {
				return []File{{Path: f.Path, Old: f.Old, New: files[i].Old + "\n// mock: an attempted fix that does not work\n"}}
			}
		}
		return nil
	case DirtyEndFixture:
		for i, f := range files {
			if strings.HasSuffix(f.Path, ".go") && !strings.HasSuffix(f.Path, "_test.go") {
				files[i].New = dirtyInit(f.New)
				break
			}
		}
	}
	return files
}

// dirtyInit adds to a Go file an init that writes DirtyOutput: the tests
// leave it behind in the workspace.
func dirtyInit(src string) string {
	lines := strings.SplitAfter(src, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "package ") {
			rest := strings.Join(lines[i+1:], "")
			return strings.Join(lines[:i+1], "") + "\nimport mockdirtyos \"os\"\n" + rest +
				"\nfunc init() { _ = mockdirtyos.WriteFile(\"" + DirtyOutput + "\", []byte(\"left by the tests\\n\"), 0o644) }\n"
		}
	}
	return src
}

// fixtureReply acts a fixture scenario out for a Case agent or for codex
// and pi.
func (s *Server) fixtureReply(scenario string, body []byte, followUp bool, api wireAPI) reply {
	files := s.fixtureFiles(scenario)
	if r := role(body); r != "" {
		switch scenario {
		case ReviewerRejectFixture:
			return caseAgentReply(files, CaseReject, r, followUp, api, true)
		case NoDiffFixture, FailedTestsFixture:
			// Honest about the tests: the harness's own run decides.
			return caseAgentReply(files, Case, r, followUp, api, false)
		}
		return caseAgentReply(files, Case, r, followUp, api, true)
	}
	switch {
	case scenario == NoDiffFixture:
		return reply{text: "Done: nothing needed changing."}
	case followUp:
		return reply{text: "Done: the files are edited."}
	case scenario == MissingEventFixture:
		return reply{calls: api.shellCalls(writeThenFail(files))}
	}
	return reply{calls: api.editCalls(files, false)}
}

// writeThenFail is a shell command that writes files and exits 3.
func writeThenFail(files []File) string {
	var cmd []string
	for _, f := range files {
		cmd = append(cmd, "printf %s "+base64.StdEncoding.EncodeToString([]byte(f.New))+" | base64 -d > '"+strings.ReplaceAll(f.Path, "'", `'\''`)+"'")
	}
	return strings.Join(cmd, " && ") + "; exit 3"
}
