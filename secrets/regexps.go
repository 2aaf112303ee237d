package secrets

import "github.com/svrnty/sotvet/internal/lazyre"

// lazyRE holds the package's regular expressions outside its rules:
// compiled on first use or by Warm, not at every sotvet process's start.
var lazyRE lazyre.Group
