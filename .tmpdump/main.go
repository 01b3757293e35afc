package main

import (
	"fmt"
	"io"
	"os"

	"github.com/gobench/gobench/pkg/sqltrace"
)

func main() {
	open := func() (io.ReadCloser, error) { return os.Open(os.Args[1]) }
	in, err := sqltrace.Inspect(open)
	if err != nil {
		panic(err)
	}
	for p, o := range in.Orders {
		fmt.Printf("%q: %+v commits %d missing %d\n", p, o.Table(), o.Commits, o.Missing)
	}
	f, _ := os.Open(os.Args[1])
	r := sqltrace.NewReader(f)
	n := 0
	for r.Next() {
		rec := r.Record()
		if rec.Kind == sqltrace.KindSegment {
			fmt.Printf("segment s%d %+v\n", rec.Stream, rec.Segment)
		}
		if rec.Kind == sqltrace.KindExec && (rec.Exec.Snap.Kind != 0 || rec.Exec.Commit.Kind != 0) && n < 40 {
			n++
			fmt.Printf("s%d c%d %.40q snap=%+v commit=%+v\n", rec.Stream, rec.Exec.Conn, rec.Exec.SQL, rec.Exec.Snap, rec.Exec.Commit)
		}
	}
}
