// Package gitleaksrules is the data model of gitleaks' rule file, reduced
// to what sotvet's secrets engine compiles (gitleakstoml converts the TOML).
package gitleaksrules

// Set is a converted gitleaks rule file and where it came from.
type Set struct {
	Module       string `json:"module"`
	Version      string `json:"version"`
	ModuleSum    string `json:"module_sum"`    // the go.sum h1: hash of the module
	SourceSHA256 string `json:"source_sha256"` // SHA-256 of config/gitleaks.toml
	// Allowlist is the file's global allowlist.
	Allowlist Allowlist `json:"allowlist"`
	Rules     []Rule    `json:"rules"`
}

// Rule is one [[rules]] table.
type Rule struct {
	ID          string      `json:"id"`
	Description string      `json:"description"`
	Regex       string      `json:"regex,omitempty"`
	SecretGroup int         `json:"secret_group,omitempty"`
	Entropy     float64     `json:"entropy,omitempty"`
	Keywords    []string    `json:"keywords,omitempty"`
	Path        string      `json:"path,omitempty"`
	Allowlists  []Allowlist `json:"allowlists,omitempty"`
}

// Allowlist is one [[rules.allowlists]] table or the global [allowlist].
type Allowlist struct {
	Description string   `json:"description,omitempty"`
	Condition   string   `json:"condition,omitempty"`    // "OR" (default) or "AND"
	RegexTarget string   `json:"regex_target,omitempty"` // "secret" (default), "match" or "line"
	Regexes     []string `json:"regexes,omitempty"`
	StopWords   []string `json:"stopwords,omitempty"`
	Paths       []string `json:"paths,omitempty"`
	Commits     []string `json:"commits,omitempty"`
}
