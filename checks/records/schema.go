package records

import (
	"embed"
	"slices"

	"github.com/svrnty/sotvet/sotparse"
)

//go:embed schema/*.schema.json
var schemaFS embed.FS

// SchemaKinds lists the record kinds that have a JSON Schema, in the order
// "sotvet schema" lists them.
var SchemaKinds = []string{string(sotparse.RecordModelAdmission), string(sotparse.RecordTargetAdmission)}

// Schema returns the JSON Schema (draft 2020-12) of the record kind
// ("model-provider-admission", "target-repository-admission") and true, or
// nil and false for an unknown kind. The bytes are a fresh copy.
func Schema(kind string) ([]byte, bool) {
	if !slices.Contains(SchemaKinds, kind) {
		return nil, false
	}
	b, err := schemaFS.ReadFile("schema/" + kind + ".schema.json")
	if err != nil {
		return nil, false
	}
	return b, true
}
