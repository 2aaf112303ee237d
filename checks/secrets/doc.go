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
// same one the evidence harness uses to redact run artifacts): provider
// tokens (GitHub, GitLab, AWS, GCP, Azure, OpenAI, Anthropic, Hugging Face,
// Slack, Stripe, npm, PyPI), JWTs, PEM private keys, bearer tokens,
// credentials in URLs, high-entropy values assigned to password, secret,
// token or API-key names, and the value of a *_BASE_URL, *_ENDPOINT or
// *_API_BASE key that is a concrete URL or host:port (the name alone, and
// placeholders such as <admitted-ca>, ${VAR} or example.com, are fine).
//
// Each finding is reported at the exact position of the secret, its category
// is the engine's rule id, and its message names the rule and a masked prefix
// ("sk-p****"): no output format, baseline or log ever holds the secret.
//
// To accept a value, write "sotvet:allow-secret -- reason" on its line (a
// marker without a reason allows nothing and says so), list path globs in
// -allow-paths or value patterns in -allow-values, or record the finding in
// a baseline (--write-baseline): its fingerprint is a hash, never the value.
package secrets
