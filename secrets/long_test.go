package secrets

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestLongTextInPieces checks that a text longer than maxText, read a
// piece at a time, gives the findings, caps and redaction of the text
// read whole: maxText made short, lines of secrets around its cuts.
func TestLongTextInPieces(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("long text")
	var b strings.Builder
	for i := range 40 {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "GITHUB_TOKEN=ghp_%s\n", g.mixed(base62, 36))
		case 1:
			b.WriteString("prose without a secret, a line of it\n")
		case 2:
			fmt.Fprintf(&b, "x = 1 # sotvet:allow fixture\nkey: ghp_%s # sotvet:allow fixture\n", g.mixed(base62, 36))
		default:
			fmt.Fprintf(&b, "aws_access_key_id = AKIA%s\n", g.from("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16))
		}
	}
	text := []byte(b.String())
	for _, keep := range []int{0, 3} {
		wantF, wantMore := s.ScanCapped("a.txt", text, keep)
		wantRed := s.Redact(text)
		if len(wantF) < 10 && keep == 0 {
			t.Fatalf("only %d findings in the whole text: the test's secrets are not found", len(wantF))
		}
		for _, n := range []int{80, 150, 1000} {
			withMaxText(t, n, func() {
				gotF, gotMore := s.ScanCapped("a.txt", text, keep)
				if !reflect.DeepEqual(gotF, wantF) {
					t.Errorf("keep %d, pieces of %d bytes: findings differ from the whole text's\n got %+v\nwant %+v", keep, n, gotF, wantF)
				}
				if !reflect.DeepEqual(gotMore, wantMore) {
					t.Errorf("keep %d, pieces of %d bytes: more = %v, the whole text's %v", keep, n, gotMore, wantMore)
				}
				if got := s.Redact(text); !bytes.Equal(got, wantRed) {
					t.Errorf("pieces of %d bytes: redaction differs from the whole text's\n got %q\nwant %q", n, got, wantRed)
				}
			})
		}
	}
	// A line longer than a piece is cut inside it: what is found there is
	// placed where it is in the text.
	line := []byte("pad " + strings.Repeat("word ", 30) + "GITHUB_TOKEN=ghp_" + g.mixed(base62, 36) + " " + strings.Repeat("word ", 30) + "\nnext\n")
	whole := s.Scan("b.txt", line)
	if len(whole) != 1 {
		t.Fatalf("%d findings in the long line, want 1", len(whole))
	}
	withMaxText(t, 120, func() {
		got := s.Scan("b.txt", line)
		if !reflect.DeepEqual(got, whole) {
			t.Errorf("a line cut into pieces: got %+v, want %+v", got, whole)
		}
	})
	// nothing to redact: the text itself comes back
	plain := bytes.Repeat([]byte("nothing here\n"), 30)
	withMaxText(t, 50, func() {
		if got := s.Redact(plain); &got[0] != &plain[0] {
			t.Errorf("Redact of a clean long text did not return it as it is")
		}
	})
}

// withMaxText runs f with maxText set to n.
func withMaxText(t *testing.T, n int, f func()) {
	t.Helper()
	old := maxText
	maxText = n
	defer func() { maxText = old }()
	f()
}
