package secrets

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/svrnty/sotvet/internal/testcorpus"
)

// planningMarkdown builds about size bytes of markdown in the shape and
// vocabulary of the cto-planb planning workspace: frontmatter, the
// disclaimer, work-item headings, acceptance boxes, fact bullets with
// digests, SHAs, UUIDs and run paths, and the prose those documents use,
// including the words the keyword prefilter looks for (secret, token,
// endpoint, password, private key, Authorization, URLs). It holds no secret.
func planningMarkdown(size int, seed string) []byte {
	g := newFakeGen(seed)
	pick := func(list []string) string { return list[g.next()%uint64(len(list))] }
	var b strings.Builder
	b.Grow(size + 4096)
	doc := 0
	for b.Len() < size {
		doc++
		kind := pick([]string{"PRD", "ISSUES", "EVIDENCE", "CLOSEOUT", "RECORD"})
		route := pick(routes)
		fmt.Fprintf(&b, "---\nname: cto-%s-%s\nstatus: %s\nowner: jp\ncreated: 2026-05-%02d\nlast_reviewed: 2026-06-01\nlifecycle_classification: sot\ncore_promotion_status: not-promoted\nsource: .sot/03-PROTOCOLS/CTO-%s-PRD.md\n---\n\n",
			strings.ToLower(route), strings.ToLower(kind), pick([]string{"draft", "validated", "candidate"}), 1+g.next()%28, route)
		fmt.Fprintf(&b, "# CTO %s %s\n\nLocal planning SOT only. Not a Core Protocol. Not active Core authority.\n\n", route, kind)
		for sec := 0; sec < 4; sec++ {
			fmt.Fprintf(&b, "## %s\n\n", pick(sections))
			for p := 0; p < 2; p++ {
				for k := 0; k < 3; k++ {
					b.WriteString(pick(sentences))
					b.WriteByte(' ')
				}
				b.WriteString("\n\n")
			}
			for i := 0; i < 5; i++ {
				b.WriteString("- ")
				b.WriteString(pick(bullets))
				b.WriteByte('\n')
			}
			b.WriteByte('\n')
		}
		id := 1 + g.next()%92
		fmt.Fprintf(&b, "### CTO-WORK-%03d - %s\n\nType: AFK\nStatus: validated.\nBlocked by: CTO-WORK-%03d\n\nAcceptance criteria:\n\n", id, pick(sections), 1+g.next()%92)
		for i := 0; i < 4; i++ {
			fmt.Fprintf(&b, "- [x] %s\n", pick(sentences))
		}
		fmt.Fprintf(&b, "\nValidator: `python3 tools/validate_cto_child.py`\n\n## Evidence\n\n")
		fmt.Fprintf(&b, "- run directory: `~/.hermes/profiles/cto-planb/harness-runs/%s/2026060%dT%06dZ`\n", strings.ToLower(route), 1+g.next()%9, g.next()%235959)
		fmt.Fprintf(&b, "- commit: `%s`\n", g.from(hexLower, 40))
		fmt.Fprintf(&b, "- report.json sha256: `%s`\n", g.from(hexLower, 64))
		fmt.Fprintf(&b, "- approval_id: `%s-%s-4%s-a%s-%s`\n", g.from(hexLower, 8), g.from(hexLower, 4), g.from(hexLower, 3), g.from(hexLower, 3), g.from(hexLower, 12))
		fmt.Fprintf(&b, "- changed files: `strings.py`, `tests/test_strings.py`\n- Report status: `pass`\n\n")
	}
	return []byte(b.String())
}

var routes = []string{"CASE-STAGE6-REPEATABILITY-REFRESH", "HERMES-APPROVAL-PACKET", "CASE-SPARK-ENDPOINT-CONFIG",
	"GOVERNED-EXECUTION-EVIDENCE", "CORE-ROUTE-ADMISSION-GUARD", "CASE-MODEL-PROVIDER-ADMISSION", "HERMES-WEBUI-CONTROL-PANEL"}

var sections = []string{"Problem Statement", "Solution", "Scope", "Non-Goals", "Acceptance Criteria", "Validation",
	"Risks And Dependencies", "Success Definition", "Required Phrases", "Required Evidence", "Validator Summary Phrases"}

var sentences = []string{
	"The Hermes CTO harness blocks before `case_process_started` when the local endpoint config is missing.",
	"Treat the endpoint value as runtime config, not SOT content.",
	"Do not store endpoint secrets or credential values in SOT, argv, task file, backend logs, report, trace, generated config, or commit.",
	"Require future proof through the Harness Evidence Interface.",
	"Keep copied artificial fixture scope only.",
	"Require no Target Repository path to be inspected or copied.",
	"Keep same-run fake baseline comparison required.",
	"The route states a configured endpoint alone does not validate `CTO-WORK-016`, `CTO-WORK-020`, or `CTO-WORK-022`.",
	"Secret scan covers `report.json`, `report.md`, `trace.jsonl`, backend logs and generated config.",
	"No secret value may appear in SOT, task file, argv, report, trace, backend logs, generated config, or commits.",
	"Current non-secret readiness check showed `CTO_HARNESS_CASE_LOCAL_BASE_URL` is missing.",
	"A future operator can supply `CTO_HARNESS_CASE_LOCAL_BASE_URL` and run one real Case Stage 2 proof.",
	"The token budget stays at the lane default and token usage is reported per run.",
	"The password reset flow of the Target Repository is out of scope.",
	"Private key material stays in credctl and is never read by the harness.",
	"Authorization: JP chat approval recorded before the run started.",
	"Records WorkOS Case source as `https://github.com/workos/case.git` at the admitted commit.",
	"The panel consumes the validated `webui-summary.json` contract over the read-only endpoint.",
	"Fail closed: a run is `pass` only when the backend exit code, the terminal signal and the harness checks agree.",
	"The control summary shows approval state, blockers, freshness and artifact digests.",
	"Do not mutate Case source, Cortex Core, vendor source, external developer repositories, or Target Repositories.",
	"The normalized events include `run.started`, `task.contract.created`, `patch.applied` and `run.completed`.",
	"Evidence pointers name the run directory, the `report.json` path and the commit SHA.",
	"Stage 2 stays blocked until real pass evidence exists through the Harness Evidence Interface.",
	"Admission JSON contains no secret keys or secret values.",
	"The approval packet lists forbidden actions, allowed paths and the operator outcome required.",
}

var bullets = []string{
	"credential_source_class: `pi-models-json-local-provider-no-secret`",
	"allowed_network_class: `local-tailscale-vllm-spark1`",
	"case_model_admission_status: `admitted`",
	"runtime_default_activation: `false`",
	"source_admission_status: `admitted`",
	"approval_status: `granted`",
	"backend_exit_code: `0`",
	"allowed_writes_passed: `true`",
	"HERMES_HOME: `${HOME}/.hermes`",
	"trust anchor: `<admitted-ca>`",
	"endpoint value: supplied through environment only; not recorded",
	"Forbidden paths include secret, deploy, infra, workflow, dependency-lock and vendor paths.",
	"`backend/provider-local-config-unavailable.txt` is written when the endpoint config is missing.",
	"Validator: `python3 harness/runner/validate-case-provider-adapter.py --harness-root harness --json`",
	"max_tokens: `32768`",
}

// withSecrets returns prose with one true-positive sample inserted about
// every every bytes, at line boundaries.
func withSecrets(prose []byte, every int) ([]byte, int) {
	var tps []sample
	for _, sm := range corpusSamples() {
		if sm.rule != "" && sm.path == "" { // a path rule's sample is no prose's
			tps = append(tps, sm)
		}
	}
	var b strings.Builder
	n := 0
	last := 0
	for i := every; i < len(prose); i += every {
		j := strings.IndexByte(string(prose[i:]), '\n')
		if j < 0 {
			break
		}
		b.Write(prose[last : i+j+1])
		b.WriteString("\n" + tps[n%len(tps)].text + "\n")
		n++
		last = i + j + 1
	}
	b.Write(prose[last:])
	return []byte(b.String()), n
}

var (
	benchOnce  sync.Once
	benchProse []byte
)

func benchCorpus() []byte {
	benchOnce.Do(func() { benchProse = planningMarkdown(10<<20, "bench") })
	return benchProse
}

func BenchmarkScanProse(b *testing.B) {
	s := defaultScanner(b)
	data := benchCorpus()
	if n := len(s.Scan("bench.md", data)); n != 0 {
		b.Fatalf("%d findings in secret-free prose", n)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Scan("bench.md", data)
	}
}

func BenchmarkScanWithSecrets(b *testing.B) {
	s := defaultScanner(b)
	data, n := withSecrets(benchCorpus(), 16<<10)
	if got := len(s.Scan("bench.md", data)); got < n {
		b.Fatalf("%d findings, want at least %d", got, n)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Scan("bench.md", data)
	}
}

func BenchmarkRedactWithSecrets(b *testing.B) {
	s := defaultScanner(b)
	data, _ := withSecrets(benchCorpus(), 16<<10)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Redact(data)
	}
}

// BenchmarkKeywordPrefilter measures the keyword pass alone.
func BenchmarkKeywordPrefilter(b *testing.B) {
	s := defaultScanner(b)
	data := benchCorpus()
	hits := 0
	s.kw.scan(data, func(int, []uint16) { hits++ })
	b.ReportMetric(float64(hits)/float64(len(data))*1e3, "hits/KB")
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.kw.scan(data, func(int, []uint16) {})
	}
}

// BenchmarkScanRealCorpus scans the user's workspace, when present, as one
// stream per file.
func BenchmarkScanRealCorpus(b *testing.B) {
	root := testcorpus.Require(b)
	var files [][]byte
	total := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if data, err := os.ReadFile(p); err == nil {
				files = append(files, data)
				total += len(data)
			}
		}
		return nil
	})
	if total == 0 {
		b.Skip("cto-planb corpus not present")
	}
	s := defaultScanner(b)
	b.SetBytes(int64(total))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			s.Scan("f", f)
		}
	}
}

// BenchmarkBaselineByteLoop is a calibration figure: the cost of merely
// touching every byte in a Go loop on this machine.
func BenchmarkBaselineByteLoop(b *testing.B) {
	data := benchCorpus()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	x := 0
	for i := 0; i < b.N; i++ {
		for _, c := range data {
			x += int(c)
		}
	}
	benchSink = x
}

var benchSink int

// pathological inputs: long lines dense with keyword hits and matches. Each
// must scan in time linear in its size; compare the MB/s of the sizes.
func pathological() map[string]func(n int) []byte {
	rep := func(s string) func(int) []byte {
		return func(n int) []byte { return []byte(strings.Repeat(s, n/len(s)+1)[:n]) }
	}
	g := newFakeGen("patho")
	tok := pGHP + g.mixed(base62, 36)
	pem := g.pemBlock("RSA PRIVATE KEY", 200, "\n")
	return map[string]func(int) []byte{
		"token-run":       rep("token"),
		"assignments":     rep("password=" + g.mixed(base62, 14) + " "),
		"url-colons":      rep("://a:b"),
		"url-creds":       rep("https://u:" + g.mixed(base62, 10) + "@h "),
		"begin-no-end":    rep("-----BEGIN RSA " + "PRIVATE KEY-----"),
		"pem-one-line":    rep(strings.ReplaceAll(pem, "\n", " ") + " "),
		"service-account": rep(`"type": "service_account", "private_key": "-----BEGIN ` + "PRIVATE KEY-----"),
		"tokens-one-line": rep(tok + " # sotvet:allow-secret -- fixture "),
		"endpoint-json":   rep(`"X_BASE_URL": "` + "http://" + `10.0.0.1:80", `),
		"newlines":        rep("\n"),
	}
}

func BenchmarkPathological(b *testing.B) {
	s := defaultScanner(b)
	p := pathological()
	names := make([]string, 0, len(p))
	for k := range p {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, size := range []int{64 << 10, 1 << 20} {
			data := p[name](size)
			b.Run(fmt.Sprintf("%s/%dKB", name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for i := 0; i < b.N; i++ {
					s.Scan("p", data)
					s.Redact(data)
				}
			})
		}
	}
}
