package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// tokens reads git log -z's output: NUL-separated tokens, each commit's
// first raw line after a newline.
type tokens struct{ r *bufio.Reader }

func newTokens(r io.Reader) *tokens { return &tokens{bufio.NewReaderSize(r, 64<<10)} }

// next returns the next token without its NUL and leading newlines; io.EOF
// at the end.
func (t *tokens) next() (string, error) {
	for {
		s, err := t.r.ReadString(0)
		if err == io.EOF && s == "" {
			return "", io.EOF
		}
		if err != nil && err != io.EOF {
			return "", err
		}
		s = strings.TrimLeft(strings.TrimSuffix(s, "\x00"), "\n")
		if s != "" {
			return s, nil
		}
		if err == io.EOF {
			return "", io.EOF
		}
	}
}

// blobReader hands over blobs through one git cat-file --batch, asked one
// at a time; the top-level members of each case version are kept, as a
// case may be asked for twice (the version after one change is the
// version before the next).
type blobReader struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	cache map[string]map[string]json.RawMessage
}

func (r *reader) startBlobs() (*blobReader, error) {
	cmd := r.command("cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &blobReader{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10), cache: map[string]map[string]json.RawMessage{}}, nil
}

// fields returns the top-level members of the JSON object in blob id; a
// version that is not an object (a file saved half-written) has none.
func (b *blobReader) fields(id string) (map[string]json.RawMessage, error) {
	if m, ok := b.cache[id]; ok {
		return m, nil
	}
	data, err := b.blob(id)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		m = map[string]json.RawMessage{}
	}
	if len(b.cache) > 4096 {
		clear(b.cache)
	}
	b.cache[id] = m
	return m, nil
}

// blob returns the content of blob id.
func (b *blobReader) blob(id string) ([]byte, error) {
	if _, err := io.WriteString(b.in, id+"\n"); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	head, err := b.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(head)
	if len(f) != 3 || f[1] != "blob" {
		return nil, fmt.Errorf("git cat-file: %s: %s", id, strings.TrimSpace(head))
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 0 {
		return nil, fmt.Errorf("git cat-file: size in %q", head)
	}
	data := make([]byte, n+1) // and the newline after it
	if _, err := io.ReadFull(b.out, data); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return bytes.TrimSuffix(data, []byte("\n")), nil
}

// close ends cat-file: its input closed, it exits.
func (b *blobReader) close() {
	b.in.Close()
	b.cmd.Wait()
}
