// Package fixsafety marks a suggested fix as unsafe: one that asserts a
// judgement a person must make (that a review happened, that an item or a
// document is validated). The driver reads the mark; --fix applies only
// unmarked (safe) fixes, --unsafe-fixes the others too.
//
// analysis.SuggestedFix has no field for it, so the mark is a prefix of
// the fix's Message that the driver strips: checks stay ignorant of how a
// fix is offered or applied.
package fixsafety

import (
	"strings"

	"golang.org/x/tools/go/analysis"
)

const prefix = "unsafe: "

// Unsafe returns fix marked unsafe.
func Unsafe(fix analysis.SuggestedFix) analysis.SuggestedFix {
	if !strings.HasPrefix(fix.Message, prefix) {
		fix.Message = prefix + fix.Message
	}
	return fix
}

// Split returns the message of a fix without the mark, and whether the fix
// is unsafe.
func Split(msg string) (string, bool) {
	if rest, ok := strings.CutPrefix(msg, prefix); ok {
		return rest, true
	}
	return msg, false
}
