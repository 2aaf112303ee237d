package codex

import "runtime"

func archARM() bool { return runtime.GOARCH == "arm64" }
