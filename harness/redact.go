package harness

import (
	"bytes"
	"strings"
)

// minHandedOut is the shortest handed-out value masked by exact match:
// shorter ones would mask ordinary words.
const minHandedOut = 8

// handedOut is a Redactor that also masks, by exact match, the values the
// harness itself handed a backend in its environment (an engine's
// credentials, endpoints, tokens), whatever their shape: the secrets
// scanner only knows the shapes it has rules for.
type handedOut struct {
	Redactor
	values [][]byte
}

// withHandedOut returns red widened to the values of env (KEY=VALUE).
func withHandedOut(red Redactor, env []string) Redactor {
	var values [][]byte
	for _, kv := range env {
		if _, v, ok := strings.Cut(kv, "="); ok && len(v) >= minHandedOut {
			values = append(values, []byte(v))
		}
	}
	if len(values) == 0 {
		return red
	}
	if h, ok := red.(handedOut); ok {
		return handedOut{h.Redactor, append(h.values, values...)}
	}
	return handedOut{red, values}
}

func (h handedOut) Redact(b []byte) []byte {
	b = h.Redactor.Redact(b)
	for _, v := range h.values {
		if bytes.Contains(b, v) {
			b = bytes.ReplaceAll(b, v, []byte("[handed-out value redacted]"))
		}
	}
	return b
}
