package result

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxFileBytes bounds the size of a result file Read and ReadSuite take:
// 512 MiB, far more than a suite of thousands of runs holds, so that a
// device, a FIFO or a wrong file given by mistake cannot take all memory.
const MaxFileBytes = 512 << 20

// ErrNotResult marks input that is not a gobench result file.
var ErrNotResult = errors.New("not a gobench result")

// ReadBounded reads a whole file that should hold a gobench JSON document
// (a result, a suite, a plan file), bounded as readFile bounds it.
func ReadBounded(rd io.Reader) ([]byte, error) { return readFile(rd) }

// CheckSize refuses a file of n bytes (its size known from stat) that
// ReadBounded would refuse once it had read MaxFileBytes of it: the
// caller need not read it to know.
func CheckSize(n int64) error {
	if n > MaxFileBytes {
		return tooLarge(MaxFileBytes)
	}
	return nil
}

// tooLarge is the error of a file larger than max bytes.
func tooLarge(max int) error {
	return fmt.Errorf("%w: it is larger than %s, more than any gobench result", ErrNotResult, sizeText(max))
}

// readFile reads a whole result file, refusing at once input that does
// not open as a JSON object (a stream of zeros, a binary file) and input
// larger than MaxFileBytes, before it is read whole.
func readFile(rd io.Reader) ([]byte, error) { return readFileMax(rd, MaxFileBytes) }

// readFileMax is readFile with a limit of max bytes.
func readFileMax(rd io.Reader, max int) ([]byte, error) {
	var buf bytes.Buffer
	chunk := make([]byte, 64<<10)
	opened := false
	for {
		n, err := rd.Read(chunk)
		if n > 0 {
			if !opened {
				if t := bytes.TrimLeft(chunk[:n], " \t\r\n"); len(t) > 0 {
					if t[0] != '{' {
						return nil, fmt.Errorf("%w: it does not begin with a JSON object", ErrNotResult)
					}
					opened = true
				}
			}
			if buf.Len()+n > max {
				return nil, tooLarge(max)
			}
			buf.Write(chunk[:n])
		}
		if err == io.EOF {
			return buf.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// sizeText writes a byte count in MiB, or in bytes below one.
func sizeText(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
