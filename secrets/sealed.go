package secrets

import (
	"bytes"
	"sort"
)

// A Bitnami SealedSecret's spec.encryptedData holds ciphertext that only
// the cluster's controller can open: teams commit it by design, so a value
// in that map is no leak ("password: AgB…" is the sealed form of one).
// kubeseal's ciphertext starts with "Ag" (its version byte, 2, in
// base64), and the text must name a SealedSecret: a token under an
// encryptedData: key of anything else is still reported.

// sealedBlocks lists the byte ranges of a text that lie inside an
// encryptedData map: in YAML the lines after a line that is only
// "encryptedData:", while they are blank or indented deeper than it; in
// JSON ("encryptedData": {…}) the braces.
// One pass over the lines, made once per text that holds the word.
func sealedBlocks(data []byte) [][2]int {
	const name = "encryptedData"
	var blocks [][2]int
	if !bytes.Contains(data, []byte("SealedSecret")) {
		return nil
	}
	for i := 0; i < len(data); {
		j := bytes.Index(data[i:], []byte(name))
		if j < 0 {
			break
		}
		at := i + j
		ls := bytes.LastIndexByte(data[:at], '\n') + 1
		le := lineEnd(data, at)
		i = le
		line := data[ls:le]
		t := bytes.TrimSpace(line)
		if bytes.HasPrefix(t, []byte(`"`+name+`"`)) {
			// kubeseal -o json: the map's braces bound it (ciphertext
			// holds none)
			rest := bytes.TrimLeft(data[at+len(name)+1:], " \t")
			if len(rest) == 0 || rest[0] != ':' {
				continue
			}
			rest = bytes.TrimLeft(rest[1:], " \t\r\n")
			if len(rest) == 0 || rest[0] != '{' {
				continue
			}
			open := len(data) - len(rest)
			e := bytes.IndexByte(data[open:], '}')
			if e < 0 {
				break // no later map closes either: each would read to the end
			}
			blocks = append(blocks, [2]int{open, open + e})
			i = max(i, open+e)
			continue
		}
		if !bytes.Equal(t, []byte(name+":")) {
			continue
		}
		ind := indentOf(line)
		start, end := le, le
		for p := le; p < len(data); {
			q := lineEnd(data, p+1)
			next := data[p+1 : q]
			if t := bytes.TrimSpace(next); len(t) > 0 && indentOf(next) <= ind {
				break
			}
			end, p = q, q
		}
		if end > start {
			blocks = append(blocks, [2]int{start, end})
		}
		i = max(i, end)
	}
	return blocks
}

// lineEnd returns the offset of the newline ending the line at p, or
// len(data).
func lineEnd(data []byte, p int) int {
	if p >= len(data) {
		return len(data)
	}
	if k := bytes.IndexByte(data[p:], '\n'); k >= 0 {
		return p + k
	}
	return len(data)
}

// sealedMemo holds a text's sealedBlocks, made on first need.
type sealedMemo struct {
	done   bool
	blocks [][2]int
}

// sealedAt reports whether offset off of the memo's text lies in a
// SealedSecret's encryptedData map.
func (tm *textMemo) sealedAt(off int) bool {
	m := &tm.sealed
	if !m.done {
		m.done = true
		m.blocks = sealedBlocks(tm.data)
	}
	k := sort.Search(len(m.blocks), func(i int) bool { return m.blocks[i][1] > off })
	return k < len(m.blocks) && m.blocks[k][0] <= off
}
