package sqlite

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/store"
)

var _ store.LiveCounter = (*db)(nil)

// Live counts the rows of kv (each its 8-byte key and its value) and of
// the record table, if any (its key and fields), on a connection of its
// own: what space amplification divides the file's size by.
func (s *db) Live(ctx context.Context) (store.Live, error) {
	c, err := s.open("rw")
	if err != nil {
		return store.Live{}, err
	}
	defer c.Close()
	defer c.interruptible(ctx)()
	queries := []string{"SELECT count(*) || ' ' || coalesce(sum(8 + length(v)), 0) FROM kv"}
	if t := s.table; t != nil {
		cols := []string{"length(" + t.Key + ")"}
		for i := range t.Fields {
			cols = append(cols, "coalesce(length("+t.FieldName(i)+"), 0)")
		}
		queries = append(queries, fmt.Sprintf("SELECT count(*) || ' ' || coalesce(sum(%s), 0) FROM %s", strings.Join(cols, " + "), t.Name))
	}
	var l store.Live
	for _, q := range queries {
		v, err := c.queryString(q)
		if err != nil {
			return store.Live{}, interrupted(ctx, s.d.wrap(err))
		}
		keys, bytes, _ := strings.Cut(v, " ")
		k, err1 := strconv.ParseInt(keys, 10, 64)
		b, err2 := strconv.ParseInt(bytes, 10, 64)
		if err1 != nil || err2 != nil {
			return store.Live{}, fmt.Errorf("counting the live data: %q", v)
		}
		l.Keys += k
		l.Bytes += b
	}
	return l, nil
}
