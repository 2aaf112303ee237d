package owned

import (
	"testing"
	"unsafe"
)

func TestOwn(t *testing.T) {
	text := []byte("IDS-WORK-1, IDS-WORK-2 remain blocked")
	line := unsafe.String(&text[0], len(text))
	var c Copies
	a, b := c.Own(line), c.Own(line)
	if a != line || unsafe.StringData(a) == unsafe.StringData(line) {
		t.Fatalf("Own(%q) = %q, a view of it", line, a)
	}
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error("the same view was copied twice")
	}
	part := c.Own(line[:10])
	if part != "IDS-WORK-1" || unsafe.StringData(part) == unsafe.StringData(line) {
		t.Errorf("Own(part) = %q, or a view", part)
	}
	if c.Own("") != "" {
		t.Error("Own(\"\") is not empty")
	}
}
