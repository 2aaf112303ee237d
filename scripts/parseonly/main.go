//go:build devtools

// Command parseonly is the parse-only floor that `sotvet check` is measured
// against (see scripts/bench.sh): it walks a directory and, for every .md
// file, splits the frontmatter with adrg/frontmatter (one `---` YAML format
// loading into a yaml.Node, as sotparse does) and parses the body with
// goldmark and the GFM extensions sotparse uses (sotparse.MarkdownExtensions),
// in parallel on GOMAXPROCS workers. The ASTs
// are discarded: no extraction, no checks, no output but a one-line summary.
// With -workboard it also loads DIR/WORKBOARD.yaml into a yaml.Node, for a
// workspace whose workboard is most of what there is to parse (bench.sh's
// workboard shape).
//
//	parseonly [-yaml=false] [-workboard] DIR
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/adrg/frontmatter"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	yaml "go.yaml.in/yaml/v4"

	"github.com/svrnty/sotvet/sotparse"
)

func main() {
	loadYAML := flag.Bool("yaml", true, "load the frontmatter into a yaml.Node (false: split only)")
	workboard := flag.Bool("workboard", false, "also load DIR/WORKBOARD.yaml into a yaml.Node")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: parseonly [-yaml=false] [-workboard] DIR")
		os.Exit(2)
	}
	root := flag.Arg(0)

	var paths []string
	err := filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if de.IsDir() && de.Name() == ".git" {
			return filepath.SkipDir
		}
		if de.Type().IsRegular() && strings.HasSuffix(p, ".md") {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "parseonly:", err)
		os.Exit(2)
	}

	md := goldmark.New(goldmark.WithExtensions(sotparse.MarkdownExtensions...)).Parser()
	format := frontmatter.NewFormat("---", "---", func(data []byte, v any) error {
		if !*loadYAML {
			return nil
		}
		return yaml.Load(data, v.(*yaml.Node))
	})

	var (
		nbytes, nfm, nerr atomic.Int64
		wg                sync.WaitGroup
		next              = make(chan string)
	)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				content, err := os.ReadFile(p)
				if err != nil {
					nerr.Add(1)
					continue
				}
				nbytes.Add(int64(len(content)))
				var node yaml.Node
				body, err := frontmatter.Parse(bytes.NewReader(content), &node, format)
				if err != nil {
					// Malformed frontmatter: parse the whole file, as a
					// checker would still read the body.
					nerr.Add(1)
					body = content
				} else if len(body) != len(content) {
					nfm.Add(1)
				}
				_ = md.Parse(text.NewReader(body), parser.WithContext(parser.NewContext()))
			}
		}()
	}
	if *workboard {
		// Alongside the documents, as sotvet's parse reads it.
		wg.Go(func() {
			content, err := os.ReadFile(filepath.Join(root, "WORKBOARD.yaml"))
			var node yaml.Node
			if err == nil {
				nbytes.Add(int64(len(content)))
				err = yaml.Load(content, &node)
			}
			if err != nil {
				nerr.Add(1)
			}
		})
	}
	for _, p := range paths {
		next <- p
	}
	close(next)
	wg.Wait()
	fmt.Printf("parseonly: %d files, %d bytes, %d with frontmatter, %d errors\n", len(paths), nbytes.Load(), nfm.Load(), nerr.Load())
}
