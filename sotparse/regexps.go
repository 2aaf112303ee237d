package sotparse

import (
	"github.com/svrnty/sotvet/internal/lazyre"
	"github.com/svrnty/sotvet/internal/warmup"
)

// lazyRE holds the package's regular expressions: compiled on first use,
// or in the background as a check process starts (with the markdown
// parser), rather than at every sotvet process's initialization.
var lazyRE lazyre.Group

func init() {
	warmup.Register(Analyzer.Name, func() {
		lazyRE.Compile()
		mdParser()
	})
}
