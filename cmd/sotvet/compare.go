package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/compare"
	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/harness/sandbox"
)

// comparisonSchemaKind is the kind sotvet schema prints comparison.json's
// schema for.
const comparisonSchemaKind = "comparison"

func harnessCompare(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("harness compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	caseRef := fs.String("case", "", "case directory or id (required, except with --merge)")
	casesDir := fs.String("cases", defaultCasesDir, "directory case ids are looked up in")
	engines := fs.String("engine", "fake", "comma-separated lanes; fake:flaky is the fake lane acting out a flaky double")
	k := fs.Int("k", 5, "runs per lane")
	fixtures := fs.String("fixtures", "all", "failure fixtures run on the fake lane: all, none, or a comma-separated list")
	out := fs.String("out", "", "runs root (default "+harness.DefaultRunsRoot()+")")
	jobs := fs.Int("jobs", 2, "runs in parallel")
	shard := fs.String("shard", "", "run one slice i/n of the comparison's runs (merge the slices with --merge)")
	merge := fs.Bool("merge", false, "combine the shard directories given as arguments into one comparison")
	id := fs.String("id", "", "comparison id (default compare-<time>-<random>); CI shards of one comparison share it")
	candidate := fs.String("candidate", "", "lane judged for candidate-default eligibility (default: the first lane that is not fake)")
	asJSON := fs.Bool("json", false, "print comparison.json instead of a table")
	signKey := fs.String("sign-key", "", "ed25519 private key (PKCS #8 PEM) to sign comparison.json and the runs with")
	pubKey := fs.String("pub-key", "", "with --merge: trusted key the shards must be signed with")
	sb := fs.String("sandbox", sandbox.Auto, sandboxUsage)
	var allow listFlag
	fs.Var(&allow, "allow-engine", "open the gate of a lane that is disabled by default (repeatable)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sotvet harness compare --case <dir|id> --engine fake,codex,pi [-k 5] [--jobs N] [--shard i/n] --out RUNS\n       sotvet harness compare --merge --out RUNS SHARD-DIR...")
		fs.PrintDefaults()
	}
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	root := *out
	if root == "" {
		root = harness.DefaultRunsRoot()
	}
	var key, pub []byte
	if *signKey != "" {
		kk, err := loadSigningKey(*signKey)
		if err != nil {
			return usageErr(stderr, err)
		}
		key = kk
	}
	if *pubKey != "" {
		pk, err := evidence.LoadPublicKey(*pubKey)
		if err != nil {
			return usageErr(stderr, err)
		}
		pub = pk
	}
	var c *ledger.Comparison
	var dir string
	var err error
	if *merge {
		if len(pos) == 0 || *caseRef != "" || *shard != "" {
			fs.Usage()
			return exitError
		}
		c, dir, err = compare.Merge(root, pos, *id, key, pub)
	} else {
		if len(pos) > 0 || *caseRef == "" {
			fs.Usage()
			return exitError
		}
		var caseDir string
		if caseDir, err = contract.Resolve(*caseRef, *casesDir); err != nil {
			return usageErr(stderr, err)
		}
		o := compare.Options{CaseDir: caseDir, K: *k, Jobs: *jobs, ID: *id, Candidate: *candidate, SignKey: key}
		for _, e := range strings.Split(*engines, ",") {
			if e = strings.TrimSpace(e); e != "" {
				o.Engines = append(o.Engines, e)
			}
		}
		switch *fixtures {
		case "all":
			o.Fixtures = harness.FixtureNames()
		case "none", "":
		default:
			o.Fixtures = strings.Split(*fixtures, ",")
		}
		if *shard != "" {
			i, n, ok := strings.Cut(*shard, "/")
			o.Shard, _ = strconv.Atoi(i)
			o.Shards, _ = strconv.Atoi(n)
			if !ok || o.Shards < 1 {
				fmt.Fprintf(stderr, "sotvet harness: --shard %q: want i/n\n", *shard)
				return exitError
			}
		}
		base, code := runOptions(root, stderr)
		if code != 0 {
			return code
		}
		base.Sandbox, base.AllowEngines, base.SignKey = *sb, allow, key
		o.Base = base
		ctx, cancel := signalContext()
		defer cancel()
		c, dir, err = compare.Run(ctx, o)
	}
	if err != nil {
		return usageErr(stderr, err)
	}
	if *asJSON {
		data, err := os.ReadFile(filepath.Join(dir, ledger.ComparisonFile))
		if err != nil {
			return usageErr(stderr, err)
		}
		stdout.Write(data)
	} else {
		compare.WriteTable(stdout, c)
		fmt.Fprintf(stdout, "dir: %s\n", dir)
	}
	return exitClean
}
