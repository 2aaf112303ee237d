// Package trust says whom the readers of harness evidence believe: the
// keys a run, a comparison or a ledger record must be signed with. Every
// reader (harness verify, the ladder and the stage gate, summary and
// serve; the evidence check reads the same setting through its flag)
// gets its verify.Options from here, so that they cannot disagree about a
// run: an explicit public key wins, otherwise the workspace's sotvet.yaml
// trusted-keys; with neither, a valid run is only intact, never trusted.
package trust

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/svrnty/sotvet/config"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/verify"
)

// FromConfig returns the options a workspace configuration gives: its
// trusted-keys. A nil cfg (no configuration) trusts no key.
func FromConfig(cfg *config.Config) (verify.Options, error) {
	var opt verify.Options
	if cfg == nil {
		return opt, nil
	}
	for _, k := range cfg.TrustedKeys {
		pub, err := config.ParseKey(k)
		if err != nil {
			return verify.Options{}, fmt.Errorf("%s: trusted-keys: %w", cfg.Path, err)
		}
		opt.TrustedKeys = append(opt.TrustedKeys, pub)
	}
	return opt, nil
}

// Workspace returns the options of the workspace in dir: its sotvet.yaml
// trusted-keys; none when it has no configuration.
//
// Only trusted-keys is read (config.TrustedKeysIn): the rest of the file is
// the checks' business, validated by the commands that run them, and
// reading it here would make the harness import every check.
func Workspace(dir string) (verify.Options, error) {
	keys, path, err := config.TrustedKeysIn(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return verify.Options{}, nil
	}
	if err != nil {
		return verify.Options{}, err
	}
	return FromConfig(&config.Config{Path: path, TrustedKeys: keys})
}

// ConfigFile returns the options of the configuration file at path: its
// trusted-keys; none when the file does not exist.
func ConfigFile(path string) (verify.Options, error) {
	keys, err := config.TrustedKeysFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return verify.Options{}, nil
	}
	if err != nil {
		return verify.Options{}, err
	}
	return FromConfig(&config.Config{Path: path, TrustedKeys: keys})
}

// WithPublicKey returns opt with the key in the PKIX PEM file pubKeyPath
// as the only trusted one, when pubKeyPath is set: an explicit key
// replaces the workspace's.
func WithPublicKey(opt verify.Options, pubKeyPath string) (verify.Options, error) {
	if pubKeyPath == "" {
		return opt, nil
	}
	k, err := evidence.LoadPublicKey(pubKeyPath)
	if err != nil {
		return verify.Options{}, err
	}
	return verify.Options{PublicKey: k}, nil
}
