// Package secrets is sotvet's one engine for finding and redacting secrets,
// credentials and endpoint values. The secrets check runs Scan over the
// workspace; the evidence harness runs Redact over every log, report and
// trace before it is written.
//
// # Rules
//
// A Rule names one credential format (DefaultRules lists them, most specific
// first): an ID, a description, a regular expression with the secret in the
// named group "secret", an optional entropy floor and minimum length,
// keywords, and optional Gate and Validate functions. Besides the provider
// token formats there are three context rules: url-credentials (the password
// of scheme://user:password@host), endpoint-value (a URL or host:port
// assigned to a *_BASE_URL, *_ENDPOINT or *_API_BASE key — this workspace
// forbids recording local model endpoints; a public service's address, a
// public DNS name on its default port, is none) and generic-secret (a
// high-entropy value assigned to a password, secret, token or API-key name).
//
// DefaultRules also holds the community rule set of gitleaks (GitleaksRules,
// about 220 provider formats), converted at go generate time from the
// pinned gitleaks module's rule file into gitleaks_rules.go and run by this
// engine with gitleaks' semantics (secretGroup, entropy, per-rule and
// global allowlists, path filters); see docs/secrets.md. Values providers
// publish as examples (published_examples.txt) are never reported.
//
// # How a scan runs
//
// One pass of an Aho-Corasick automaton (a dense DFA over an ASCII
// case-folded alphabet, run as four interleaved streams) finds every keyword
// of every rule. A hit passes the rule's Gate, a constant-time look at the
// bytes after the keyword (is this name followed by "=" or ":"?), and then
// marks the keyword's line, widened by the rule's Before and After context
// for multi-line formats, as a window. Each rule's regular expression runs
// only over its merged windows — or, for a rule whose every match begins at
// one of its keywords (most rules; read from the expression's syntax),
// anchored at each keyword hit. Matches are filtered by length, entropy,
// IsPlaceholder and Validate; where matches of different rules overlap, the
// rule listed first wins.
//
// # Allowing a finding
//
// Scan reports allowed findings too, with Allowed set and AllowReason saying
// why: an inline "sotvet:allow-secret -- reason" on the secret's line
// ("inline: reason"; a marker without a reason allows nothing and sets
// Unjustified), a path glob (Config.AllowPaths, "**" supported, or
// Config.AllowPath), a value pattern (Config.AllowValues), or the baseline
// (Config.Baseline, a set of Fingerprint values). Coming from gitleaks, a
// "gitleaks:allow" comment on the line and the entries of a .gitleaksignore
// (Config.GitleaksIgnore) allow findings too.
//
// # Redaction
//
// No Finding field holds a secret, nor any character of one: Redacted is
// the rule's Mask of the secret, the literal text the rule's expression
// fixes at the start of its secret (a provider's public prefix: "ghp_",
// "AKIA", "xoxb-", "sk-ant-api03-", "-----BEGIN") followed by "****", or
// "****" alone when the expression fixes none (a password, a PIN, a
// passphrase, a generic secret, a connection string's password). Mask
// without a rule is "****". The finding's rule ID, position and
// Fingerprint still identify the value; Fingerprint is the SHA-256 of the rule ID and the secret, so a
// baseline never stores a secret and survives line moves. Redact masks every
// detected secret, allowed or not (only value-allowlisted secrets stay), and
// every other occurrence of the same text, with the same masks, so its
// output contains none of the secrets Scan reports.
//
// A Scanner is safe for concurrent use.
package secrets
