package main

import (
	"flag"
	"io"
	"slices"
	"testing"
)

// TestParseInterleavedTerminator: after "--" every argument is
// positional, wherever the "--" stands, and a "--" that is a flag's value
// is that value.
func TestParseInterleavedTerminator(t *testing.T) {
	for _, c := range []struct {
		args []string
		pos  []string
		fmt  string
		bin  bool
	}{
		{[]string{"--", "a", "-skip-binary"}, []string{"a", "-skip-binary"}, "text", false},
		{[]string{"--format", "json", "--", "a", "-skip-binary"}, []string{"a", "-skip-binary"}, "json", false},
		{[]string{"a", "--", "-skip-binary"}, []string{"a", "-skip-binary"}, "text", false},
		{[]string{"a", "-skip-binary", "b"}, []string{"a", "b"}, "text", true},
		{[]string{"-skip-binary", "--", "--format"}, []string{"--format"}, "text", true},
		{[]string{"--format", "--", "a"}, []string{"a"}, "--", false},
		{[]string{"--format=json", "--", "-x"}, []string{"-x"}, "json", false},
	} {
		fs := flag.NewFlagSet("scan", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		format := fs.String("format", "text", "")
		bin := fs.Bool("skip-binary", false, "")
		pos, err := parseInterleaved(fs, c.args)
		if err != nil || !slices.Equal(pos, c.pos) || *format != c.fmt || *bin != c.bin {
			t.Errorf("%q: positional %q, format %q, skip-binary %v, err %v; want %q, %q, %v", c.args, pos, *format, *bin, err, c.pos, c.fmt, c.bin)
		}
	}
}
