package evidence

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"strconv"

	"github.com/svrnty/sotvet/internal/safefs"
)

// In-toto and DSSE constants.
const (
	StatementType   = "https://in-toto.io/Statement/v1"
	PredicateType   = "https://github.com/svrnty/sotvet/harness-run/v1"
	DSSEPayloadType = "application/vnd.in-toto+json"
)

// AttestedArtifacts are the statement's subjects, in order.
var AttestedArtifacts = []string{PatchFile, ReportJSON, TestLog}

// Statement is an in-toto Statement v1.
type Statement struct {
	Type          string    `json:"_type"`
	Subject       []Subject `json:"subject"`
	PredicateType string    `json:"predicateType"`
	Predicate     Predicate `json:"predicate"`
}

// Subject is one attested artifact.
type Subject struct {
	Name   string            `json:"name"`
	Digest map[string]string `json:"digest"`
}

// Predicate records what the run was about.
type Predicate struct {
	CaseID         string            `json:"case_id"`
	RunID          string            `json:"run_id"`
	Status         string            `json:"status"`
	Backend        string            `json:"backend"`
	ContractDigest map[string]string `json:"contract_digest"`
	Baseline       PredicateBaseline `json:"baseline"`
	RunStartedAt   string            `json:"run_started_at"`
	RunFinishedAt  string            `json:"run_finished_at"`
	EventChainHead string            `json:"event_chain_head"`
}

// PredicateBaseline is the workspace's starting point.
type PredicateBaseline struct {
	Commit     string            `json:"commit"`
	TreeDigest map[string]string `json:"tree_digest"`
}

// BuildStatement makes the statement for a report from the SHA-256 of
// each attested artifact; one missing from digests (because it could not
// be written, as the report says) is left out of the subjects.
func BuildStatement(r *Report, digests map[string]string) ([]byte, error) {
	st := Statement{
		Type:          StatementType,
		PredicateType: PredicateType,
		Predicate: Predicate{
			CaseID:         r.CaseID,
			RunID:          r.RunID,
			Status:         r.Status,
			Backend:        r.Backend,
			ContractDigest: map[string]string{"sha256": r.Contract.Digest},
			Baseline: PredicateBaseline{
				Commit:     r.Baseline.Commit,
				TreeDigest: map[string]string{"sha256": r.Baseline.TreeDigest},
			},
			RunStartedAt:   r.RunStartedAt,
			RunFinishedAt:  r.RunFinishedAt,
			EventChainHead: r.Events.ChainHead,
		},
	}
	for _, name := range AttestedArtifacts {
		d, ok := digests[name]
		if !ok {
			continue // an artifact that could not be written; the report names it
		}
		st.Subject = append(st.Subject, Subject{Name: name, Digest: map[string]string{"sha256": d}})
	}
	return Marshal(st)
}

// Envelope is a DSSE envelope.
type Envelope struct {
	Payload     string      `json:"payload"`
	PayloadType string      `json:"payloadType"`
	Signatures  []Signature `json:"signatures"`
}

// Signature is one DSSE signature.
type Signature struct {
	KeyID string `json:"keyid"`
	Sig   string `json:"sig"`
}

// PAE is DSSE's pre-authentication encoding.
func PAE(payloadType string, payload []byte) []byte {
	var b bytes.Buffer
	b.WriteString("DSSEv1 ")
	b.WriteString(strconv.Itoa(len(payloadType)))
	b.WriteByte(' ')
	b.WriteString(payloadType)
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(len(payload)))
	b.WriteByte(' ')
	b.Write(payload)
	return b.Bytes()
}

// KeyID is the hex SHA-256 of a raw ed25519 public key.
func KeyID(pub ed25519.PublicKey) string {
	s := sha256.Sum256(pub)
	return hex.EncodeToString(s[:])
}

// SigningInfo describes a public key for report.json.
func SigningInfo(pub ed25519.PublicKey) *Signing {
	return &Signing{Algorithm: "ed25519", PublicKey: base64.StdEncoding.EncodeToString(pub), KeyID: KeyID(pub)}
}

// Sign wraps statement in a DSSE envelope signed with key.
func Sign(statement []byte, key ed25519.PrivateKey) ([]byte, error) {
	pub := key.Public().(ed25519.PublicKey)
	sig := ed25519.Sign(key, PAE(DSSEPayloadType, statement))
	return Marshal(Envelope{
		Payload:     base64.StdEncoding.EncodeToString(statement),
		PayloadType: DSSEPayloadType,
		Signatures:  []Signature{{KeyID: KeyID(pub), Sig: base64.StdEncoding.EncodeToString(sig)}},
	})
}

// VerifyEnvelope checks that env is exactly the envelope of statement
// signed by pub.
func VerifyEnvelope(env, statement []byte, pub ed25519.PublicKey) error {
	var e Envelope
	if err := DecodeStrict(env, &e); err != nil {
		return fmt.Errorf("envelope: %w", err)
	}
	if again, err := Marshal(e); err != nil || !bytes.Equal(again, env) {
		return errors.New("envelope is not in canonical form")
	}
	if e.PayloadType != DSSEPayloadType {
		return fmt.Errorf("envelope payloadType %q, want %q", e.PayloadType, DSSEPayloadType)
	}
	payload, err := base64.StdEncoding.Strict().DecodeString(e.Payload)
	if err != nil || base64.StdEncoding.EncodeToString(payload) != e.Payload {
		return errors.New("envelope payload is not canonical base64")
	}
	if !bytes.Equal(payload, statement) {
		return fmt.Errorf("envelope payload differs from %s", Attestation)
	}
	if len(e.Signatures) != 1 {
		return fmt.Errorf("envelope has %d signatures, want 1", len(e.Signatures))
	}
	s := e.Signatures[0]
	if s.KeyID != KeyID(pub) {
		return errors.New("envelope keyid does not match the signing key")
	}
	sig, err := base64.StdEncoding.Strict().DecodeString(s.Sig)
	if err != nil || base64.StdEncoding.EncodeToString(sig) != s.Sig {
		return errors.New("envelope signature is not canonical base64")
	}
	if !ed25519.Verify(pub, PAE(e.PayloadType, payload), sig) {
		return errors.New("envelope signature does not verify")
	}
	return nil
}

// maxKeyFile caps a key file: PEM keys are a few hundred bytes.
const maxKeyFile = 64 << 10

// LoadSigningKey reads an ed25519 private key in PKCS #8 PEM form.
func LoadSigningKey(path string) (ed25519.PrivateKey, error) {
	data, err := safefs.ReadPath(path, maxKeyFile)
	if err != nil {
		return nil, err
	}
	return ParseSigningKey(path, data)
}

// ReadSigningKeyFile reads a private key file's bytes, capped as
// LoadSigningKey caps them, without parsing them.
func ReadSigningKeyFile(path string) ([]byte, error) {
	return safefs.ReadPath(path, maxKeyFile)
}

// ParseSigningKey parses an ed25519 private key in PKCS #8 PEM form; name
// says where it came from in errors.
func ParseSigningKey(path string, data []byte) (ed25519.PrivateKey, error) {
	blk, _ := pem.Decode(data)
	if blk == nil || blk.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%s: want a PEM \"PRIVATE KEY\" block (PKCS #8 ed25519)", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ek, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%s: not an ed25519 key", path)
	}
	return ek, nil
}

// LoadPublicKey reads an ed25519 public key in PKIX PEM form.
func LoadPublicKey(path string) (ed25519.PublicKey, error) {
	data, err := safefs.ReadPath(path, maxKeyFile)
	if err != nil {
		return nil, err
	}
	blk, _ := pem.Decode(data)
	if blk == nil || blk.Type != "PUBLIC KEY" {
		return nil, fmt.Errorf("%s: want a PEM \"PUBLIC KEY\" block", path)
	}
	k, err := x509.ParsePKIXPublicKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ek, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("%s: not an ed25519 key", path)
	}
	return ek, nil
}
