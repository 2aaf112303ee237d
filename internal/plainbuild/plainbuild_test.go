package plainbuild

import "testing"

func TestWithoutRace(t *testing.T) {
	for in, want := range map[string]string{
		"":                     "",
		"-race":                "",
		"-mod=mod -race -v":    "-mod=mod -v",
		"-tags=devtools":       "-tags=devtools",
		"--race -race=true -x": "-x",
	} {
		if got := WithoutRace(in); got != want {
			t.Errorf("WithoutRace(%q) = %q, want %q", in, got, want)
		}
	}
}
