package main

import (
	"slices"
	"testing"
)

// The signing key's path leaves argv in every spelling the flag package
// accepts, and only the flag's values are touched.
func TestSignKeyArgs(t *testing.T) {
	args := []string{"sotvet", "harness", "run", "--case", "c", "--sign-key", "/k/a=sign-key.pem", "-sign-key=/k/b.pem", "--out", "x", "--", "--sign-key", "z"}
	at := signKeyArgs(args)
	var got []string
	for _, a := range at {
		got = append(got, a.value(args))
	}
	if !slices.Equal(got, []string{"/k/a=sign-key.pem", "/k/b.pem"}) {
		t.Fatalf("values %q", got)
	}
	if at[0] != (keyArg{6, false}) || at[1] != (keyArg{7, true}) {
		t.Fatalf("positions %+v", at)
	}
}
