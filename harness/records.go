package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"regexp"
	"strings"

	"github.com/svrnty/sotvet/sotparse"
)

// decodeTarget reads a target-repository admission record the way the
// records check does: one object, no duplicate or unknown members, every
// problem as path:line:col: message.
func decodeTarget(path string, data []byte) (*sotparse.TargetAdmission, error) {
	fset := token.NewFileSet()
	tf := fset.AddFile(path, -1, len(data))
	tf.SetLinesForContent(data)
	var probs []string
	rec := sotparse.DecodeRecord(&sotparse.File{Path: path, Tok: tf, Content: data}, func(pos, _ token.Pos, msg string) {
		probs = append(probs, fmt.Sprintf("%s: %s", fset.Position(pos), msg))
	})
	if len(probs) > 0 {
		return nil, errors.New(strings.Join(probs, "; "))
	}
	if rec.Kind != sotparse.RecordTargetAdmission || rec.Target == nil {
		return nil, fmt.Errorf("%s:1:1: not a target-repository admission record (kind %s)", path, rec.Kind)
	}
	return rec.Target, nil
}

var unknownField = regexp.MustCompile(`unknown field "([^"]*)"`)

// decodeAt decodes one JSON object strictly into v; an error names the
// path, line and column where it can be told.
func decodeAt(path string, data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("trailing data after the JSON value")
	}
	if err == nil {
		return nil
	}
	off := -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = int(se.Offset)
	case errors.As(err, &te):
		off = int(te.Offset)
	default:
		if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
			off = bytes.Index(data, []byte(`"`+m[1]+`"`))
		}
	}
	line, col := 1, 1
	if off >= 0 {
		if off > len(data) {
			off = len(data)
		}
		line = 1 + bytes.Count(data[:off], []byte("\n"))
		col = off - bytes.LastIndexByte(data[:off], '\n')
	}
	return fmt.Errorf("%s:%d:%d: %v", path, line, col, strings.TrimPrefix(err.Error(), "json: "))
}
