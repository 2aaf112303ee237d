package safegit

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// kept are the repository configuration keys git sees, copied from the
// repository's own config file into the shadow one: facts about how the
// repository's bytes are laid out and compared, none of which names a
// program or a file. Everything else is left out, whatever it is: this is
// a list of what to keep, not of what to switch off.
var kept = map[string]bool{
	"core.repositoryformatversion": true,
	"core.bare":                    true,
	"core.filemode":                true,
	"core.symlinks":                true,
	"core.ignorecase":              true,
	"core.precomposeunicode":       true,
	"core.autocrlf":                true,
	"core.eol":                     true,
	"core.checkstat":               true,
	"core.trustctime":              true,
	"extensions.objectformat":      true,
}

// extensions git may find in a repository whose format version is 1. The
// shadow keeps objectformat and drops the others: worktreeconfig (so no
// config.worktree is read), partialclone (so a missing object is an
// error, never a fetch through the remote's transport), preciousobjects
// and noop (they only forbid or change nothing for reads). Any other
// extension changes how the repository is stored: it is refused.
var knownExtensions = map[string]bool{
	"objectformat": true, "worktreeconfig": true, "partialclone": true,
	"preciousobjects": true, "noop": true,
}

// configEntry is one key = value of a git config file.
type configEntry struct{ key, value string }

// parseConfig reads a git config file's entries: sections, subsections,
// quoted values, escapes and continuation lines, as git writes them.
// Includes are entries like any other here: they are never followed.
func parseConfig(data []byte) ([]configEntry, error) {
	var out []configEntry
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := strings.TrimLeft(sc.Text(), " \t")
		if lineNo == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.LastIndexByte(line, ']')
			if end < 0 {
				return nil, fmt.Errorf("line %d: bad section header", lineNo)
			}
			hdr := line[1:end]
			if i := strings.IndexAny(hdr, " \t"); i >= 0 {
				// [section "subsection"]: case-sensitive, escaped.
				sub := strings.TrimSpace(hdr[i:])
				if len(sub) < 2 || sub[0] != '"' || sub[len(sub)-1] != '"' {
					return nil, fmt.Errorf("line %d: bad subsection", lineNo)
				}
				section = strings.ToLower(hdr[:i]) + "." + unescapeSub(sub[1:len(sub)-1])
			} else if i := strings.IndexByte(hdr, '.'); i >= 0 {
				section = strings.ToLower(hdr) // [section.sub]: legacy, lower-cased
			} else {
				section = strings.ToLower(hdr)
			}
			rest := strings.TrimSpace(line[end+1:])
			if rest == "" || rest[0] == '#' || rest[0] == ';' {
				continue
			}
			line = rest // a key may follow the header on the same line
		}
		name, raw, hasValue := strings.Cut(line, "=")
		name = strings.TrimSpace(name)
		if name == "" || section == "" {
			return nil, fmt.Errorf("line %d: entry outside a section", lineNo)
		}
		for _, r := range name {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return nil, fmt.Errorf("line %d: bad key %q", lineNo, name)
			}
		}
		value := "true"
		if hasValue {
			var b strings.Builder
			inQuote := false
			for {
				cont, err := parseValue(raw, &b, &inQuote)
				if err != nil {
					return nil, fmt.Errorf("line %d: %v", lineNo, err)
				}
				if !cont {
					break
				}
				if !sc.Scan() {
					break
				}
				lineNo++
				raw = sc.Text()
			}
			if inQuote {
				return nil, fmt.Errorf("line %d: unclosed quote", lineNo)
			}
			value = strings.TrimRight(b.String(), " \t")
		}
		out = append(out, configEntry{key: section + "." + strings.ToLower(name), value: value})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// parseValue appends one physical line of a value to b; it reports
// whether the value continues on the next line (a trailing backslash).
func parseValue(s string, b *strings.Builder, inQuote *bool) (bool, error) {
	if b.Len() == 0 {
		s = strings.TrimLeft(s, " \t")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 == len(s) {
				return true, nil
			}
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case '\\', '"':
				b.WriteByte(s[i])
			default:
				return false, fmt.Errorf("bad escape \\%c", s[i])
			}
		case c == '"':
			*inQuote = !*inQuote
		case !*inQuote && (c == '#' || c == ';'):
			return false, nil
		default:
			b.WriteByte(c)
		}
	}
	return false, nil
}

func unescapeSub(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// shadowConfig is the configuration git reads in the shadow directory: the
// kept keys of the repository's own config, last value winning as in git.
// It fails on an extension it does not know, since dropping it could
// make git misread the repository.
func shadowConfig(entries []configEntry) (string, map[string]string, error) {
	vals := map[string]string{}
	for _, e := range entries {
		if ext, ok := strings.CutPrefix(e.key, "extensions."); ok && !knownExtensions[ext] {
			return "", nil, fmt.Errorf("the repository uses extensions.%s, which sotvet cannot read safely", ext)
		}
		if kept[e.key] {
			vals[e.key] = e.value
		}
	}
	var b strings.Builder
	for _, sec := range []string{"core", "extensions"} {
		fmt.Fprintf(&b, "[%s]\n", sec)
		for _, k := range sortedKeys(vals) {
			name, ok := strings.CutPrefix(k, sec+".")
			if !ok || k == "core.bare" {
				continue // the work tree is always named explicitly
			}
			v := vals[k]
			if !plainValue(v) {
				return "", nil, fmt.Errorf("%s: unexpected value %q", k, v)
			}
			fmt.Fprintf(&b, "\t%s = %s\n", name, v)
		}
	}
	return b.String(), vals, nil
}

// plainValue: the kept keys take words and numbers only.
func plainValue(v string) bool {
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}
