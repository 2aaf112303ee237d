package checks

import (
	"strings"
	"sync"

	secretscheck "github.com/svrnty/sotvet/checks/secrets"
	engine "github.com/svrnty/sotvet/secrets"
	"github.com/svrnty/sotvet/sotparse"
)

// minQuoted is the shortest piece of a secret that counts as quoting it: a
// message that shortens a quote ("ghp_u8jz...") still must not show it.
const minQuoted = 8

// redact runs every finding message and fix message through the secrets
// redactor, so that no check, whatever it quotes (a frontmatter value, a
// title, a repeated line, a path), can print a credential. Besides whole
// secrets anywhere in a message, it masks any long enough prefix or suffix
// of a secret found in the finding's own file: checks shorten long quotes.
func redact(ws *sotparse.Workspace, fs []Finding) error {
	if len(fs) == 0 {
		return nil
	}
	cfg, err := secretscheck.Config()
	if err != nil {
		return err
	}
	sc, err := engine.NewScanner(cfg)
	if err != nil {
		return err
	}
	var mu sync.Mutex
	inFile := map[string][]string{}
	secretsIn := func(path string) []string {
		mu.Lock()
		defer mu.Unlock()
		if s, ok := inFile[path]; ok {
			return s
		}
		var out []string
		if f := ws.File(path); f != nil && len(f.Content) > 0 {
			for _, x := range sc.Scan(path, f.Content) {
				if x.AllowReason == "value" || x.End > len(f.Content) {
					continue
				}
				out = append(out, string(f.Content[x.Start:x.End]))
			}
		}
		inFile[path] = out
		return out
	}
	clean := func(msg, path string) string {
		msg = sc.RedactString(msg)
		for _, s := range secretsIn(path) {
			msg = maskPieces(msg, s)
		}
		return msg
	}
	for i := range fs {
		f := &fs[i]
		f.Message = clean(f.Message, f.File)
		for j := range f.Fixes {
			f.Fixes[j].Message = clean(f.Fixes[j].Message, f.File)
		}
	}
	return nil
}

// Redactor returns the secrets redactor the secrets check's settings
// describe, for text sotvet prints that is not a finding (a fix preview).
func Redactor() (func([]byte) []byte, error) {
	cfg, err := secretscheck.Config()
	if err != nil {
		return nil, err
	}
	sc, err := engine.NewScanner(cfg)
	if err != nil {
		return nil, err
	}
	return sc.Redact, nil
}

// maskPieces replaces in msg the longest prefix, then the longest suffix, of
// secret that msg holds (at least minQuoted bytes) by the secret's mask.
func maskPieces(msg, secret string) string {
	if len(secret) < minQuoted {
		return strings.ReplaceAll(msg, secret, engine.Mask(secret))
	}
	mask := engine.Mask(secret)
	for n := len(secret); n >= minQuoted; n-- {
		if strings.Contains(msg, secret[:n]) {
			msg = strings.ReplaceAll(msg, secret[:n], mask)
			break
		}
	}
	for n := len(secret) - 1; n >= minQuoted; n-- {
		if strings.Contains(msg, secret[len(secret)-n:]) {
			msg = strings.ReplaceAll(msg, secret[len(secret)-n:], engine.MaskSuffix)
			break
		}
	}
	return msg
}
