package recfs

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gobench/gobench/pkg/store"
)

// request is one line the coordinator sends the helper.
type request struct {
	// Op is "start" (Base, Record, Limit), "counts", "end" or "unmount".
	Op     string `json:"op"`
	Base   string `json:"base,omitempty"`
	Record string `json:"record,omitempty"`
	Limit  int64  `json:"limit,omitempty"`
}

// reply is the helper's answer to the configuration (Mounted) and to
// each request.
type reply struct {
	Error   string          `json:"error,omitempty"`
	Mounted bool            `json:"mounted,omitempty"`
	PID     int             `json:"pid,omitempty"`
	Counts  *store.IOCounts `json:"counts,omitempty"`
}

// Serve is the helper process: it reads a Config (one JSON line) from
// in, mounts it, says so on out, then answers requests, a JSON line
// each, until in ends or asks it to unmount; then it unmounts. A
// coordinator that dies closes in: the helper unmounts and returns.
func Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	enc := json.NewEncoder(out)
	if !sc.Scan() {
		return errors.New("recording file system: no configuration on stdin")
	}
	var cfg Config
	if err := json.Unmarshal(sc.Bytes(), &cfg); err != nil {
		return fmt.Errorf("recording file system: the configuration: %w", err)
	}
	fsys, err := Mount(cfg)
	if err != nil {
		_ = enc.Encode(reply{Error: err.Error()})
		return err
	}
	if err := enc.Encode(reply{Mounted: true, PID: os.Getpid()}); err != nil {
		return errors.Join(err, fsys.Unmount())
	}
	lines := make(chan []byte)
	go func() {
		defer close(lines)
		for sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	for {
		var line []byte
		var ok bool
		select {
		case line, ok = <-lines:
		case <-ctx.Done():
		}
		if !ok {
			// The coordinator is gone (or the helper was told to stop).
			return fsys.Unmount()
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			_ = enc.Encode(reply{Error: fmt.Sprintf("a request that does not decode: %v", err)})
			continue
		}
		var r reply
		switch req.Op {
		case "start":
			err = fsys.Start(req.Base, req.Record, req.Limit)
		case "counts":
			c := fsys.Counts()
			r.Counts = &c
		case "end":
			err = fsys.End()
		case "unmount":
			err = fsys.Unmount()
			if err == nil {
				return enc.Encode(r)
			}
		default:
			err = fmt.Errorf("unknown request %q", req.Op)
		}
		if err != nil {
			r.Error = err.Error()
		}
		if err := enc.Encode(r); err != nil {
			return errors.Join(err, fsys.Unmount())
		}
	}
}
