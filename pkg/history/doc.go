// Package history keeps gobench's results over time and finds where a
// figure changed.
//
// A Store is a results database on database/sql: by default one SQLite
// file (mattn's driver), or the same schema on a PostgreSQL server (pgx)
// that many CI jobs write to. Every run of a result file is kept with its
// plan's hash (the series key: unlike plans never share a series), its
// cell's settings, the gobench build and engine facts, the machine's
// calibration before and after it, when it ran, the commit and branch it
// measured, and every figure of the figure table (judge.Figures: one row
// per figure). A run's id is the hash of its content, so adding a result
// twice changes nothing.
//
// Query reads one figure's series (one point per commit: the median of
// its runs, with an interval), normalised by each run's calibration where
// the figure depends on the machine, and ChangePoints finds where it
// stepped: E-divisive means (Matteson & James 2014) with a seeded
// permutation test and a minimum relative step. Gate says whether the
// change point at the head of a series is a regression beyond a
// threshold; Confirm records the verdict of an interleaved A/B run of a
// change point's two commits beside it.
package history
