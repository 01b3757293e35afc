package replay

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// A replay's workers leave an example of each kind of statement that
// diverged, and the first error of each kind that failed, in a file
// beside the database (workload.Replay.DivergedFile), one JSON line each, written when the worker's dealer closes (outside
// any clocked op); Check reads them back into the result.

// DivergedPath returns the file beside the database at db where a
// replay's workers leave their examples of statements that diverged.
func DivergedPath(db string) string { return db + ".gobench-diverged" }

// Bounds of an example.
const (
	maxExampleSQL  = 200
	maxExampleArg  = 40
	maxExampleArgs = 10
)

// divergences are the examples one dealer met: the first of each kind
// that diverged, and the first error of each kind that failed.
type divergences struct {
	path   string
	seen   map[string]bool
	list   []workload.ReplayDivergence
	failed map[string]bool
	errs   []workload.ReplayError
}

// example is one line of the file: a statement that diverged, or the
// first error of a kind.
type example struct {
	Diverged *workload.ReplayDivergence `json:"diverged,omitempty"`
	Failed   *workload.ReplayError      `json:"failed,omitempty"`
}

// maxErrorMessage bounds an error's message in an example.
const maxErrorMessage = 300

// noteError keeps err as the first error of rd's kind, unless the kind
// has one.
func (v *divergences) noteError(rd *Statement, class store.Class, err error) {
	if v == nil || v.failed[rd.kind] || len(v.errs) >= workload.MaxReplayKinds {
		return
	}
	if v.failed == nil {
		v.failed = map[string]bool{}
	}
	v.failed[rd.kind] = true
	v.errs = append(v.errs, workload.ReplayError{Kind: rd.kind, Class: class.String(), Message: shortText(err.Error(), maxErrorMessage)})
}

// note keeps rd as its kind's example, unless the kind has one.
func (v *divergences) note(rd *Statement, what string, out store.Outcome, class store.Class) {
	if v == nil || v.seen[rd.kind] || len(v.list) >= workload.MaxReplayKinds {
		return
	}
	v.seen[rd.kind] = true
	ex := workload.ReplayDivergence{Kind: rd.kind, SQL: shortText(rd.SQL, maxExampleSQL), What: what,
		Rows: out.Rows, CapturedRows: rd.Want.Rows}
	for i, a := range rd.Args {
		if i == maxExampleArgs {
			ex.Args = append(ex.Args, "…")
			break
		}
		ex.Args = append(ex.Args, literal(a))
	}
	if what == whatChanges {
		ex.Changes, ex.CapturedChanges = out.Changes, rd.Want.Changes
	}
	if what == whatOutcome {
		ex.Class, ex.CapturedClass = class.String(), rd.Want.Class().String()
	}
	v.list = append(v.list, ex)
}

// flush appends the examples to the file in one write.
func (v *divergences) flush() error {
	if v == nil || len(v.list)+len(v.errs) == 0 || v.path == "" {
		return nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for i := range v.list {
		if err := enc.Encode(example{Diverged: &v.list[i]}); err != nil {
			return err
		}
	}
	for i := range v.errs {
		if err := enc.Encode(example{Failed: &v.errs[i]}); err != nil {
			return err
		}
	}
	v.list, v.errs = v.list[:0], v.errs[:0]
	f, err := os.OpenFile(v.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("keeping the examples of statements that diverged: %w", err)
	}
	_, err = f.Write(b.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// readDivergences reads the examples the workers left in path, the first
// of each kind that diverged and the first error of each kind that
// failed, in the order of kinds, and removes the file.
func readDivergences(path string, kinds []workload.ReplayKind) ([]workload.ReplayDivergence, []workload.ReplayError, error) {
	if path == "" {
		return nil, nil, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil // none diverged or failed
	}
	if err != nil {
		return nil, nil, err
	}
	os.Remove(path)
	byKind := map[string]workload.ReplayDivergence{}
	errByKind := map[string]workload.ReplayError{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ex example
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			return nil, nil, fmt.Errorf("reading %s: %w", path, err)
		}
		if d := ex.Diverged; d != nil {
			if _, ok := byKind[d.Kind]; !ok {
				byKind[d.Kind] = *d
			}
		}
		if f := ex.Failed; f != nil {
			if _, ok := errByKind[f.Kind]; !ok {
				errByKind[f.Kind] = *f
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	var out []workload.ReplayDivergence
	var errs []workload.ReplayError
	for _, k := range kinds {
		if ex, ok := byKind[k.ID]; ok {
			out = append(out, ex)
		}
		if f, ok := errByKind[k.ID]; ok {
			errs = append(errs, f)
		}
	}
	return out, errs, nil
}

// literal writes a bound value as an SQL literal, shortened.
func literal(a any) string {
	switch v := a.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return "'" + strings.ReplaceAll(shortText(v, maxExampleArg), "'", "''") + "'"
	case []byte:
		if len(v) > maxExampleArg/2 {
			return fmt.Sprintf("x'%s…' (%d bytes)", hex.EncodeToString(v[:maxExampleArg/2]), len(v))
		}
		return "x'" + hex.EncodeToString(v) + "'"
	}
	return fmt.Sprint(a)
}

// shortText cuts s to at most n bytes (whole UTF-8 sequences), marking a
// cut with "…".
func shortText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
