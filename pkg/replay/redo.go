package replay

// Redo returns what running the statement again on another connection
// runs (a --crash run's commits rebuilt in their order): its text, or its
// statements when the text holds several, and its arguments; nothing for
// a statement the replay does not run (skipped) or runs as a read of a
// setting of the run's. failed says it failed when captured, so may fail
// again.
func (rd *Statement) Redo() (stmts []string, args []any, failed bool) {
	failed = rd.Want.Code != 0
	switch {
	case rd.Skip || rd.Overridden:
		return nil, nil, failed
	case len(rd.Stmts) > 0:
		return rd.Stmts, nil, failed
	}
	return []string{rd.SQL}, rd.Args, failed
}
