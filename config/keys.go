package config

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"go.yaml.in/yaml/v4"

	"github.com/svrnty/sotvet/internal/safefs"
)

// TrustedKeysIn reads the trusted-keys of the configuration file FileName
// of the workspace root dir, and nothing else of it: what the readers of
// harness evidence need (harness/trust), without the check registry that
// validating the rest takes, so that the harness does not import the
// checks. The rest of the file is validated by the commands that load it
// whole (check, summary, serve). A missing file wraps os.ErrNotExist.
func TrustedKeysIn(dir string) (keys []string, path string, err error) {
	path = filepath.Join(dir, FileName)
	data, err := safefs.ReadIn(dir, FileName, MaxSize)
	if err != nil {
		return nil, path, err
	}
	keys, err = parseTrustedKeys(path, data)
	return keys, path, err
}

// TrustedKeysFile is TrustedKeysIn for the configuration file at path.
func TrustedKeysFile(path string) ([]string, error) {
	data, err := safefs.ReadPath(path, MaxSize)
	if err != nil {
		return nil, err
	}
	return parseTrustedKeys(path, data)
}

// parseTrustedKeys finds the top-level trusted-keys list and checks each
// key, with the same positions and messages as Parse.
func parseTrustedKeys(path string, data []byte) ([]string, error) {
	errAt := func(n *yaml.Node, format string, args ...any) error {
		return &Error{Path: path, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)}
	}
	if len(bytes.TrimSpace(stripComments(data))) == 0 {
		return nil, nil // nothing set, as Parse says
	}
	var doc yaml.Node
	if err := yaml.Load(data, &doc); err != nil {
		var le *yaml.LoadError
		if errors.As(err, &le) {
			return nil, &Error{Path: path, Line: le.Mark.Line, Col: le.Mark.Column, Msg: le.Message}
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errAt(root, "configuration must be a mapping")
	}
	var keys []string
	seen := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "trusted-keys" {
			continue
		}
		if seen {
			return nil, errAt(k, "duplicate key %q", k.Value)
		}
		seen = true
		if v.Kind != yaml.SequenceNode {
			return nil, errAt(v, "want a list")
		}
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode {
				return nil, errAt(e, "want a string")
			}
			if _, err := ParseKey(e.Value); err != nil {
				return nil, errAt(e, "%v", err)
			}
			keys = append(keys, e.Value)
		}
	}
	return keys, nil
}
