package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gobench/gobench/pkg/crashstate"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// ErrNoRecoveryRecord refuses a recovery-crash check of a store that
// cannot record its own reopen (store.PowerCutStore).
var ErrNoRecoveryRecord = errors.New("the store cannot record its reopen")

// CheckRecoveryCrash checks a state as store.CrashRecovery asks: it
// reopens the state with the run's driver and settings, recording that
// reopen (the engine's recovery: a hot journal rolled back, a WAL
// replayed and checkpointed, a log replayed) as the run was recorded,
// then cuts again at a seeded point inside what the reopen wrote, and
// checks the state that second cut left as CheckCrashState checks one.
// layout says how the states find the store's files in a record
// (crashstate.Options: Files); Work, Record and Base are set here. A
// reopen that wrote nothing is not cut again: the state is the first
// reopen's.
func CheckRecoveryCrash(ctx context.Context, drv store.Driver, plan *workload.Plan, st store.CrashState, x *CrashIndex, layout crashstate.Options, seed uint64) (workload.CrashResult, error) {
	dir := filepath.Dir(st.Path) + "-recovery"
	if err := os.Mkdir(dir, 0o700); err != nil {
		return workload.CrashResult{}, fmt.Errorf("crash state %d: %w", st.Index, err)
	}
	defer os.RemoveAll(dir)
	rec := store.Record{Path: filepath.Join(dir, "record"), Limit: plan.Crash.RecordLimit}
	first, err := recordReopen(ctx, drv, plan, st, x, dir, rec)
	if err != nil {
		return first, err
	}
	cut := &workload.RecoveryCut{First: first.Outcome()}
	o := layout
	o.Record, o.Base, o.Work = rec.Path, filepath.Join(dir, "base"), filepath.Join(dir, "work")
	o.Spec = store.CrashSpec{States: 1, Model: store.CrashLose, Seed: seed ^ uint64(st.Index+1)}
	res := first
	sum, err := crashstate.Build(ctx, o, func(store.Ack) {}, func(second store.CrashState) error {
		cut.Cut = second.Event
		again := st
		again.Path = second.Path
		var err error
		res, err = CheckCrashState(ctx, drv, plan, again, x)
		return err
	})
	if err != nil {
		return res, fmt.Errorf("crash state %d: the cut inside its recovery: %w", st.Index, err)
	}
	cut.Events = sum.Events
	res.Recovery = cut
	return res, nil
}

// recordReopen opens the state at st with recording on, records into
// rec everything its reopen and check write (the state's files as they
// are copied into dir/base first), and returns that check's verdict.
func recordReopen(ctx context.Context, drv store.Driver, plan *workload.Plan, st store.CrashState, x *CrashIndex, dir string, rec store.Record) (workload.CrashResult, error) {
	cfg := plan.Store
	cfg.Path, cfg.Record = st.Path, nil
	s, err := drv.Open(ctx, cfg)
	if err != nil {
		return workload.CrashResult{}, fmt.Errorf("opening crash state %d: %w", st.Index, err)
	}
	defer s.Close()
	pcs, ok := s.(store.PowerCutStore)
	if !ok {
		return workload.CrashResult{}, fmt.Errorf("crash state %d: %w", st.Index, ErrNoRecoveryRecord)
	}
	if err := pcs.StartRecording(dir, rec); err != nil {
		return workload.CrashResult{}, fmt.Errorf("crash state %d: recording its reopen: %w", st.Index, err)
	}
	res, err := CheckCrashState(ctx, drv, plan, st, x)
	if serr := pcs.StopRecording(); err == nil && serr != nil {
		err = fmt.Errorf("crash state %d: recording its reopen: %w", st.Index, serr)
	}
	return res, err
}
