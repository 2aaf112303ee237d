package secrets

import "bytes"

// Terminal output keeps its colours when it is saved: a CI log, a
// captured agent session, `script` output, a JSON log whose messages hold
// the escapes written out ("\u001b[32m"). A token printed in colour then
// follows the escape's final letter ("\x1b[93msk-…"), which is a word
// byte: every rule that wants a token to start a word missed it (a
// CredSweeper sample; 16 of 24 tokens of six providers in coloured log
// lines). The scanner reads such text with its escapes blanked, as a
// terminal shows it: same length, so every offset, line and column is
// the text's own.

// escapeIntroducers are the written-out forms of ESC that logs and
// source hold before a control sequence's "[": JSON's, C's and the
// shell's.
var escapeIntroducers = [][]byte{[]byte(`\u001b[`), []byte(`\u001B[`), []byte(`\x1b[`), []byte(`\x1B[`), []byte(`\033[`), []byte(`\e[`)}

// withoutTerminalEscapes returns data with its terminal control sequences
// blanked (spaces), or data itself when it holds none. A sequence is:
//   - CSI: ESC "[" parameters (0x30-0x3F), intermediates (0x20-0x2F) and
//     a final byte (0x40-0x7E), such as the colours "\x1b[1;32m";
//   - OSC: ESC "]" up to BEL or ESC "\": only its introducer and
//     terminator are blanked, since its text (a hyperlink's URL) is
//     shown, or opened;
//   - ESC and one byte of 0x30-0x7E: the other two-byte sequences
//     ("\x1b7", "\x1bc");
//   - a CSI whose ESC is written out (escapeIntroducers).
func withoutTerminalEscapes(data []byte) []byte {
	esc := bytes.IndexByte(data, 0x1b)
	written := -1
	for i := bytes.IndexByte(data, '\\'); i >= 0; {
		if writtenEscape(data[i:]) > 0 {
			written = i
			break
		}
		j := bytes.IndexByte(data[i+1:], '\\')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if esc < 0 && written < 0 || bytes.IndexByte(data, 0) >= 0 {
		return data // no escape; or binary, whose 0x1b bytes are data (a .syso holds thousands)
	}
	out := bytes.Clone(data)
	from := len(out)
	if esc >= 0 {
		from = esc
	}
	if written >= 0 {
		from = min(from, written)
	}
	for i := from; i < len(out); {
		if out[i] == 0x1b {
			i = blankSequence(out, i, i+1)
			continue
		}
		if out[i] == '\\' {
			if n := writtenEscape(out[i:]); n > 0 {
				i = blankSequence(out, i, i+n)
				continue
			}
		}
		i++
	}
	return out
}

// writtenEscape returns the length of the written-out ESC at the start of
// b (without its "["), or 0.
func writtenEscape(b []byte) int {
	if len(b) < 3 || b[1] != 'u' && b[1] != 'x' && b[1] != '0' && b[1] != 'e' {
		return 0 // the usual backslash, cheaply
	}
	for _, in := range escapeIntroducers {
		if bytes.HasPrefix(b, in) {
			return len(in) - 1
		}
	}
	return 0
}

// blankSequence blanks the control sequence whose ESC is b[start:at] and
// returns the offset after it; a lone ESC is blanked alone.
func blankSequence(b []byte, start, at int) int {
	blank := func(from, to int) {
		for k := from; k < to; k++ {
			b[k] = ' '
		}
	}
	if at >= len(b) {
		blank(start, at)
		return at
	}
	switch c := b[at]; {
	case c == '[':
		j := at + 1
		for j < len(b) && 0x30 <= b[j] && b[j] <= 0x3f {
			j++
		}
		for j < len(b) && 0x20 <= b[j] && b[j] <= 0x2f {
			j++
		}
		if j < len(b) && 0x40 <= b[j] && b[j] <= 0x7e {
			blank(start, j+1)
			return j + 1
		}
		blank(start, at+1) // not a whole sequence: the introducer alone
		return at + 1
	case c == ']':
		blank(start, at+1)
		for j := at + 1; j < len(b) && b[j] != '\n'; j++ {
			switch {
			case b[j] == 0x07:
				blank(j, j+1)
				return j + 1
			case b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\':
				blank(j, j+2)
				return j + 2
			}
		}
		return at + 1
	case 0x30 <= c && c <= 0x7e && b[start] == 0x1b:
		blank(start, at+1)
		return at + 1
	}
	blank(start, at)
	return at
}
