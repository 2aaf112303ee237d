package ledger

import _ "embed"

//go:embed schema/comparison.schema.json
var comparisonSchema []byte

// ComparisonSchema returns the JSON Schema (draft 2020-12) of
// comparison.json; the bytes are a fresh copy.
func ComparisonSchema() []byte { return append([]byte{}, comparisonSchema...) }
