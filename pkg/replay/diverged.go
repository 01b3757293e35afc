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
// diverged in a file beside the database (workload.Replay.DivergedFile),
// one JSON line each, written when the worker's dealer closes (outside
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

// divergences are the examples one dealer met: the first of each kind.
type divergences struct {
	path string
	seen map[string]bool
	list []workload.ReplayDivergence
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
	if v == nil || len(v.list) == 0 || v.path == "" {
		return nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, ex := range v.list {
		if err := enc.Encode(ex); err != nil {
			return err
		}
	}
	v.list = v.list[:0]
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
// of each kind, in the order of kinds, and removes the file.
func readDivergences(path string, kinds []workload.ReplayKind) ([]workload.ReplayDivergence, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // none diverged
	}
	if err != nil {
		return nil, err
	}
	os.Remove(path)
	byKind := map[string]workload.ReplayDivergence{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ex workload.ReplayDivergence
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		if _, ok := byKind[ex.Kind]; !ok {
			byKind[ex.Kind] = ex
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	var out []workload.ReplayDivergence
	for _, k := range kinds {
		if ex, ok := byKind[k.ID]; ok {
			out = append(out, ex)
		}
	}
	return out, nil
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
