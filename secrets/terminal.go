package secrets

import (
	"bytes"
	"cmp"
	"slices"
	"sort"
)

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

// terminalViews calls yield with views of data without the control
// sequences that split a word ("rk_" ESC[01;31m "live" ESC[m "_51…", as
// grep --color prints a match inside a token); none when no sequence
// does. Blanking them (withoutTerminalEscapes) keeps the word split; a
// terminal shows it whole. A view's tokens are its joins, so that only a
// match across one counts; its finding stands on the bytes of data it
// was read from, escapes included, and says "decoded from terminal
// escapes". A view holds whole lines of about viewBatch bytes, and only
// blocks with a join are viewed, so what it holds is bounded however
// many sequences a file has.
func terminalViews(data []byte, d *decoding, yield func(*view)) {
	if bytes.IndexByte(data, 0x1b) < 0 || bytes.IndexByte(data, 0) >= 0 || len(data) >= 1<<31-1 {
		return
	}
	wordByte := func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }
	v := &view{}
	enc := uint16(0)
	for block := 0; block < len(data); {
		end := blockEnd(data, block, wordByte)
		v.text, v.pieces, v.tokens = v.text[:0], v.pieces[:0], v.tokens[:0]
		copied := block // data[block:copied] is in v's text
		for i := block; i < end; {
			k := bytes.IndexByte(data[i:end], 0x1b)
			if k < 0 {
				break
			}
			i += k
			after := i
			for after < end && data[after] == 0x1b {
				after = sequenceEnd(data[:end], after) // consecutive sequences are one cut
			}
			if i > block && after < end && wordByte(data[i-1]) && wordByte(data[after]) {
				if enc == 0 {
					enc = d.chain(0, "terminal escapes")
				}
				v.pieces = append(v.pieces, piece{at: int32(len(v.text)), from: int32(copied), to: int32(i), copied: true})
				v.text = append(v.text, data[copied:i]...)
				join := int32(len(v.text))
				v.tokens = append(v.tokens, token{join - 1, join + 1, enc})
				copied = after
			}
			i = after
		}
		if len(v.tokens) > 0 {
			v.pieces = append(v.pieces, piece{at: int32(len(v.text)), from: int32(copied), to: int32(end), copied: true})
			v.text = append(v.text, data[copied:end]...)
			yield(v)
		}
		block = end
	}
}

// blockEnd returns where a view of data from block ends: at the first
// line break past viewBatch bytes, or, on a line longer than twice that,
// at the first byte there that is in no word and no sequence.
func blockEnd(data []byte, block int, wordByte func(byte) bool) int {
	if block+viewBatch >= len(data) {
		return len(data)
	}
	far := min(len(data), block+2*viewBatch)
	if nl := bytes.IndexByte(data[block+viewBatch:far], '\n'); nl >= 0 {
		return block + viewBatch + nl + 1
	}
	for i := block + viewBatch; i < far; i++ {
		if c := data[i]; !wordByte(c) && c != 0x1b && c != '[' && c != ';' && !('0' <= c && c <= '9') {
			return i + 1
		}
	}
	return far
}

// sequenceEnd returns the offset after the control sequence whose ESC is
// b[i]: a CSI, an OSC's introducer (its text is shown), a two-byte
// sequence, or the ESC alone.
func sequenceEnd(b []byte, i int) int {
	if i+1 >= len(b) {
		return i + 1
	}
	switch c := b[i+1]; {
	case c == '[':
		j := i + 2
		for j < len(b) && 0x30 <= b[j] && b[j] <= 0x3f {
			j++
		}
		for j < len(b) && 0x20 <= b[j] && b[j] <= 0x2f {
			j++
		}
		if j < len(b) && 0x40 <= b[j] && b[j] <= 0x7e {
			return j + 1
		}
		return i + 2
	case c == ']', 0x30 <= c && c <= 0x7e:
		return i + 2
	}
	return i + 1
}

// withoutJoined returns raw without the matches that lie within a match
// read across a join of terminal escapes (terminalViews): the text as
// blanked may hold a token's head alone ("rk_live_" and ten bytes, then a
// highlight, then the rest), a shorter match that would win the span and
// leave the rest of the token unmasked.
func (d *decodedSet) withoutJoined(raw []cand) []cand {
	enc := slices.Index(d.chains, "terminal escapes")
	if enc <= 0 {
		return raw
	}
	var joined []span
	for _, c := range d.cands {
		if int(c.enc) == enc {
			joined = append(joined, span{int(c.start), int(c.end)})
		}
	}
	if len(joined) == 0 {
		return raw
	}
	slices.SortFunc(joined, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	reach := make([]int, len(joined)) // the furthest end of joined[:i+1]
	for i, j := range joined {
		reach[i] = j.end
		if i > 0 {
			reach[i] = max(reach[i], reach[i-1])
		}
	}
	out := raw[:0]
	for _, c := range raw {
		i := sort.Search(len(joined), func(i int) bool { return joined[i].start > int(c.start) }) - 1
		if i >= 0 && reach[i] >= int(c.end) {
			continue
		}
		out = append(out, c)
	}
	return out
}
