package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/config"
	"github.com/svrnty/sotvet/sotparse"
)

func cmdInit(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("init", flag.ContinueOnError)
	fset.SetOutput(stderr)
	force := fset.Bool("force", false, "overwrite an existing "+config.FileName)
	print := fset.Bool("print", false, "print the starter configuration instead of writing it")
	dirs, code, ok := parseArgs(fset, args)
	if !ok {
		return code
	}
	if len(dirs) > 1 {
		fmt.Fprintln(stderr, "usage: sotvet init [--force] [--print] [dir]")
		return exitError
	}
	sev := map[string]string{}
	for k, v := range checks.DefaultSeverity {
		sev[k] = string(v)
	}
	data := config.Starter(registry.All, sev, sotparse.DefaultMaxFileSize)
	if *print {
		stdout.Write(data)
		return exitClean
	}
	dir := "."
	if len(dirs) == 1 {
		dir = dirs[0]
	}
	name := filepath.Join(dir, config.FileName)
	if _, err := os.Stat(name); err == nil && !*force {
		fmt.Fprintf(stderr, "sotvet init: %s exists (use --force to overwrite)\n", name)
		return exitError
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "sotvet init: %v\n", err)
		return exitError
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		fmt.Fprintf(stderr, "sotvet init: %v\n", err)
		return exitError
	}
	fmt.Fprintf(stdout, "wrote %s\n", name)
	return exitClean
}
