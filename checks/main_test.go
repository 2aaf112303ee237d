package checks

import (
	"os"
	"testing"

	"github.com/svrnty/sotvet/internal/testtmp"
)

// TestMain puts the tests' temporary files on a tmpfs where one is fit
// for them (testtmp): they create and delete thousands.
func TestMain(m *testing.M) { os.Exit(testtmp.Run(m)) }
