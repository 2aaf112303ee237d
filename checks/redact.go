package checks

import (
	"strings"

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
// of a secret found on the finding's own lines: checks shorten long quotes.
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
	clean := func(msg string, f *Finding) string {
		msg = sc.RedactString(msg)
		for _, s := range secretsOnLines(sc, ws, f) {
			msg = maskPieces(msg, s)
		}
		return msg
	}
	for i := range fs {
		f := &fs[i]
		f.Message = clean(f.Message, f)
		for j := range f.Fixes {
			f.Fixes[j].Message = clean(f.Fixes[j].Message, f)
		}
		for j := range f.Related {
			// A note quotes its own place, and may quote the finding's.
			rel := &f.Related[j]
			at := &Finding{File: rel.File, Line: rel.Line, EndLine: rel.Line}
			rel.Message = clean(clean(rel.Message, f), at)
		}
	}
	return nil
}

// secretsOnLines returns the secrets on the lines a finding spans: the
// text a check quotes, and may shorten, comes from there.
func secretsOnLines(sc *engine.Scanner, ws *sotparse.Workspace, f *Finding) []string {
	file := ws.File(f.File)
	if file == nil || len(file.Content) == 0 || f.Line < 1 || f.Line > file.Tok.LineCount() {
		return nil
	}
	last := max(f.Line, min(f.EndLine, file.Tok.LineCount()))
	start := file.Tok.Offset(file.Tok.LineStart(f.Line))
	end := len(file.Content)
	if last < file.Tok.LineCount() {
		end = file.Tok.Offset(file.Tok.LineStart(last + 1))
	}
	text := file.Content[start:end]
	var out []string
	for _, x := range sc.Scan(f.File, text) {
		if x.AllowReason != "value" && x.End <= len(text) {
			out = append(out, string(text[x.Start:x.End]))
		}
	}
	return out
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
