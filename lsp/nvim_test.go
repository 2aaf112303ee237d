package lsp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/internal/plainbuild"
)

// plainSotvet is the sotvet the editor starts: the build cmd/sotvet's
// scenarios run too, from the go command's build cache (one link for both
// test processes, none while sotvet is unchanged).
var plainSotvet = plainbuild.Command("sotvet-nvim-", "sotvet", "github.com/svrnty/sotvet/cmd/sotvet", "-buildvcs=false")

// nvimSnippet is a Neovim setup of docs/editors.md: the lua block after a
// `<!-- snippet: nvim X.Y -->` comment, for Neovim X.Y and later.
type nvimSnippet struct {
	min  [2]int
	code string
}

var snippetRE = regexp.MustCompile("(?s)<!-- snippet: nvim (\\d+)\\.(\\d+) -->\n```lua\n(.*?)```")

// docSnippets reads the Neovim snippets from docs/editors.md, so the test
// runs what users copy and not a copy of its own.
func docSnippets(t *testing.T) []nvimSnippet {
	t.Helper()
	doc, err := os.ReadFile("../docs/editors.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []nvimSnippet
	seen := map[string]bool{}
	for _, m := range snippetRE.FindAllStringSubmatch(string(doc), -1) {
		major, _ := strconv.Atoi(m[1])
		minor, _ := strconv.Atoi(m[2])
		out = append(out, nvimSnippet{[2]int{major, minor}, m[3]})
		seen[m[1]+"."+m[2]] = true
	}
	for _, v := range []string{"0.7", "0.10", "0.11"} {
		if !seen[v] {
			t.Fatalf("docs/editors.md has no <!-- snippet: nvim %s --> block", v)
		}
	}
	return out
}

var nvimVersionRE = regexp.MustCompile(`NVIM v(\d+)\.(\d+)`)

// TestNeovim drives `sotvet lsp` from Neovim's built-in LSP client, headless,
// with each Neovim snippet of docs/editors.md as the init.lua. A snippet the
// installed Neovim is new enough for runs for real (testdata/nvim.lua): two
// documents and the workboard of a copy of the sample workspace share one
// server process, a quick fix applies, an unsaved edit of WORKBOARD.yaml
// changes another open document's diagnostics, and a second workspace gets
// a second server. A snippet for a newer Neovim
// is parsed and run against stand-ins of the API it calls
// (testdata/nvim-standin.lua). .ci/run installs Debian's Neovim
// (scripts/ci/tools.sh); elsewhere the test skips when it is absent.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skip("nvim is not on PATH (scripts/ci/tools.sh installs Debian's neovim); CI runs this")
		}
		t.Fatal("nvim is not on PATH under CI: scripts/ci/tools.sh installs it")
	}
	if testing.Short() {
		t.Skip("builds sotvet and starts Neovim")
	}
	snippets := docSnippets(t)
	verOut, err := exec.Command(nvim, "--version").Output()
	if err != nil {
		t.Fatalf("nvim --version: %v", err)
	}
	m := nvimVersionRE.FindStringSubmatch(string(verOut))
	if m == nil {
		t.Fatalf("nvim --version: no version in %q", verOut)
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	installed := [2]int{major, minor}

	// sotvet on PATH is a wrapper that counts the servers the editor starts.
	bin := t.TempDir()
	exe, err := plainSotvet.Exe()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(bin, "sotvet.real")); err != nil {
		t.Fatal(err)
	}
	wrapper := "#!/bin/sh\necho \"$$\" >>\"$SOTVET_STARTS\"\nexec \"$(dirname \"$0\")/sotvet.real\" \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "sotvet"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	driver, _ := filepath.Abs("testdata/nvim.lua")
	standin, _ := filepath.Abs("testdata/nvim-standin.lua")

	for _, s := range snippets {
		name := fmt.Sprintf("nvim %d.%d", s.min[0], s.min[1])
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			init := filepath.Join(dir, "init.lua")
			if err := os.WriteFile(init, []byte(s.code), 0o644); err != nil {
				t.Fatal(err)
			}
			root, root2 := sample(t), sample(t)
			log := filepath.Join(dir, "nvim.log")
			starts := filepath.Join(dir, "starts")
			runs := !newer(s.min, installed)
			var cmd *exec.Cmd
			if runs {
				cmd = exec.Command(nvim, "--headless", "-n", "-i", "NONE", "-u", init, "-c", "luafile "+driver)
			} else {
				cmd = exec.Command(nvim, "--headless", "-n", "-i", "NONE", "-u", "NONE", "-c", "filetype on", "-c", "luafile "+standin)
			}
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
				"WS="+root, "WS2="+root2, "DOC="+issuesRel, "DOC2="+prdRel, "OUT="+log, "SNIPPET="+init, "MIN="+fmt.Sprintf("%d.%d", s.min[0], s.min[1]),
				"SOTVET_STARTS="+starts, "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir, "XDG_DATA_HOME="+dir)
			out, runErr := cmd.CombinedOutput()
			got, _ := os.ReadFile(log)
			if runErr != nil || !strings.Contains(string(got), "PASS") {
				t.Fatalf("nvim: %v\n%s\nlog:\n%s", runErr, out, got)
			}
			if !runs {
				t.Logf("Neovim %d.%d is installed: this snippet was parsed and run against stand-ins, not by a real Neovim %d.%d:\n%s", installed[0], installed[1], s.min[0], s.min[1], got)
				return
			}
			for _, want := range []string{"clients: 1, attached buffers: 3", "applied: add core_promotion_status", "cleared",
				"cross-file: CTO-WORK-101 is \"validated\" here but \"candidate\" in WORKBOARD.yaml", "cross-file cleared", "second workspace: its own client"} {
				if !strings.Contains(string(got), want) {
					t.Errorf("log lacks %q:\n%s", want, got)
				}
			}
			pids, _ := os.ReadFile(starts)
			if n := strings.Count(string(pids), "\n"); n != 2 {
				t.Errorf("the editor started sotvet %d times, want once for each of the two workspaces", n)
			}
			t.Logf("nvim:\n%s", got)
		})
	}
}

// newer reports whether version a is newer than b.
func newer(a, b [2]int) bool {
	return a[0] > b[0] || a[0] == b[0] && a[1] > b[1]
}

const prdRel = ".sot/03-PROTOCOLS/CTO-SLUGIFY-FIXTURE-PRD.md"
