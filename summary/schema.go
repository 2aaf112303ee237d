package summary

import (
	"encoding/json"
	"reflect"
	"strings"
)

// Schema returns the JSON Schema (draft 2020-12) of the summary, derived
// from the Summary struct itself so the two cannot drift: every member is
// required unless it is omitempty, and no other member is allowed.
func Schema() []byte {
	s := schemaOf(reflect.TypeFor[Summary]())
	s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	s["$id"] = "https://github.com/svrnty/sotvet/summary.schema.json"
	s["title"] = "sotvet control summary"
	s["description"] = "sotvet summary --json and GET /api/cto/control-summary, schema_version 1. " + authorityNotice
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic(err) // a map of plain values always encodes
	}
	return append(b, '\n')
}

func schemaOf(t reflect.Type) map[string]any {
	switch t.Kind() {
	case reflect.Pointer:
		s := schemaOf(t.Elem())
		return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Int32:
		return map[string]any{"type": "integer"}
	case reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": schemaOf(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": schemaOf(t.Elem())}
	case reflect.Struct:
		props := map[string]any{}
		required := []string{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if !f.IsExported() || tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if name == "" {
				name = f.Name
			}
			props[name] = schemaOf(f.Type)
			if !strings.Contains(opts, "omitempty") {
				required = append(required, name)
			}
		}
		// A Severity and other named strings come out as strings above.
		return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
	}
	return map[string]any{}
}
