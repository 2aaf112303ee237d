package main

import "runtime/debug"

// version is set with -ldflags "-X main.versionString=v1.2.3" by releases;
// otherwise the module version recorded by go install is used.
var versionString = ""

func version() string {
	if versionString != "" {
		return versionString
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
