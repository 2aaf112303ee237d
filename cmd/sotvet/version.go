package main

import (
	"runtime/debug"
	"strings"
)

// version is set with -ldflags "-X main.versionString=v1.2.3" by releases;
// otherwise the build information names it: the module version go install
// recorded, or the commit a clone was built from.
var versionString = ""

func version() string {
	if versionString != "" {
		return versionString
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionFrom(bi)
}

// versionFrom reads the version from build information: the module
// version ("v1.2.3", or a pseudo-version), else "devel-COMMIT" with
// "-dirty" for a modified tree, else "devel".
func versionFrom(bi *debug.BuildInfo) string {
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	rev, dirty := vcsOf(bi)
	if len(rev) >= 12 {
		v := "devel-" + rev[:12]
		if dirty {
			v += "-dirty"
		}
		return v
	}
	return "devel"
}

func vcsOf(bi *debug.BuildInfo) (rev string, dirty bool) {
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	return rev, dirty
}

// versionLine is what 'sotvet version' prints: the version, then what the
// build information adds (the commit and its time, the Go version), or
// why there is nothing to add, so that a bug report names the build.
func versionLine() string {
	v := version()
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "sotvet " + v + " (no build information)"
	}
	return "sotvet " + v + " " + buildDetails(bi)
}

func buildDetails(bi *debug.BuildInfo) string {
	var parts []string
	rev, dirty := vcsOf(bi)
	if rev != "" {
		c := "commit " + rev
		if dirty {
			c += " (modified)"
		}
		parts = append(parts, c)
		for _, s := range bi.Settings {
			if s.Key == "vcs.time" {
				parts = append(parts, s.Value)
			}
		}
	} else if bi.Main.Version == "" || bi.Main.Version == "(devel)" {
		parts = append(parts, "built without version control information (-buildvcs=false, or not from a git clone)")
	}
	parts = append(parts, bi.GoVersion)
	return "(" + strings.Join(parts, ", ") + ")"
}
