package gencorpus

// Vocabulary for the synthetic documents. Nothing here may contain a work id
// ("CTO-WORK-"), a ".sot/" path, a colon followed by a space, or a line that
// starts with a key sotparse picks out ("Status:", "Type:", ...): the
// generator adds those itself, consistently.

var topicWords = []string{
	"Hermes", "Approval", "Packet", "Harness", "Replay", "Sandbox", "Provider",
	"Admission", "Refresh", "Control", "Panel", "Gate", "Stage", "Evidence",
	"Fixture", "Guard", "Ledger", "Signal", "Budget", "Freshness", "Digest",
	"Trace", "Matrix", "Queue", "Lease", "Quorum", "Sync", "Smoke", "WebUI",
	"Runtime", "Model", "Target", "Repository", "Sequence", "Summary", "Endpoint",
	"Boundary", "Consumed", "Promotion", "Decision", "Repeatability", "Workflow",
	"Candidate", "Default", "Copied", "Disposable", "Local", "Remote", "Audit",
}

var itemSuffixes = []string{
	"PRD", "Route", "Evidence Closeout", "Validation", "Surface", "Record",
	"Harness Case Route", "Guard", "Contract", "Decision Record", "Closeout",
	"Fixture Matrix", "Focused Tests", "Boundary Check", "Replay Proof",
}

var subjects = []string{
	"The Harness", "Hermes", "The CTO route", "JP", "The evidence writer",
	"The child validator", "Case", "The control summary", "The approval packet",
	"The target repository", "The disposable sandbox", "The run directory",
	"The workboard", "The closeout", "Each governed run", "The provider admission",
	"The digest manifest", "The focused test suite", "The WebUI panel",
	"The replay lane", "The staged proof gate", "Cortex Core",
}

var verbs = []string{
	"records", "rejects", "requires", "keeps", "proves", "prepares", "validates",
	"blocks", "refreshes", "reads", "compares", "surfaces", "pins", "replays",
	"verifies", "summarizes", "refuses", "names", "checks", "preserves",
}

var objects = []string{
	"the run directory", "each approval event", "the digest manifest",
	"a fresh `report.json`", "the allowed paths", "the blocked actions",
	"the `events.normalized.jsonl` stream", "the backend exit code",
	"the changed files", "the `patch.diff` artifact", "the freshness proof",
	"every forbidden path", "the source admission record", "the model admission",
	"the `approval_packet` field", "the `approval_command_text` field",
	"the staged proof evidence", "the clean starting tree", "the clean ending tree",
	"the verification summary", "the operator outcome", "the `test.log` artifact",
	"the `trace.jsonl` stream", "the candidate-default comparison",
	"the read-only control state", "the review trigger", "the risk classification",
}

var tails = []string{
	"before any Case run", "without mutating the target repository",
	"after the focused tests pass", "under the pragmatic transportability standard",
	"while runtime default activation remains false", "before JP approves",
	"and fails closed on any mismatch", "so that the evidence stays re-verifiable",
	"for every governed refresh", "without granting Core authority",
	"before the closeout is recorded", "and keeps the upstream sources untouched",
	"", "", "", "",
}

var plainObjects = []string{
	"the run directory", "each approval event", "the digest manifest",
	"the allowed paths", "the blocked actions", "the backend exit code",
	"the changed files", "the freshness proof", "every forbidden path",
	"the source admission record", "the staged proof evidence",
	"the verification summary", "the operator outcome", "the review trigger",
}

var codeIdents = []string{
	"approval_packet", "approval_command_text", "report.json", "report.md",
	"events.normalized.jsonl", "patch.diff", "test.log", "trace.jsonl",
	"case_process_started", "runtime_default_activation", "ready_for_core_review",
	"source_admission_status", "allowed_writes_passed", "artifact_digests",
	"backend_exit_code", "verification.completed", "run.completed",
	"approval.requested", "approval.granted", "git.diff.checked",
}

var scopeBullets = []string{
	"required evidence paths", "allowed paths", "blocked actions",
	"proof-ready state", "fail-closed gate state", "digest manifest coverage",
	"freshness window", "operator outcome capture", "replay determinism",
	"provider availability signal", "clean tree checks", "focused plugin tests",
}

var nonGoals = []string{
	"Do not add executable approval buttons.",
	"Do not activate Case as default backend.",
	"Do not mutate target repositories.",
	"Do not edit upstream `hermes-webui`.",
	"Do not edit upstream `hermes-agent`.",
	"Do not change Cortex Core authority.",
	"Do not infer missing target repository admission beyond Harness evidence.",
	"Do not authorize another Case run.",
	"Do not promote this route into Core.",
}

var validationBullets = []string{
	"Focused plugin tests prove packet fields, fail-closed state, and static rendering hooks.",
	"Plugin aggregate tests pass before commit and after merge.",
	"CTO child validator records planning and evidence.",
	"S69 prose validator passes before report.",
	"Harness health passes after the route lands.",
	"WebUI summary validation passes.",
	"Fake baseline passes before any real lane runs.",
}

var glossary = [][2]string{
	{"Harness", "The evidence harness. It runs a code-change task behind fail-closed gates and writes an auditable run directory."},
	{"Hermes", "The control surface. It shows Harness-backed control state read-only and prepares approval text; it never approves by itself."},
	{"Case", "The execution backend under evaluation. It executes only after proof and is never the runtime default."},
	{"CTO route", "A PRD, its SOT Issue sequence and the evidence and closeout documents that share one route stem."},
	{"Core Protocol", "A promoted Core SOT artifact. No document in this workspace is a Core Protocol."},
	{"Local planning SOT", "A planning artifact that lives in this child workspace and has no Core authority."},
	{"Approval Packet", "Copy and paste approval text that Hermes prepares for JP from Harness evidence."},
	{"Target Repository", "The owned repository a governed run may change, within its admitted allowed paths."},
	{"Run Directory", "The Harness Evidence Interface written by one run, with its report, events, patch, logs and digests."},
	{"Digest Manifest", "The SHA-256 digests of every artifact in a run directory, used to re-verify the evidence."},
	{"Control Summary", "The JSON summary of workboard and evidence state that the WebUI panel renders."},
	{"Evidence Writer", "The Harness component that writes the run directory and refuses to write outside it."},
	{"Child Validator", "The workspace validator that checks planning documents, the workboard and the evidence records."},
	{"Staged Proof Gate", "One of the six gates a backend passes, from artificial fixture to owned noncritical repository."},
	{"Disposable Sandbox", "A throwaway repository copy a Stage 4 run may change and then delete."},
	{"Provider Admission", "The record that admits one model provider and model for Case runs, with its review trigger."},
	{"Freshness Proof", "The evidence that a report was produced by the run it describes and not copied from an earlier one."},
	{"Operator Outcome", "The human decision recorded after a governed run, required before a closeout."},
	{"Replay Lane", "A deterministic re-run of recorded evidence used to prove repeatability."},
	{"Cortex Core", "The authority layer that owns SOT authority, routing, lifecycle and promotion rules."},
	{"JP", "The human approver. JP remains the approver for every governed run."},
	{"WebUI Panel", "The read-only Hermes panel that renders the control summary."},
}
