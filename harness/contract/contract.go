// Package contract loads and validates a harness case: a directory holding
// case.yaml (the task contract) and a repo/ fixture tree.
//
// Validation reports every problem it finds, each with the position in
// case.yaml where it can be told, as path:line:col: message.
package contract

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	yaml "go.yaml.in/yaml/v4"

	"github.com/svrnty/sotvet/internal/lazyre"
	"github.com/svrnty/sotvet/internal/safefs"
)

// FileName is the contract's file name inside a case directory.
const FileName = "case.yaml"

// RepoDir is the fixture tree's directory inside a case directory.
const RepoDir = "repo"

// Mutation modes, from the Case adapter contract, narrowest first.
const (
	ModeNone                 = "none"
	ModeCopiedFixture        = "copied-fixture"
	ModeSandboxRepo          = "sandbox-repo"
	ModeOwnedNoncriticalRepo = "owned-noncritical-repo"
	ModeCandidateDefault     = "candidate-default"
)

// MutationModes lists the known mutation modes, narrowest first.
var MutationModes = []string{ModeNone, ModeCopiedFixture, ModeSandboxRepo, ModeOwnedNoncriticalRepo, ModeCandidateDefault}

// Events lists the normalized events in the order the Harness Evidence
// Interface requires them, where they apply.
var Events = []string{
	"run.started",
	"task.contract.created",
	"plan.updated",
	"approval.requested",
	"approval.granted",
	"approval.denied",
	"patch.applied",
	"git.diff.checked",
	"verification.completed",
	"run.completed",
}

// DefaultRequiredEvents are required when the contract names none.
var DefaultRequiredEvents = []string{
	"run.started", "task.contract.created", "plan.updated", "patch.applied",
	"git.diff.checked", "verification.completed", "run.completed",
}

// Default timeouts.
const (
	DefaultBackendTimeout      = 2 * time.Minute
	DefaultVerificationTimeout = 5 * time.Minute
)

// Case is a loaded, valid task contract.
type Case struct {
	Dir  string // absolute case directory
	Path string // absolute path of case.yaml

	ID               string
	Title            string
	Description      string
	Task             string
	MutationMode     string
	ApprovalRequired bool
	AllowedWrites    []string
	ForbiddenPaths   []string
	ForbiddenActions []string
	Verification     []Command
	RequiredEvents   []string
	RequireDiff      bool
	CleanStart       bool
	CleanEnd         bool

	BackendTimeout      time.Duration
	VerificationTimeout time.Duration
	// PhaseTimeout bounds each phase of a lane that runs in phases (Case:
	// implement, verify, review, close, retrospective); 0: only the
	// backend timeout bounds them.
	PhaseTimeout time.Duration

	// BaseURLEnv and APIKeyEnv name the environment variables holding the
	// external lanes' provider endpoint and key (provider_env); empty for
	// the defaults.
	BaseURLEnv, APIKeyEnv string

	// FakeSolution is the fake lane's solution overlay directory (absolute
	// once loaded; as written, relative to the case, after Parse), empty
	// when the case has none.
	FakeSolution string
	// fakeSolutionLine and fakeSolutionCol locate fake.solution's value.
	fakeSolutionLine, fakeSolutionCol int

	// Digest is the SHA-256 (hex) of case.yaml's bytes.
	Digest string
}

// Command is one verification command: an argument vector run without a
// shell in the workspace.
type Command struct {
	Argv []string
	Line int // position in case.yaml
	Col  int
}

// String renders the command for logs.
func (c Command) String() string { return strings.Join(c.Argv, " ") }

// RepoPath returns the fixture tree's absolute path.
func (c *Case) RepoPath() string { return filepath.Join(c.Dir, RepoDir) }

// Error is one contract problem at a position in case.yaml. Line and Col
// are 1-based; Col counts bytes. Line 0 means the file as a whole.
type Error struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Path + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
}

// ErrorList is every problem found in one contract, in file order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Unwrap exposes the individual errors to errors.Is and errors.As.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// maxContractSize bounds case.yaml; real contracts are a few kilobytes.
const maxContractSize = 1 << 20

// Load reads and validates the case in dir. A contract problem is returned
// as an ErrorList; an I/O problem as a wrapped error.
func Load(dir string) (*Case, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	p := filepath.Join(abs, FileName)
	info, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("case %s: %w", dir, err)
	}
	if info.Size() > maxContractSize {
		return nil, ErrorList{{Path: p, Msg: fmt.Sprintf("contract is %d bytes, over the %d byte limit", info.Size(), maxContractSize)}}
	}
	data, err := safefs.ReadPath(p, maxContractSize) // regular files only: a FIFO must not hang the run
	if err != nil {
		return nil, fmt.Errorf("case %s: %w", dir, err)
	}
	c, errs := Parse(p, data)
	if c != nil {
		c.Dir = abs
		c.Path = p
		errs = append(errs, c.CheckFiles(p, func(rel string) bool {
			info, err := os.Stat(filepath.Join(abs, filepath.FromSlash(rel)))
			return err == nil && info.IsDir()
		})...)
		errs = append(errs, CheckFixture(p, abs)...)
		if c.FakeSolution != "" {
			c.FakeSolution = filepath.Join(abs, filepath.FromSlash(c.FakeSolution))
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return c, nil
}

// CheckFiles checks the directories a parsed contract points at: the
// repo/ fixture tree and the fake solution overlay. isDir reports whether
// a slash path relative to the case directory is a directory. Call it
// after Parse, before Load makes FakeSolution absolute; p names the
// contract in messages.
func (c *Case) CheckFiles(p string, isDir func(rel string) bool) ErrorList {
	var errs ErrorList
	if !isDir(RepoDir) {
		errs = append(errs, &Error{Path: p, Msg: "case has no " + RepoDir + "/ fixture directory"})
	}
	if rel := c.FakeSolution; rel != "" && !filepath.IsAbs(rel) && !isDir(rel) {
		errs = append(errs, &Error{Path: p, Line: c.fakeSolutionLine, Col: c.fakeSolutionCol,
			Msg: fmt.Sprintf("fake.solution %q is not a directory in the case", rel)})
	}
	return errs
}

// idPattern is compiled on first use: its bounded repetition compiles to
// a hundred instructions' copies, ~0.3 ms at the start of every sotvet
// process, most of which never read a case.
var idPattern = lazyre.New(`^[a-z0-9][a-z0-9._-]{0,99}$`)

// Parse validates contract bytes; path is used in messages only. It
// returns the case (possibly partial) and every problem found.
func Parse(p string, data []byte) (*Case, ErrorList) {
	v := &validator{path: p, li: newLineIndex(data)}
	sum := sha256.Sum256(data)
	c := &Case{
		Digest:              hex.EncodeToString(sum[:]),
		RequireDiff:         true,
		CleanStart:          true,
		CleanEnd:            true,
		BackendTimeout:      DefaultBackendTimeout,
		VerificationTimeout: DefaultVerificationTimeout,
	}
	if !utf8.Valid(data) {
		v.fail(nil, "contract is not valid UTF-8")
		return nil, v.errs
	}
	if len(bytes.TrimSpace(data)) == 0 {
		v.fail(nil, "contract is empty")
		return nil, v.errs
	}
	var doc yaml.Node
	if err := yaml.Load(data, &doc); err != nil {
		line, col, msg := 0, 0, err.Error()
		var le *yaml.LoadError
		if errors.As(err, &le) {
			line, col, msg = le.Mark.Line, le.Mark.Column, le.Message
		}
		if line > 0 {
			col = v.li.byteCol(line, col)
		}
		v.errs = append(v.errs, &Error{Path: p, Line: line, Col: col, Msg: "malformed YAML: " + msg})
		return nil, v.errs
	}
	if doc.Kind == 0 || (doc.Kind == yaml.DocumentNode && len(doc.Content) == 0) {
		v.fail(nil, "contract is empty")
		return nil, v.errs
	}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		v.fail(root, "contract must be a mapping")
		return nil, v.errs
	}
	seen := map[string]*yaml.Node{}
	var haveVerification bool
	allowedListed := false // allowed_writes names at least one glob, valid or not
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, val := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			v.fail(k, "keys must be plain strings")
			continue
		}
		if first, dup := seen[k.Value]; dup {
			v.fail(k, fmt.Sprintf("duplicate key %q (first at line %d)", k.Value, first.Line))
			continue
		}
		seen[k.Value] = k
		val = v.deref(val)
		switch k.Value {
		case "id":
			c.ID = v.str(val, k.Value)
			if c.ID != "" && !idPattern.MatchString(c.ID) {
				v.fail(val, fmt.Sprintf("id %q: want lower-case letters, digits, '.', '_' or '-'", c.ID))
			}
		case "title":
			c.Title = v.str(val, k.Value)
		case "description":
			c.Description = v.str(val, k.Value)
		case "provider_env":
			v.providerEnv(val, c)
		case "task":
			c.Task = v.str(val, k.Value)
		case "mutation_mode":
			c.MutationMode = v.str(val, k.Value)
			if c.MutationMode != "" && !slices.Contains(MutationModes, c.MutationMode) {
				v.fail(val, fmt.Sprintf("mutation_mode %q: want one of %s", c.MutationMode, strings.Join(MutationModes, ", ")))
			}
		case "approval_required":
			c.ApprovalRequired = v.boolean(val, k.Value)
		case "require_diff":
			c.RequireDiff = v.boolean(val, k.Value)
		case "clean_start":
			c.CleanStart = v.boolean(val, k.Value)
		case "clean_end":
			c.CleanEnd = v.boolean(val, k.Value)
		case "allowed_writes":
			c.AllowedWrites = v.globs(val, k.Value)
			allowedListed = val.Kind != yaml.SequenceNode || len(val.Content) > 0
		case "forbidden_paths":
			c.ForbiddenPaths = v.globs(val, k.Value)
		case "forbidden_actions":
			c.ForbiddenActions = v.strs(val, k.Value)
		case "verification":
			haveVerification = true
			c.Verification = v.commands(val)
		case "required_events":
			c.RequiredEvents = v.events(val)
		case "timeouts":
			v.timeouts(val, c)
		case "fake":
			c.FakeSolution, c.fakeSolutionLine, c.fakeSolutionCol = v.fake(val)
		default:
			v.fail(k, fmt.Sprintf("unknown key %q", k.Value))
		}
	}
	for _, req := range []string{"id", "title", "task", "mutation_mode", "allowed_writes", "forbidden_paths", "forbidden_actions"} {
		if seen[req] == nil {
			v.fail(root, "missing required key "+req)
		}
	}
	if seen["allowed_writes"] != nil && !allowedListed && c.MutationMode != ModeNone {
		v.fail(seen["allowed_writes"], "allowed_writes is empty: a mutating case must allow some writes")
	}
	_ = haveVerification // an absent or empty verification list is a gate, not a contract error
	if c.RequiredEvents == nil {
		c.RequiredEvents = slices.Clone(DefaultRequiredEvents)
	}
	return c, v.errs
}

type validator struct {
	path string
	li   *lineIndex
	errs ErrorList
}

func (v *validator) fail(n *yaml.Node, msg string) {
	e := &Error{Path: v.path, Msg: msg}
	if n != nil && n.Line > 0 {
		e.Line, e.Col = n.Line, v.li.byteCol(n.Line, n.Column)
	}
	v.errs = append(v.errs, e)
}

// deref follows aliases a bounded number of times.
func (v *validator) deref(n *yaml.Node) *yaml.Node {
	for hops := 0; n != nil && n.Kind == yaml.AliasNode && hops < 16; hops++ {
		n = n.Alias
	}
	return n
}

func (v *validator) str(n *yaml.Node, key string) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		v.fail(n, key+": want a string")
		return ""
	}
	if strings.TrimSpace(n.Value) == "" {
		v.fail(n, key+": must not be empty")
	}
	return n.Value
}

func (v *validator) boolean(n *yaml.Node, key string) bool {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		v.fail(n, key+": want true or false")
		return false
	}
	return n.Value == "true"
}

func (v *validator) strs(n *yaml.Node, key string) []string {
	if n.Kind != yaml.SequenceNode {
		v.fail(n, key+": want a list of strings")
		return nil
	}
	out := []string{}
	for _, item := range n.Content {
		item = v.deref(item)
		if item.Kind != yaml.ScalarNode || item.Tag == "!!null" || strings.TrimSpace(item.Value) == "" {
			v.fail(item, key+": want a non-empty string")
			continue
		}
		out = append(out, item.Value)
	}
	return out
}

func (v *validator) globs(n *yaml.Node, key string) []string {
	if n.Kind != yaml.SequenceNode {
		v.fail(n, key+": want a list of path globs")
		return nil
	}
	out := []string{}
	for _, item := range n.Content {
		item = v.deref(item)
		if item.Kind != yaml.ScalarNode || item.Tag == "!!null" {
			v.fail(item, key+": want a path glob")
			continue
		}
		if err := CheckGlob(item.Value); err != nil {
			v.fail(item, key+": "+err.Error())
			continue
		}
		out = append(out, item.Value)
	}
	return out
}

// CheckGlob reports why a path glob is unusable: it must be a valid
// doublestar pattern, relative, clean, and free of ".." segments.
func CheckGlob(g string) error {
	if err := CheckRelPath(g); err != nil {
		return fmt.Errorf("glob %q: %w", g, err)
	}
	if !doublestar.ValidatePattern(g) {
		return fmt.Errorf("glob %q: not a valid pattern", g)
	}
	return nil
}

// CheckRelPath reports why p is not a clean, relative, slash-separated
// path inside a tree.
func CheckRelPath(p string) error {
	switch {
	case p == "":
		return errors.New("empty path")
	case strings.ContainsRune(p, 0):
		return errors.New("path contains a NUL byte")
	case strings.HasPrefix(p, "/") || filepath.IsAbs(p) || (len(p) > 1 && p[1] == ':'):
		return errors.New("absolute path")
	case strings.Contains(p, `\`):
		return errors.New("backslash in path: use /")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return errors.New("path escapes the tree with ..")
		}
	}
	if path.Clean(p) != p {
		return fmt.Errorf("path is not clean (want %q)", path.Clean(p))
	}
	return nil
}

func (v *validator) commands(n *yaml.Node) []Command {
	if n.Kind != yaml.SequenceNode {
		v.fail(n, "verification: want a list of commands")
		return nil
	}
	out := []Command{}
	for _, item := range n.Content {
		item = v.deref(item)
		var argv []string
		switch item.Kind {
		case yaml.ScalarNode:
			var ok bool
			if argv, ok = v.commandString(item); !ok {
				continue
			}
		case yaml.SequenceNode:
			argv = v.strs(item, "verification command")
		default:
			v.fail(item, "verification: want a command string or an argument list")
			continue
		}
		if len(argv) == 0 {
			v.fail(item, "verification: empty command")
			continue
		}
		if item.Kind == yaml.SequenceNode && strings.ContainsAny(argv[0], "|&;<>()$`") {
			v.fail(item, fmt.Sprintf("verification: %q looks like shell syntax; commands run without a shell", argv[0]))
			continue
		}
		out = append(out, Command{Argv: argv, Line: item.Line, Col: v.li.byteCol(item.Line, item.Column)})
	}
	return out
}

func (v *validator) events(n *yaml.Node) []string {
	evs := v.strs(n, "required_events")
	known := map[string]bool{}
	for _, e := range Events {
		known[e] = true
	}
	for i, e := range evs {
		if !known[e] && i < len(n.Content) {
			v.fail(n.Content[i], fmt.Sprintf("required_events: unknown event %q", e))
		}
	}
	return evs
}

func (v *validator) timeouts(n *yaml.Node, c *Case) {
	if n.Kind != yaml.MappingNode {
		v.fail(n, "timeouts: want a mapping of backend, verification and phase durations")
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], v.deref(n.Content[i+1])
		var dst *time.Duration
		switch k.Value {
		case "backend":
			dst = &c.BackendTimeout
		case "verification":
			dst = &c.VerificationTimeout
		case "phase":
			dst = &c.PhaseTimeout
		default:
			v.fail(k, fmt.Sprintf("timeouts: unknown key %q", k.Value))
			continue
		}
		d, err := time.ParseDuration(val.Value)
		if val.Kind != yaml.ScalarNode || err != nil || d <= 0 || d > 24*time.Hour {
			v.fail(val, fmt.Sprintf("timeouts.%s: want a duration such as 90s, between 1ns and 24h", k.Value))
			continue
		}
		*dst = d
	}
}

// fake reads the fake mapping: the solution directory and its position.
func (v *validator) fake(n *yaml.Node) (sol string, line, col int) {
	if n.Kind != yaml.MappingNode {
		v.fail(n, "fake: want a mapping")
		return "", 0, 0
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], v.deref(n.Content[i+1])
		switch k.Value {
		case "solution":
			sol = v.str(val, "fake.solution")
			if sol != "" {
				if err := CheckRelPath(sol); err != nil {
					v.fail(val, "fake.solution: "+err.Error())
					sol = ""
				}
			}
			line, col = val.Line, v.li.byteCol(val.Line, val.Column)
		default:
			v.fail(k, fmt.Sprintf("fake: unknown key %q", k.Value))
		}
	}
	return sol, line, col
}

// lineIndex converts YAML code-point columns to byte columns.
type lineIndex struct {
	text   []byte
	starts []int
}

func newLineIndex(text []byte) *lineIndex {
	li := &lineIndex{text: text, starts: []int{0}}
	for i, c := range text {
		if c == '\n' {
			li.starts = append(li.starts, i+1)
		}
	}
	return li
}

// byteCol returns the 1-based byte column of a 1-based code-point column.
func (li *lineIndex) byteCol(line, col int) int {
	if line < 1 || line > len(li.starts) {
		return col
	}
	start := li.starts[line-1]
	end := len(li.text)
	if i := bytes.IndexByte(li.text[start:], '\n'); i >= 0 {
		end = start + i
	}
	off := start
	for c := 1; c < col && off < end; c++ {
		_, size := utf8.DecodeRune(li.text[off:end])
		off += size
	}
	return off - start + 1
}

// Resolve finds a case by directory or by id under casesRoot.
func Resolve(ref, casesRoot string) (string, error) {
	if info, err := os.Stat(ref); err == nil && info.IsDir() {
		if _, err := os.Stat(filepath.Join(ref, FileName)); err == nil {
			return ref, nil
		}
	}
	if idPattern.MatchString(ref) {
		d := filepath.Join(casesRoot, ref)
		if _, err := os.Stat(filepath.Join(d, FileName)); err == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("case %q: no %s in %s or under %s", ref, FileName, ref, casesRoot)
}

// List returns the case directories under casesRoot, sorted.
func List(casesRoot string) ([]string, error) {
	ents, err := os.ReadDir(casesRoot)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		d := filepath.Join(casesRoot, e.Name())
		if _, err := os.Stat(filepath.Join(d, FileName)); err == nil {
			out = append(out, d)
		}
	}
	return out, nil
}

// lineRest returns line's text from a 1-based byte column on.
func (li *lineIndex) lineRest(line, col int) (string, bool) {
	if line < 1 || line > len(li.starts) {
		return "", false
	}
	start := li.starts[line-1]
	end := len(li.text)
	if i := bytes.IndexByte(li.text[start:], '\n'); i >= 0 {
		end = start + i
	}
	if col < 1 || start+col-1 > end {
		return "", false
	}
	return string(li.text[start+col-1 : end]), true
}
