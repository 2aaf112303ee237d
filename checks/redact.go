package checks

import (
	"strings"
	"sync"

	secretscheck "github.com/svrnty/sotvet/checks/secrets"
	"github.com/svrnty/sotvet/internal/memo"
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
//
// The cost does not grow with the findings of a file: each file with
// findings is scanned once, its secrets kept by line, and a message text
// (many findings share one) is redacted once.
//
// scans, when the secrets check ran, are its scans of the files it read:
// the same scanner configuration, so those files are not scanned again.
//
// kept, when set, holds the redactions of earlier runs (a session's).
func redact(ws *sotparse.Workspace, text *textIndex, scans *secretscheck.Scans, kept *redactMemo, fs []Finding) error {
	if len(fs) == 0 {
		return nil
	}
	sc, err := secretscheck.Scanner()
	if err != nil {
		return err
	}
	r := &redactor{sc: sc, ws: ws, text: text, scans: scans, done: map[string]string{}, files: map[string]*fileSecrets{}}
	if kept != nil {
		r.kept = kept.of(sc)
	}
	for i := range fs {
		f := &fs[i]
		f.Message = r.clean(f.Message, f.File, f.Line, f.EndLine)
		for j := range f.Fixes {
			f.Fixes[j].Message = r.clean(f.Fixes[j].Message, f.File, f.Line, f.EndLine)
		}
		for j := range f.Related {
			// A note quotes its own place, and may quote the finding's.
			rel := &f.Related[j]
			rel.Message = r.clean(r.clean(rel.Message, f.File, f.Line, f.EndLine), rel.File, rel.Line, rel.Line)
		}
	}
	return nil
}

// redactor holds what redact learnt so far: messages already redacted and
// the secrets of the files already scanned.
type redactor struct {
	sc    *engine.Scanner
	ws    *sotparse.Workspace
	text  *textIndex              // what the parse kept of released texts
	scans *secretscheck.Scans     // the secrets check's scans; may be nil
	done  map[string]string       // message -> its redacted form
	kept  *memo.Strings           // what earlier runs redacted; may be nil
	files map[string]*fileSecrets // path -> its secrets
	// The last message redacted, and the last file looked up.
	lastMsg struct {
		msg, out string
		ok       bool
	}
	lastFile struct {
		path string
		fsec *fileSecrets
	}
}

// fileSecrets are the secrets of one file, sorted by start offset.
type fileSecrets struct {
	spans []secretSpan
}

// secretSpan is a secret on a finding's lines; its mask is the finding's
// Redacted, its rule's public prefix and "****".
type secretSpan = secretscheck.Span

// clean returns msg redacted, with the pieces of the secrets on lines
// first..last of file masked.
func (r *redactor) clean(msg, file string, first, last int) string {
	var out string
	var ok bool
	if r.lastMsg.ok && msg == r.lastMsg.msg {
		out, ok = r.lastMsg.out, true // findings in a run often say the same
	} else {
		out, ok = r.done[msg]
	}
	if !ok {
		if r.kept != nil {
			out = r.kept.Get(msg)
		} else {
			out = redactMessage(r.sc, msg)
		}
		r.done[msg] = out
	}
	r.lastMsg.msg, r.lastMsg.out, r.lastMsg.ok = msg, out, true
	for _, s := range r.secretsOnLines(file, first, last) {
		out = maskPieces(out, s.Text, s.Mask)
	}
	return out
}

// redactMessage is sc.Redact of msg, msg itself when it holds no secret.
func redactMessage(sc *engine.Scanner, msg string) string {
	b := []byte(msg)
	if red := sc.Redact(b); len(red) != len(b) || (len(b) > 0 && &red[0] != &b[0]) {
		return string(red)
	}
	return msg
}

// redactMemo keeps a session's message redactions between its runs, for
// the scanner they were made with: a run after Reload may configure
// another.
type redactMemo struct {
	mu sync.Mutex
	sc *engine.Scanner
	m  *memo.Strings
}

// redactMemoSize and redactMemoBytes bound a generation of a session's
// memo: more than a large workspace's documents in focus say at once, in
// at most 4 MiB.
const (
	redactMemoSize  = 8192
	redactMemoBytes = 4 << 20
)

func (k *redactMemo) of(sc *engine.Scanner) *memo.Strings {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.sc != sc {
		k.sc = sc
		k.m = memo.NewStrings(func(msg string) string { return redactMessage(sc, msg) }, redactMemoSize, redactMemoBytes)
	}
	return k.m
}

// secretsOnLines returns the secrets on lines first..last of file: the
// text a check quotes, and may shorten, comes from there.
func (r *redactor) secretsOnLines(path string, first, last int) []secretSpan {
	fsec := r.lastFile.fsec
	ok := fsec != nil && path == r.lastFile.path
	if !ok {
		fsec, ok = r.files[path]
	}
	if !ok {
		fsec = &fileSecrets{}
		r.files[path] = fsec
		if spans, ok := r.text.secrets(path); ok {
			fsec.spans = spans
		} else if spans, ok := r.scans.Of(path); ok {
			fsec.spans = spans
		} else if file := r.ws.File(path); file != nil && file.Tok.Size() > 0 {
			// Neither the parse nor the secrets check scanned it (a file
			// out of the check's focus): a released text is read back.
			content := r.ws.FileContent(file)
			fsec.spans = secretscheck.Spans(r.sc.Scan(path, content), content)
		}
	}
	r.lastFile.path, r.lastFile.fsec = path, fsec
	if len(fsec.spans) == 0 {
		return nil
	}
	file := r.ws.File(path)
	n := file.Tok.LineCount()
	if first < 1 || first > n {
		return nil
	}
	last = max(first, min(last, n))
	start := file.Tok.Offset(file.Tok.LineStart(first))
	end := file.Tok.Size()
	if last < n {
		end = file.Tok.Offset(file.Tok.LineStart(last + 1))
	}
	var out []secretSpan
	for _, s := range fsec.spans {
		if s.Start < end && s.End > start {
			out = append(out, s)
		}
	}
	return out
}

// redactScanner builds the scanner a run that does not run the secrets
// check scans its documents with findings with; tests count its calls.
var redactScanner = secretscheck.Scanner

// Redactor returns the secrets redactor the secrets check's settings
// describe, for text sotvet prints that is not a finding (a fix preview).
func Redactor() (func([]byte) []byte, error) {
	sc, err := secretscheck.Scanner()
	if err != nil {
		return nil, err
	}
	return sc.Redact, nil
}

// maskPieces replaces in msg the longest prefix, then the longest suffix, of
// secret that msg holds (at least minQuoted bytes) by mask, the secret's
// finding's Redacted: a piece shows no more of the secret than its finding.
func maskPieces(msg, secret, mask string) string {
	if !strings.HasSuffix(mask, engine.MaskSuffix) || !strings.HasPrefix(secret, strings.TrimSuffix(mask, engine.MaskSuffix)) {
		mask = engine.MaskSuffix // not the secret's mask: show nothing
	}
	if len(secret) < minQuoted {
		return strings.ReplaceAll(msg, secret, mask)
	}
	// The public prefix the mask shows is no quote: a piece must hold
	// more (else the mask's own prefix would be masked again).
	for n := len(secret); n >= max(minQuoted, len(mask)-len(engine.MaskSuffix)+1); n-- {
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
	return maskMiddles(msg, secret)
}

// maskMiddles masks in msg every run of at least minQuoted bytes that the
// secret holds and does not start with: a line from the middle of a
// private key's body, which a check quotes as it quotes any line (a
// repeated one), is neither the secret's start nor its end. A run the
// secret starts with is left: maskPieces judged those, and the public
// prefix a mask shows is one.
func maskMiddles(msg, secret string) string {
	if len(secret) <= minQuoted || len(msg) < minQuoted {
		return msg
	}
	var b strings.Builder
	last := 0
	for i := 0; i+minQuoted <= len(msg); {
		if !strings.Contains(secret, msg[i:i+minQuoted]) {
			i++
			continue
		}
		j := i + minQuoted
		for j < len(msg) && strings.Contains(secret, msg[i:j+1]) {
			j++
		}
		if strings.HasPrefix(secret, msg[i:j]) {
			i = j
			continue
		}
		b.WriteString(msg[last:i])
		b.WriteString(engine.MaskSuffix)
		last, i = j, j
	}
	if last == 0 {
		return msg
	}
	b.WriteString(msg[last:])
	return b.String()
}

// MaskSecretLines returns old and new (a file and its text after fixes)
// with every line that lies in a secret of old, or of new, masked, each
// line kept a line: a fix preview's diff shows the lines around a change,
// and a private key's body lines are each no secret the redactor knows
// on its own. Lines shorter than minQuoted are left (a key's last line
// may be a few bytes: the END line after it is masked with the secret).
func MaskSecretLines(path string, old, new []byte) ([]byte, []byte, error) {
	sc, err := secretscheck.Scanner()
	if err != nil {
		return nil, nil, err
	}
	secretLines := map[string]bool{}
	for _, content := range [][]byte{old, new} {
		for _, s := range secretscheck.Spans(sc.Scan(path, content), content) {
			for line := range strings.SplitSeq(s.Text, "\n") {
				if line = strings.TrimSpace(line); len(line) >= minQuoted {
					secretLines[line] = true
				}
			}
		}
	}
	if len(secretLines) == 0 {
		return old, new, nil
	}
	mask := func(content []byte) []byte {
		var out []byte
		for line := range strings.SplitAfterSeq(string(content), "\n") {
			body := strings.TrimRight(line, "\r\n")
			if t := strings.TrimSpace(body); len(t) >= minQuoted && secretLines[t] {
				out = append(out, body[:len(body)-len(strings.TrimLeft(body, " \t"))]...)
				out = append(out, engine.MaskSuffix...)
				out = append(out, line[len(body):]...)
				continue
			}
			out = append(out, line...)
		}
		return out
	}
	return mask(old), mask(new), nil
}
