//go:build devtools

// Command mockserve runs the scripted provider for manual lane runs:
//
//	go run -tags devtools ./internal/mockprovider/mockserve -case testdata/cases/r1-string-slugify
//
// It prints the base URL of every scenario and serves until interrupted.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/svrnty/sotvet/internal/mockprovider"
)

func main() {
	caseDir := flag.String("case", "", "harness case whose solution overlay the edit scenario writes")
	flag.Parse()
	var files []mockprovider.File
	if *caseDir != "" {
		var err error
		files, err = mockprovider.CaseFiles(filepath.Join(*caseDir, "repo"), filepath.Join(*caseDir, "fake"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "mockserve:", err)
			os.Exit(2)
		}
	}
	s, err := mockprovider.Start(files)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mockserve:", err)
		os.Exit(2)
	}
	for _, sc := range mockprovider.Scenarios {
		fmt.Printf("%-13s %s\n", sc, s.URL(sc))
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	<-ch
	s.Close()
}
