package result

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// endless repeats b forever, counting what was read.
type endless struct {
	b    byte
	read int
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.b
	}
	e.read += len(p)
	return len(p), nil
}

// Input that is no JSON object is refused at its first bytes (it used to
// be read whole: /dev/zero took gigabytes); a JSON stream without end is
// refused at the limit; a result within it reads.
func TestReadFileBounds(t *testing.T) {
	t.Parallel()
	zeros := &endless{b: 0}
	if _, err := readFileMax(zeros, 1<<20); !errors.Is(err, ErrNotResult) || !strings.Contains(err.Error(), "does not begin with a JSON object") || zeros.read > 64<<10 {
		t.Errorf("zeros: %v after %d bytes", err, zeros.read)
	}
	spaces := &endless{b: ' '}
	if _, err := readFileMax(io.MultiReader(strings.NewReader("{"), spaces), 1<<20); !errors.Is(err, ErrNotResult) || !strings.Contains(err.Error(), "larger than 1 MiB") || spaces.read > 2<<20 {
		t.Errorf("an endless object: %v after %d bytes", err, spaces.read)
	}
	if b, err := readFileMax(strings.NewReader("  \n{\"a\": 1}\n"), 1<<20); err != nil || string(b) != "  \n{\"a\": 1}\n" {
		t.Errorf("a small object: %q, %v", b, err)
	}
	if _, err := ReadSuite(&endless{b: 0}); !errors.Is(err, ErrNotResult) {
		t.Errorf("ReadSuite of zeros: %v", err)
	}
	if _, err := Read(&endless{b: 'x'}); !errors.Is(err, ErrNotResult) {
		t.Errorf("Read of text: %v", err)
	}
}

// A size known from stat is judged as reading would judge it.
func TestCheckSize(t *testing.T) {
	if err := CheckSize(MaxFileBytes); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	if err := CheckSize(1 << 30); !errors.Is(err, ErrNotResult) || !strings.Contains(err.Error(), "larger than 512 MiB") {
		t.Errorf("1 GiB: %v", err)
	}
}
