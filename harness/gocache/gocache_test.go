package gocache

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServe: a put lands in the run's directory, never in the host's; a
// get finds entries in either, the host's as the go command wrote them.
func TestServe(t *testing.T) {
	host, own := t.TempDir(), t.TempDir()
	hostAction, hostOut := sha256.Sum256([]byte("host action")), sha256.Sum256([]byte("host output"))
	if err := writeFile(fileName(host, hostOut[:], "d"), []byte("compiled")); err != nil {
		t.Fatal(err)
	}
	entry := fmt.Sprintf("v1 %x %x %20d %20d\n", hostAction, hostOut, 8, 1)
	if err := writeFile(fileName(host, hostAction[:], "a"), []byte(entry)); err != nil {
		t.Fatal(err)
	}
	action, out := sha256.Sum256([]byte("new action")), sha256.Sum256([]byte("new output"))
	missing := sha256.Sum256([]byte("missing"))
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	enc.Encode(request{ID: 1, Command: "put", ActionID: action[:], OutputID: out[:], BodySize: 5})
	fmt.Fprintf(&in, "%q\n", base64.StdEncoding.EncodeToString([]byte("hello")))
	enc.Encode(request{ID: 2, Command: "get", ActionID: action[:]})
	enc.Encode(request{ID: 3, Command: "get", ActionID: hostAction[:]})
	enc.Encode(request{ID: 4, Command: "get", ActionID: missing[:]})
	enc.Encode(request{ID: 5, Command: "close"})
	var outBuf bytes.Buffer
	c := &Cache{Reads: []string{host}, Dir: own}
	if err := c.Serve(&in, &outBuf); err != nil {
		t.Fatal(err)
	}
	var res []response
	for _, line := range strings.Split(strings.TrimSpace(outBuf.String()), "\n") {
		var r response
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		res = append(res, r)
	}
	if len(res) != 6 || len(res[0].KnownCommands) != 3 {
		t.Fatalf("responses %+v", res)
	}
	if p := res[1].DiskPath; !strings.HasPrefix(p, own) || res[1].Err != "" {
		t.Errorf("put: %+v", res[1])
	}
	if r := res[2]; r.Miss || !bytes.Equal(r.OutputID, out[:]) || r.Size != 5 || !strings.HasPrefix(r.DiskPath, own) {
		t.Errorf("get of the put: %+v", r)
	}
	if r := res[3]; r.Miss || !bytes.Equal(r.OutputID, hostOut[:]) || r.Size != 8 || r.DiskPath != fileName(host, hostOut[:], "d") {
		t.Errorf("get from the host: %+v", r)
	}
	if !res[4].Miss || res[5].ID != 5 {
		t.Errorf("miss and close: %+v %+v", res[4], res[5])
	}
	// The host's cache holds what it held: two files.
	var n int
	filepath.WalkDir(host, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	if n != 2 {
		t.Errorf("the host's cache has %d files, want 2", n)
	}
}
