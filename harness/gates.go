package harness

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/internal/proc"
	"github.com/svrnty/sotvet/harness/sandbox"
)

// gates is the preflight: it runs before any copy or process and says
// whether the run may go on.
func (r *run) gates() bool {
	allowed := slices.Contains(r.opt.AllowEngines, r.name)
	r.tr("gate.preflight", map[string]any{"engine": r.name, "enabled": r.entry.Enabled, "explicitly_allowed": allowed, "executable": r.entry.Executable})
	switch {
	case !r.entry.Enabled && !allowed:
		r.gateBlocked("engine_enabled", evidence.EngineDisabled,
			fmt.Sprintf("engine %s is disabled by default; its gate (%s) was not opened", r.name, r.entry.Gate))
		return false
	case !r.entry.Executable:
		r.gateBlocked("adapter_executable", evidence.EngineNotExecutable,
			fmt.Sprintf("engine %s is registered but has no executable adapter at this proof stage; it was not started", r.name))
		return false
	case !r.laneModeAllowed():
		r.gateBlocked("mutation_mode", evidence.MutationModeNotAllowed,
			fmt.Sprintf("mutation mode %s exceeds what this harness allows (copied-fixture)", r.c.MutationMode))
		return false
	case len(r.c.Verification) == 0:
		r.gateBlocked("verification_command", evidence.MissingTestCommand,
			"the task contract names no verification command")
		r.rep.Verification.Missing = true
		return false
	case r.sb.Blocked:
		r.gateBlocked("sandbox", evidence.SandboxUnavailable, r.sb.Reason)
		return false
	}
	return r.laneGates()
}

// confinePolicy builds what confined processes may write: the workspace,
// the backend's HOME and TMPDIR inside the run directory, the Go build
// cache, and /dev/null. The rest of the run directory (the evidence, the
// harness's own scratch files) and everything outside it stay read-only.
// Reads are confined too (readPolicy): beyond what they may write, they
// may read only system directories, the toolchain and their own inputs.
// It reports whether the run may go on.
func (r *run) confinePolicy() bool {
	if !r.sb.Confine {
		return true
	}
	env := r.env(r.pathEnv())
	dirs := []string{r.ws, r.home, filepath.Join(r.tmp, "tmp")}
	if gc := proc.EnvValue(env, "GOCACHE"); filepath.IsAbs(gc) {
		if err := os.MkdirAll(gc, 0o755); err == nil {
			dirs = append(dirs, gc)
		} else {
			r.tr("sandbox.gocache", map[string]any{"path": gc, "error": err.Error()})
		}
	}
	p := &sandbox.Policy{Dirs: dirs, Files: []string{os.DevNull}, ConfineReads: true}
	p.Scope = r.sb.KernelABI >= sandbox.ScopeABI
	p.NoUnixSockets = sandbox.UnixSocketFilterSupported()
	p.ReadDirs, p.ReadFiles = r.readPolicy(env)
	if err := p.Check(); err != nil {
		msg := "the Landlock ruleset could not be built: " + err.Error()
		r.tr("sandbox.policy.error", map[string]any{"error": err.Error()})
		r.block(evidence.SandboxUnavailable, msg, nil)
		r.notApplicable("the backend did not start: " + evidence.SandboxUnavailable)
		fmt.Fprintln(&r.testLog, "verification not run: the sandbox could not be prepared")
		return false
	}
	r.policy = p
	r.rep.SandboxInfo.Writable = p.Paths()
	r.rep.SandboxInfo.ReadsConfined = true
	r.rep.SandboxInfo.Readable = append(append([]string{}, p.ReadDirs...), p.ReadFiles...)
	r.tr("sandbox.policy", map[string]any{"kind": sandbox.KindLandlock, "landlock_abi": r.sb.KernelABI, "ruleset_abi": sandbox.RulesetABI, "writable": p.Paths(), "readable": r.rep.SandboxInfo.Readable})
	return true
}

// confine returns the command line that runs argv confined by the run's
// policy, or argv itself when the run is not confined or its program
// cannot be found on path (the start then fails as it would unconfined).
//
// A process that needs no network (ownNet: it runs in a network namespace
// of its own) gets its loopback brought up; one that talks to a provider
// may connect to the provider's TCP port only, where the kernel offers
// Landlock's network rights.
func (r *run) confine(argv []string, path string, ownNet bool) (out []string, wrapped bool) {
	if r.policy == nil || len(argv) == 0 {
		return argv, false
	}
	prog, err := proc.LookPath(argv[0], path)
	if err != nil {
		return argv, false
	}
	p := *r.policy
	if ownNet {
		p.LoopbackUp = true
	} else if port := r.providerPort(); port != 0 && r.sb.KernelABI >= sandbox.NetABI {
		p.RestrictTCP, p.ConnectTCP = true, []uint16{port}
	}
	if f := realFile(prog); p.ConfineReads && f != "" && !slices.Contains(p.ReadFiles, f) {
		// The program itself, wherever it lives: it must be read to run.
		p.ReadFiles = append(slices.Clip(p.ReadFiles), f)
	}
	return sandbox.Wrap(r.opt.SandboxCommand, p, prog, argv), true
}

// confined records that who (the backend, the verification) started
// under the run's Landlock policy.
func (r *run) confined(who string) {
	r.rep.Sandbox = sandbox.KindLandlock
	r.rep.SandboxInfo.RulesetABI = sandbox.RulesetABI
	if !slices.Contains(r.rep.SandboxInfo.Confined, who) {
		r.rep.SandboxInfo.Confined = append(r.rep.SandboxInfo.Confined, who)
	}
}

// gateBlocked records a gate that stops the run before the backend starts.
func (r *run) gateBlocked(gate, code, reason string) {
	if r.c != nil {
		r.event("task.contract.created", "harness", r.contractData())
	}
	mode := ""
	if r.c != nil {
		mode = r.c.MutationMode
	}
	r.event("backend.gate.blocked", "harness", map[string]any{
		"backend": r.name, "gate": gate, "reason": reason, "mutation_mode": mode, "case_executed": false,
	})
	r.block(code, reason, nil)
	r.notApplicable("blocked before the backend started: " + code)
	log := fmt.Sprintf("engine: %s\ngate: %s\ndecision: blocked\nreason: %s\nbackend process started: false\n", r.name, gate, reason)
	r.payload = append(r.payload, payloadFile{evidence.BackendDir + "/" + r.name + "-gate.log", []byte(log)})
	fmt.Fprintf(&r.testLog, "verification not run: blocked before the backend started (%s)\n", code)
}

func (r *run) notApplicable(reason string) {
	for _, k := range []string{"plan", "patch", "diff", "verification"} {
		r.rep.NotApplicable[k] = reason
	}
	r.rep.Verification.Skipped = reason
}

// providerPort is the TCP port of the lane's provider endpoint, 0 when
// there is none.
func (r *run) providerPort() uint16 {
	if r.lane == nil || r.lane.baseURL == "" {
		return 0
	}
	u, err := url.Parse(r.lane.baseURL)
	if err != nil {
		return 0
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return 0
	}
	return uint16(n)
}

// noteReach records what who (the backend, the verification) could reach
// beyond files: the network, unix sockets and signals, as the harness set
// them up and the kernel enforced them, and what it could not enforce.
func (r *run) noteReach(who string, pr proc.Result, confined bool, ownNet bool) {
	if !pr.Started {
		return
	}
	si := &r.rep.SandboxInfo
	add := func(list *[]string, s string) {
		if !slices.Contains(*list, s) {
			*list = append(*list, s)
		}
	}
	si.Terminal = "none: a session of its own without a controlling terminal, stdin from /dev/null, output through pipes, no inherited descriptor"
	switch {
	case ownNet && strings.Contains(pr.Namespaces, "net"):
		add(&si.Network, who+": a network namespace of its own (its own loopback only)")
	case ownNet:
		add(&si.Network, who+": the host's network")
		add(&si.Unenforced, who+": no network namespace (the kernel refused new namespaces): the host's network and loopback services were reachable")
	case confined && r.providerPort() != 0 && r.sb.KernelABI >= sandbox.NetABI:
		add(&si.Network, fmt.Sprintf("%s: TCP connect to port %d only (the provider's), no TCP bind (Landlock ABI %d)", who, r.providerPort(), sandbox.NetABI))
		// Name resolution needs UDP; Landlock has UDP rules from ABI 10
		// only, and the harness does not use them yet.
		add(&si.Unenforced, who+": UDP not confined (name resolution needs it)")
		if !r.policy.NoUnixSockets {
			add(&si.Unenforced, who+": MPTCP and SCTP sockets are not refused, and Landlock's TCP rules do not see them")
		}
	default:
		add(&si.Network, who+": the host's network")
		why := "no Landlock confinement"
		if confined {
			why = fmt.Sprintf("the kernel offers Landlock ABI %d, TCP rules need ABI %d", r.sb.KernelABI, sandbox.NetABI)
		}
		add(&si.Unenforced, who+": TCP not confined to the provider's port ("+why+")")
	}
	switch {
	case confined && r.policy.NoUnixSockets:
		add(&si.IPC, who+": no unix socket can be made (seccomp), so no agent, bus or daemon socket is reachable")
	default:
		add(&si.IPC, who+": unix sockets allowed")
		add(&si.Unenforced, who+": pathname unix sockets (an ssh-agent, docker.sock) were reachable: not confined")
	}
	switch {
	case confined && r.policy.Scope:
		add(&si.IPC, fmt.Sprintf("%s: abstract unix sockets and signals within its own Landlock domain only (ABI %d)", who, sandbox.ScopeABI))
	case ownNet && strings.Contains(pr.Namespaces, "net"):
		add(&si.IPC, who+": abstract unix sockets of its own network namespace only; signals within its PID namespace")
	default:
		add(&si.Unenforced, who+": abstract unix sockets and signals not scoped (needs Landlock ABI 6)")
	}
}
