package recfs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// Helper is the coordinator's handle on a helper process serving a
// recording file system (see Serve). Its methods are safe for
// concurrent use.
type Helper struct {
	cmd    *exec.Cmd
	dir    string
	in     io.WriteCloser
	out    *bufio.Scanner
	stderr *tail
	mu     sync.Mutex
	done   chan error // the process's exit
	closed bool
}

// mountTimeout bounds how long a helper may take to mount.
const mountTimeout = time.Minute

// Start starts the helper with cmd, which must run Serve on its stdin
// and stdout, and waits until it has mounted cfg.Dir. Set cmd up so
// that the helper outlives no coordinator by much (it unmounts when its
// stdin closes) and gets none of the terminal's signals (its own
// process group): the coordinator decides when it ends.
func Start(cmd *exec.Cmd, cfg Config) (*Helper, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	h := &Helper{cmd: cmd, dir: cfg.Dir, in: in, out: bufio.NewScanner(outPipe), stderr: &tail{n: 4096}, done: make(chan error, 1)}
	cmd.Stderr = h.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the recording file system: %w", err)
	}
	go func() { h.done <- cmd.Wait() }()
	b, err := json.Marshal(cfg)
	if err == nil {
		_, err = in.Write(append(b, '\n'))
	}
	if err == nil {
		var r reply
		if r, err = h.read(mountTimeout); err == nil && !r.Mounted {
			err = errors.New("it did not mount")
		}
	}
	if err != nil {
		h.kill()
		if errors.Is(err, ErrUnavailable) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: mounting over %s: %w", ErrUnavailable, cfg.Dir, err)
	}
	return h, nil
}

// read reads the helper's next reply, waiting at most limit (0: for
// ever).
func (h *Helper) read(limit time.Duration) (reply, error) {
	got := make(chan error, 1)
	var r reply
	go func() {
		if !h.out.Scan() {
			got <- fmt.Errorf("it ended: %s", h.why())
			return
		}
		got <- json.Unmarshal(h.out.Bytes(), &r)
	}()
	var timeout <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case err := <-got:
		if err == nil && r.Error != "" {
			err = errors.New(r.Error)
			if strings.Contains(r.Error, ErrUnavailable.Error()) {
				err = fmt.Errorf("%w%s", ErrUnavailable, strings.TrimPrefix(r.Error, ErrUnavailable.Error()))
			}
		}
		return r, err
	case <-timeout:
		return r, fmt.Errorf("no answer in %v", limit)
	}
}

// why says how the helper ended, from its exit and its stderr.
func (h *Helper) why() string {
	select {
	case err := <-h.done:
		h.done <- err
		msg := strings.TrimSpace(h.stderr.String())
		if msg == "" && err != nil {
			msg = err.Error()
		}
		if msg == "" {
			msg = "without a word"
		}
		return msg
	case <-time.After(5 * time.Second):
		return "its output closed"
	}
}

// ask sends a request and reads its reply.
func (h *Helper) ask(req request) (reply, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return reply{}, errors.New("recording file system: unmounted already")
	}
	b, err := json.Marshal(req)
	if err != nil {
		return reply{}, err
	}
	if _, err := h.in.Write(append(b, '\n')); err != nil {
		return reply{}, h.failed(req.Op, err)
	}
	r, err := h.read(0)
	if err != nil {
		return r, h.failed(req.Op, err)
	}
	return r, nil
}

// failed is the error of a request op that could not be sent or
// answered (err): when the helper has died (killed, say: a write to its
// stdin then fails "file already closed"), that it died, how, and what
// it said, rather than the pipe's complaint.
func (h *Helper) failed(op string, err error) error {
	select {
	case werr := <-h.done:
		h.done <- werr
		how := "it exited"
		if werr != nil {
			how = werr.Error() // "signal: killed", "exit status 1"
		}
		if msg := strings.TrimSpace(h.stderr.String()); msg != "" {
			how += ": " + strings.ReplaceAll(msg, "\n", "; ")
		}
		pid := 0
		if h.cmd.Process != nil {
			pid = h.cmd.Process.Pid
		}
		return fmt.Errorf("%w: the FUSE file system's helper (process %d) ended during the run (%s); nothing was recorded or counted after it (%s failed)", ErrHelperDied, pid, how, op)
	case <-time.After(5 * time.Second):
		return fmt.Errorf("recording file system: %s: %w", op, err)
	}
}

// ErrHelperDied marks a request to a helper that had died.
var ErrHelperDied = errors.New("the recorder died")

// StartRecording makes the helper copy the recorded files into base
// and record every change of them to the record at path, from a start
// mark on (see FS.Start).
func (h *Helper) StartRecording(base, path string, limit int64) error {
	_, err := h.ask(request{Op: "start", Base: base, Record: path, Limit: limit})
	return err
}

// EndRecording appends the run's end and stops recording.
func (h *Helper) EndRecording() error {
	_, err := h.ask(request{Op: "end"})
	return err
}

// Counts returns what the recorded files received since the mount.
func (h *Helper) Counts() (store.IOCounts, error) {
	r, err := h.ask(request{Op: "counts"})
	if err == nil && r.Counts == nil {
		err = errors.New("recording file system: no counts in its answer")
	}
	if err != nil {
		return store.IOCounts{}, err
	}
	return *r.Counts, nil
}

// Close unmounts and waits for the helper to end; one that does not
// within a minute is killed. If the helper could not unmount (it died,
// or was killed), Close detaches the mount itself, so that none is left
// behind. Call it once nothing has a file of the mount open.
func (h *Helper) Close() error {
	_, err := h.ask(request{Op: "unmount"})
	h.mu.Lock()
	h.closed = true
	h.in.Close()
	h.mu.Unlock()
	select {
	case werr := <-h.done:
		h.done <- werr
		if err == nil && werr != nil {
			err = fmt.Errorf("recording file system: %w: %s", werr, strings.TrimSpace(h.stderr.String()))
		}
	case <-time.After(time.Minute):
		h.kill()
		<-h.done
		err = errors.Join(err, errors.New("recording file system: the helper did not end in a minute: killed it"))
	}
	if err != nil {
		if derr := detach(h.dir); derr != nil && mounted(h.dir) {
			err = errors.Join(err, fmt.Errorf("and could not unmount %s: %w", h.dir, derr))
		}
	}
	return err
}

// kill ends the helper at once.
func (h *Helper) kill() {
	if h.cmd.Process != nil {
		_ = h.cmd.Process.Kill()
	}
	h.in.Close()
}

// tail keeps the first n bytes written to it, for messages.
type tail struct {
	mu  sync.Mutex
	buf bytes.Buffer
	n   int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if k := min(len(p), t.n-t.buf.Len()); k > 0 {
		t.buf.Write(p[:k])
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
