package glossary

import (
	"github.com/svrnty/sotvet/internal/lazyre"
	"github.com/svrnty/sotvet/internal/warmup"
)

// lazyRE holds the package's regular expressions: compiled on first use,
// or in the background when a command is about to run the check, rather
// than at every sotvet process's start.
var lazyRE lazyre.Group

func init() { warmup.Register(Analyzer.Name, lazyRE.Compile) }
