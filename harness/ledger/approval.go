package ledger

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/svrnty/sotvet/internal/lazyre"
)

// ApprovalsDir is the directory of approval records under a runs root.
const ApprovalsDir = "approvals"

// Decisions.
const (
	Granted = "granted"
	Denied  = "denied"
)

// Approval is an operator's decision on an approval packet, written by
// sotvet harness approve --grant|--deny as RUNS/approvals/<id>.json.
type Approval struct {
	SchemaVersion  int    `json:"schema_version"`
	ApprovalID     string `json:"approval_id"`
	CaseID         string `json:"case_id"`
	ContractSHA256 string `json:"contract_sha256"`
	Engine         string `json:"engine"`
	Stage          int    `json:"stage"`
	Repo           string `json:"repo"`
	// RepoHead is the commit Repo was at when the packet was built: the
	// approval allows a run on that commit only.
	RepoHead       string   `json:"repo_head,omitempty"`
	Decision       string   `json:"decision"`
	Actor          string   `json:"actor"`
	Scope          string   `json:"scope"`
	MutationMode   string   `json:"mutation_mode"`
	AllowedPaths   []string `json:"allowed_paths"`
	BlockedActions []string `json:"blocked_actions"`
	ApprovalText   string   `json:"approval_text"`
	PacketSHA256   string   `json:"packet_sha256"`
	RecordedAt     string   `json:"recorded_at"`
	ExpiresAt      string   `json:"expires_at"`
	Seal
}

// Consumption records the one run that consumed an approval, written
// exclusively as RUNS/approvals/<id>.consumed.json.
type Consumption struct {
	SchemaVersion          int    `json:"schema_version"`
	ApprovalID             string `json:"approval_id"`
	RunID                  string `json:"run_id"`
	ConsumedAt             string `json:"consumed_at"`
	ConsumedByPassEvidence string `json:"consumed_by_pass_evidence"`
	Seal
}

var idRE = lazyre.New(`^appr-[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$`)

// ValidID says whether id is an approval id sotvet makes.
func ValidID(id string) bool { return idRE.MatchString(id) }

// NewID makes an approval id.
func NewID(at time.Time) (string, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "appr-" + at.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:]), nil
}

// ApprovalPath is where approval id lives under runsRoot.
func ApprovalPath(runsRoot, id string) string {
	return filepath.Join(runsRoot, ApprovalsDir, id+".json")
}

// ConsumptionPath is where approval id's consumption lives.
func ConsumptionPath(runsRoot, id string) string {
	return filepath.Join(runsRoot, ApprovalsDir, id+".consumed.json")
}

// WriteNew writes data to path, failing if path exists: the one writer of
// a record wins, every other one fails.
func WriteNew(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// maxRecord bounds the size of a record sotvet reads.
const maxRecord = 1 << 20

// ReadFile reads a regular file of at most 1 MiB, refusing links.
func ReadFile(path string) ([]byte, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if info.Size() > maxRecord {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxRecord)
	}
	return os.ReadFile(path)
}
