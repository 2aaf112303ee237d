package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNeovim drives `sotvet lsp` from Neovim's built-in LSP client, headless
// (testdata/nvim.lua): a document of a copy of the sample workspace gets its
// diagnostics, a quick fix applies, and an edit of WORKBOARD.yaml changes
// the document's diagnostics. .ci/run installs Neovim (scripts/ci/tools.sh);
// elsewhere the test skips when it is absent.
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
	dir := t.TempDir()
	bin := filepath.Join(dir, "sotvet")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/svrnty/sotvet/cmd/sotvet").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := sample(t)
	script, err := filepath.Abs("testdata/nvim.lua")
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "nvim.log")
	cmd := exec.Command(nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "WS="+root, "SOTVET="+bin, "DOC="+issuesRel, "OUT="+log, "HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir)
	out, runErr := cmd.CombinedOutput()
	got, _ := os.ReadFile(log)
	if runErr != nil || !strings.Contains(string(got), "PASS") {
		t.Fatalf("nvim: %v\n%s\nlog:\n%s", runErr, out, got)
	}
	for _, want := range []string{"applied: add core_promotion_status", "cleared", "cross-file: CTO-WORK-101 is \"validated\" here but \"candidate\" in WORKBOARD.yaml"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("log lacks %q:\n%s", want, got)
		}
	}
	t.Logf("nvim:\n%s", got)
}
