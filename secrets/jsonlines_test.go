package secrets

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// peerRecords reads the JSON-lines file the environment variable env
// names (a labelled set a script extracts outside the repository) into
// records of type T, or skips the test with how to make one.
func peerRecords[T any](t *testing.T, env, how string) (string, []T) {
	t.Helper()
	path := os.Getenv(env)
	if path == "" {
		t.Skip(env + " unset: " + how)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return path, out
}
