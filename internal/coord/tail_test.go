package coord

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A crashed worker is named by its crash report's own first lines, not by
// the register dump that ends it: the report's first lines come first in
// the quote, also when the dump pushed them out of the kept bytes and
// when the output arrives in pieces that split lines. The testdata files
// are the real output of a Go program (cgo) that dereferenced NULL in C,
// called abort() in C, or was sent SIGABRT while it slept.
func TestTailBufferNamesTheCrash(t *testing.T) {
	for _, tt := range []struct{ file, first, second string }{
		{"crash-cgo-sigsegv.txt", "SIGSEGV: segmentation violation", "signal arrived during cgo execution"},
		{"crash-cgo-abort.txt", "SIGABRT: abort", "signal arrived during cgo execution"},
		{"crash-sigabrt.txt", "SIGABRT: abort", "PC="},
	} {
		t.Run(tt.file, func(t *testing.T) {
			out, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, chunk := range []int{len(out), 97, 1} {
				tb := newTailBuffer(2 << 10)
				fmt.Fprintf(tb, "worker starting\n")
				for p := out; len(p) > 0; p = p[min(chunk, len(p)):] {
					if n, err := tb.Write(p[:min(chunk, len(p))]); err != nil || n != min(chunk, len(p)) {
						t.Fatalf("Write = %d, %v", n, err)
					}
				}
				q := tb.quote()
				lines := strings.Split(strings.TrimPrefix(q, "; its last output:\n  "), "\n  ")
				if len(lines) < 4 || lines[0] != tt.first || !strings.Contains(strings.Join(lines[1:3], "\n"), tt.second) {
					t.Fatalf("chunks of %d: the quote does not open with the crash:\n%s", chunk, q)
				}
				if i := strings.Index(q, "…"); i < 0 || !strings.Contains(q[i:], "rip ") {
					t.Errorf("chunks of %d: the last lines (the registers) are not quoted after the crash:\n%s", chunk, q)
				}
			}
		})
	}
}

// A panic whose stack trace outgrows the kept bytes is named by its
// panic line, and the line that follows it; output with no crash in it
// is quoted as it is, last lines only.
func TestTailBufferPanicAndPlainOutput(t *testing.T) {
	tb := newTailBuffer(1 << 10)
	fmt.Fprint(tb, "panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a1b2c]\n\ngoroutine 1 [running]:\n")
	for i := range 200 {
		fmt.Fprintf(tb, "main.f%d()\n\t/src/main.go:%d +0x1d\n", i, i)
	}
	q := tb.quote()
	if !strings.HasPrefix(q, "; its last output:\n  panic: runtime error: invalid memory address or nil pointer dereference\n  [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a1b2c]\n  …\n") {
		t.Errorf("quote:\n%s", q)
	}
	tb = newTailBuffer(1 << 10)
	for i := range 20 {
		fmt.Fprintf(tb, "line %d\n", i)
	}
	if q := tb.quote(); strings.Contains(q, "…") || !strings.HasPrefix(q, "; its last output:\n  line 10\n") {
		t.Errorf("plain output quoted as:\n%s", q)
	}
}
