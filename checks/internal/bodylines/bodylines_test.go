package bodylines

import (
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	src := "# T\r\n\ntext\n```go\ncode\n```\n> quoted\n~~~~\n~~~\nstill code\n~~~~\nafter\n"
	var got []string
	for _, l := range Lines([]byte(src), 0, len(src)) {
		q := ""
		if l.Quoted {
			q = "Q:"
		}
		got = append(got, q+l.Text)
		if !strings.HasPrefix(src[l.Off:], l.Text) {
			t.Errorf("offset %d does not start %q", l.Off, l.Text)
		}
	}
	if want := "# T||text|Q:> quoted|after"; strings.Join(got, "|") != want {
		t.Errorf("lines = %q, want %q", strings.Join(got, "|"), want)
	}
	// A start inside a line moves to the next line.
	if ls := Lines([]byte(src), 2, len(src)); ls[0].Text != "" || ls[0].Off != 5 {
		t.Errorf("first line from offset 2 = %+v", ls[0])
	}
}

func TestTextContainsFold(t *testing.T) {
	for _, c := range []struct {
		text, word string
		want       bool
	}{
		{"the record is ADMitted now", "admitted", true},
		{"admitted", "admitted", true},
		{"xAdmitted", "admitted", true},
		{"admitte", "admitted", false},
		{"a d m i t t e d", "admitted", false},
		{"", "admitted", false},
		{"MMMMmmmm admittex", "admitted", false},
		{"zzz", "", true},
	} {
		if got := TextContainsFold([]byte(c.text), c.word); got != c.want {
			t.Errorf("TextContainsFold(%q, %q) = %v, want %v", c.text, c.word, got, c.want)
		}
		if c.word != "" {
			if slow := ContainsFold(c.text, c.word); slow != c.want {
				t.Errorf("ContainsFold(%q, %q) = %v, want %v", c.text, c.word, slow, c.want)
			}
		}
	}
}
