package hygiene

import "github.com/svrnty/sotvet/checks/internal/doccheck"

// The driver runs DocCheck as the parse reads each document.
func init() { doccheck.Register(Analyzer, DocCheck) }
