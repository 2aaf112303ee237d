// Package secrets defines an Analyzer that finds secrets, credentials and
// endpoint values written into the workspace.
//
// # Analyzer secrets
//
// secrets: report credentials and model endpoint values written into the workspace.
//
// The workspace's rules say no secret, credential or endpoint value may be
// written into the source of truth. Every workspace file is scanned —
// documents and their frontmatter, WORKBOARD.yaml, JSON records, root
// .env.example files and sotvet.yaml — with sotvet's secrets engine (the
// same one the evidence harness uses to redact run artifacts): the provider
// token formats of gitleaks' community rule set (about 220 rules, compiled
// in from a pinned gitleaks release) and sotvet's own rules — GitHub,
// GitLab, AWS, GCP, Azure, OpenAI, Anthropic, Hugging Face, Slack, Stripe,
// npm, PyPI, JWTs (also base64-encoded), PEM private keys and key material
// in hex or base64, Kubernetes Secret data, bearer tokens, credentials in
// URLs, high-entropy values assigned to password, secret, token, key or
// credential names — and the value of a *_BASE_URL, *_ENDPOINT or
// *_API_BASE key that is a concrete URL or host:port (the name alone, and
// placeholders such as <admitted-ca>, ${VAR} or example.com, are fine).
// Values providers publish as examples are never findings. Text written
// base64-, hex- or percent-encoded, or with HTML character references
// (&quot;, &#34;), is decoded, up to five layers as gitleaks decodes it,
// and a secret found in it is reported on the encoded text, its message
// saying what it was decoded from. See docs/secrets.md
// for the rule families and how to add a rule.
//
// Each finding is reported at the exact position of the secret, its category
// is the engine's rule id, and its message names the rule and the masked
// value: the provider's public prefix its rule fixes ("ghp_****"), or
// "****" alone for a password or a generic secret. No output format,
// baseline or log ever holds the secret or a character of it.
//
// To accept a value, write "sotvet:allow-secret -- reason" on its line (a
// marker without a reason allows nothing and says so), list path globs in
// -allow-paths or value patterns in -allow-values, or record the finding in
// a baseline (--write-baseline): its fingerprint is a hash, never the value.
// A gitleaks:allow comment on the line is honoured too.
package secrets
