package main

import "runtime/debug"

// version is set with -ldflags "-X main.versionString=v1.2.3" by releases;
// otherwise the module version recorded by go install is used.
var versionString = ""

func version() string {
	if versionString != "" {
		return versionString
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	// Built from a clone with VCS stamping: the commit it was built from.
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) >= 12 {
		v := "devel-" + rev[:12]
		if dirty {
			v += "-dirty"
		}
		return v
	}
	return "devel"
}
