package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// The version comes from the build information when none was stamped.
func TestVersionFromBuildInfo(t *testing.T) {
	clone := &debug.BuildInfo{GoVersion: "go1.24.0", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-29T06:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	if got, want := versionFrom(clone), "devel-0123456789ab-dirty"; got != want {
		t.Errorf("clone: %q, want %q", got, want)
	}
	if got := buildDetails(clone); got != "(commit 0123456789abcdef0123456789abcdef01234567 (modified), 2026-11-29T06:00:00Z, go1.24.0)" {
		t.Errorf("clone details: %q", got)
	}
	installed := &debug.BuildInfo{GoVersion: "go1.24.0", Main: debug.Module{Version: "v0.3.1"}}
	if got := versionFrom(installed); got != "v0.3.1" {
		t.Errorf("go install: %q", got)
	}
	if got := buildDetails(installed); got != "(go1.24.0)" {
		t.Errorf("go install details: %q", got)
	}
	bare := &debug.BuildInfo{GoVersion: "go1.24.0", Main: debug.Module{Version: "(devel)"}}
	if got := versionFrom(bare); got != "devel" {
		t.Errorf("no vcs: %q", got)
	}
	if got := buildDetails(bare); !strings.Contains(got, "without version control information") {
		t.Errorf("no vcs details: %q", got)
	}
}
