package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Report logs a figure of a fault test and appends it to test/artifacts/faults-figures.txt, so
// that a run without -v (make test) keeps it too.
func Report(t testing.TB, format string, args ...any) {
	t.Helper()
	line := fmt.Sprintf(format, args...)
	t.Log(line)
	f, err := os.OpenFile(filepath.Join(Artifacts(t), "faults-figures.txt"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return
	}
	defer func() { _ = f.Close() }()
	_, _ = fmt.Fprintf(f, "%s %s: %s\n", time.Now().UTC().Format(time.RFC3339), t.Name(), line)
}
