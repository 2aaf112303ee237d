// Package gocache is a GOCACHEPROG for confined runs: the go command's
// build cache reads from the host's cache and from a comparison's shared
// cache (both read-only) and writes to a directory of the run, so that
// nothing a backend or a verification command compiles can poison the
// user's cache or another run's, while builds stay warm.
//
// The protocol is cmd/go/internal/cacheprog's: JSON requests on stdin,
// JSON responses on stdout, a put's body as a base64 JSON string on the
// line after its request. Entries are kept in the go command's own on-disk
// layout (<xx>/<hex>-a index entries, <xx>/<hex>-d outputs), so the host's
// cache is read as the go command wrote it.
package gocache

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

const (
	hashSize  = 32
	hexSize   = hashSize * 2
	entrySize = 2 + 1 + hexSize + 1 + hexSize + 1 + 20 + 1 + 20 + 1
)

type request struct {
	ID       int64
	Command  string
	ActionID []byte `json:",omitempty"`
	OutputID []byte `json:",omitempty"`
	BodySize int64  `json:",omitempty"`
}

type response struct {
	ID            int64      `json:"ID"`
	Err           string     `json:",omitempty"`
	KnownCommands []string   `json:",omitempty"`
	Miss          bool       `json:",omitempty"`
	OutputID      []byte     `json:",omitempty"`
	Size          int64      `json:",omitempty"`
	Time          *time.Time `json:",omitempty"`
	DiskPath      string     `json:",omitempty"`
}

// Cache reads from Dir, then from each of Reads in order (the host's
// GOCACHE, a comparison's shared cache: never written), and writes to Dir
// only.
type Cache struct {
	Reads []string
	Dir   string
}

// Serve answers the go command's requests on in, writing responses to
// out, until a close request or the end of in.
func (c *Cache) Serve(in io.Reader, out io.Writer) error {
	bw := bufio.NewWriter(out)
	enc := json.NewEncoder(bw)
	send := func(r response) error {
		if err := enc.Encode(r); err != nil {
			return err
		}
		return bw.Flush()
	}
	if err := send(response{KnownCommands: []string{"get", "put", "close"}}); err != nil {
		return err
	}
	dec := json.NewDecoder(bufio.NewReader(in))
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		var res response
		switch req.Command {
		case "get":
			res = c.get(req.ActionID)
		case "put":
			var body []byte
			if req.BodySize > 0 {
				if err := dec.Decode(&body); err != nil {
					return fmt.Errorf("put %d: reading the body: %w", req.ID, err)
				}
			}
			if int64(len(body)) != req.BodySize {
				res.Err = fmt.Sprintf("body is %d bytes, want %d", len(body), req.BodySize)
			} else if path, err := c.put(req.ActionID, req.OutputID, body); err != nil {
				res.Err = err.Error()
			} else {
				res.DiskPath = path
			}
		case "close":
			res.ID = req.ID
			return send(res)
		default:
			res.Err = fmt.Sprintf("unknown command %q", req.Command)
		}
		res.ID = req.ID
		if err := send(res); err != nil {
			return err
		}
	}
}

func fileName(dir string, id []byte, kind string) string {
	return filepath.Join(dir, fmt.Sprintf("%02x", id[0]), fmt.Sprintf("%x", id)+"-"+kind)
}

// get looks the action up in the run's directory, then in the others.
func (c *Cache) get(action []byte) response {
	if len(action) != hashSize {
		return response{Miss: true}
	}
	for _, dir := range append([]string{c.Dir}, c.Reads...) {
		if dir == "" {
			continue
		}
		out, size, at, ok := readEntry(fileName(dir, action, "a"), action)
		if !ok {
			continue
		}
		path := fileName(dir, out, "d")
		info, err := os.Stat(path)
		if err != nil || !info.Mode().IsRegular() || info.Size() != size {
			continue
		}
		return response{OutputID: out, Size: size, Time: &at, DiskPath: path}
	}
	return response{Miss: true}
}

// readEntry parses an index entry the go command wrote:
// "v1 <action hex> <output hex> <size, 20> <unix nanos, 20>\n".
func readEntry(name string, action []byte) (out []byte, size int64, at time.Time, ok bool) {
	data, err := os.ReadFile(name)
	if err != nil || len(data) != entrySize || !bytes.HasPrefix(data, []byte("v1 ")) || data[entrySize-1] != '\n' {
		return nil, 0, at, false
	}
	f := strings.Fields(string(data[3:]))
	if len(f) != 4 || f[0] != hex.EncodeToString(action) {
		return nil, 0, at, false
	}
	out, err = hex.DecodeString(f[1])
	if err != nil || len(out) != hashSize {
		return nil, 0, at, false
	}
	size, err1 := strconv.ParseInt(f[2], 10, 64)
	nanos, err2 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil || size < 0 {
		return nil, 0, at, false
	}
	return out, size, time.Unix(0, nanos), true
}

// put writes the output and the index entry under the run's directory.
func (c *Cache) put(action, output, body []byte) (string, error) {
	if len(action) != hashSize || len(output) != hashSize {
		return "", errors.New("action and output ids must be SHA-256 sums")
	}
	path := fileName(c.Dir, output, "d")
	if err := writeFile(path, body); err != nil {
		return "", err
	}
	entry := fmt.Sprintf("v1 %x %x %20d %20d\n", action, output, len(body), time.Now().UnixNano())
	if err := writeFile(fileName(c.Dir, action, "a"), []byte(entry)); err != nil {
		return "", err
	}
	return path, nil
}

func writeFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// Main is "sotvet harness gocache --dir DIR [--read DIR]...": the
// GOCACHEPROG the harness gives the processes of a run.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var c Cache
	for i := 0; i < len(args); i++ {
		if i+1 >= len(args) {
			fmt.Fprintln(stderr, "usage: gocache --dir DIR [--read DIR]...")
			return 2
		}
		switch args[i] {
		case "--read":
			c.Reads = append(c.Reads, args[i+1])
		case "--dir":
			c.Dir = args[i+1]
		default:
			fmt.Fprintln(stderr, "usage: gocache --dir DIR [--read DIR]...")
			return 2
		}
		i++
	}
	if !filepath.IsAbs(c.Dir) || slices.ContainsFunc(c.Reads, func(d string) bool { return !filepath.IsAbs(d) }) {
		fmt.Fprintln(stderr, "gocache: --dir and --read must be absolute")
		return 2
	}
	if err := c.Serve(stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "gocache: %v\n", err)
		return 1
	}
	return 0
}
