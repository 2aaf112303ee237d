// Package ledger holds the operator's records of the staged proof ladder —
// approval decisions, their consumption by a run, operator outcomes — and
// lane comparison reports, and seals each one: a SHA-256 digest of its
// canonical JSON (which catches any edit) and, with a key, an ed25519
// signature over the same bytes (which makes it trustworthy). It knows
// no policy and starts no process.
package ledger

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"

	"github.com/svrnty/sotvet/harness/evidence"
)

// SchemaVersion is the version of every ledger record.
const SchemaVersion = 1

// Seal is a record's integrity: digest always, signature with a key.
type Seal struct {
	Digest  string     `json:"digest"`
	Signing *Signature `json:"signing"`
}

// Signature is an ed25519 signature over the record's canonical JSON with
// digest "" and signing null.
type Signature struct {
	Algorithm string `json:"algorithm"`
	PublicKey string `json:"public_key"` // base64 of the raw key
	KeyID     string `json:"keyid"`      // hex SHA-256 of the raw key
	Sig       string `json:"sig"`        // base64
}

// Sealed is a record with a Seal.
type Sealed interface{ seal() *Seal }

func (s *Seal) seal() *Seal { return s }

// body is the record's canonical JSON without its seal.
func body(r Sealed) ([]byte, error) {
	s := r.seal()
	saved := *s
	*s = Seal{}
	defer func() { *s = saved }()
	return evidence.Marshal(r)
}

// Marshal seals r (signing it when key is not nil) and returns its bytes.
func Marshal(r Sealed, key ed25519.PrivateKey) ([]byte, error) {
	b, err := body(r)
	if err != nil {
		return nil, err
	}
	s := r.seal()
	s.Digest = evidence.Digest(b)
	s.Signing = nil
	if key != nil {
		pub := key.Public().(ed25519.PublicKey)
		s.Signing = &Signature{
			Algorithm: "ed25519",
			PublicKey: base64.StdEncoding.EncodeToString(pub),
			KeyID:     evidence.KeyID(pub),
			Sig:       base64.StdEncoding.EncodeToString(ed25519.Sign(key, b)),
		}
	}
	return evidence.Marshal(r)
}

// Unmarshal decodes data into r strictly and checks its seal: canonical
// form, digest, and signature. With trusted keys given (nil ones are
// ignored), the record must be signed by one of them. Every problem is
// returned; r is filled when data decodes.
func Unmarshal(data []byte, r Sealed, trusted ...ed25519.PublicKey) []error {
	trusted = slices.DeleteFunc(slices.Clone(trusted), func(k ed25519.PublicKey) bool { return k == nil })
	if err := evidence.DecodeStrict(data, r); err != nil {
		return []error{fmt.Errorf("does not match its schema: %v", err)}
	}
	var errs []error
	if again, err := evidence.Marshal(r); err != nil || !bytes.Equal(again, data) {
		errs = append(errs, errors.New("is not in the canonical form sotvet writes"))
	}
	b, err := body(r)
	if err != nil {
		return append(errs, err)
	}
	s := r.seal()
	if evidence.Digest(b) != s.Digest {
		errs = append(errs, errors.New("digest does not match its content"))
	}
	switch {
	case s.Signing == nil && len(trusted) > 0:
		errs = append(errs, errors.New("is not signed, but a trusted key was given"))
	case s.Signing != nil:
		pub, err := base64.StdEncoding.Strict().DecodeString(s.Signing.PublicKey)
		sig, err2 := base64.StdEncoding.Strict().DecodeString(s.Signing.Sig)
		switch {
		case err != nil || err2 != nil || len(pub) != ed25519.PublicKeySize || s.Signing.Algorithm != "ed25519":
			errs = append(errs, errors.New("signing is not an ed25519 signature"))
		case s.Signing.KeyID != evidence.KeyID(pub):
			errs = append(errs, errors.New("signing.keyid does not match the key"))
		case !ed25519.Verify(pub, b, sig):
			errs = append(errs, errors.New("signature does not verify"))
		case len(trusted) > 0 && !slices.ContainsFunc(trusted, func(k ed25519.PublicKey) bool { return bytes.Equal(k, pub) }):
			errs = append(errs, errors.New("signed with a key other than the trusted ones"))
		}
	}
	return errs
}
