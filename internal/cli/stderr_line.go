package cli

import (
	"io"
	"sync"
)

// stderrLine is stderr shared by the progress line and messages. On a
// terminal the progress line is redrawn in place and left open (no line
// break after it); a message (an interrupt's, a worker's) that comes
// while it is open ends it first, so that every message begins on a
// line of its own and the last progress line stays readable above it.
type stderrLine struct {
	mu   sync.Mutex
	w    io.Writer
	open bool // the last write was a progress line without its line break
}

// Write writes a message, on a line of its own.
func (s *stderrLine) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open && len(p) > 0 {
		if _, err := io.WriteString(s.w, "\n"); err != nil {
			return 0, err
		}
		s.open = false
	}
	return s.w.Write(p)
}

// progressWriter writes the progress line to its stderrLine.
type progressWriter struct{ s *stderrLine }

// Write writes (part of) a progress line; one that does not end in a
// line break leaves the line open.
func (p progressWriter) Write(b []byte) (int, error) {
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	n, err := p.s.w.Write(b)
	if n > 0 {
		p.s.open = b[n-1] != '\n'
	}
	return n, err
}

// endLine ends the progress line if it is still open: after the last
// redraw of a run, unless a message ended it already.
func (p progressWriter) endLine() error {
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	if !p.s.open {
		return nil
	}
	p.s.open = false
	_, err := io.WriteString(p.s.w, "\n")
	return err
}
