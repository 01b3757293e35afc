package capture

import (
	"context"
	"database/sql/driver"
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// timeFormat is how mattn's driver binds a time.Time: the trace keeps a
// time.Time so when the driver underneath does not say otherwise.
const timeFormat = "2006-01-02 15:04:05.999999999-07:00"

// timeLayouts are the texts the Go SQLite drivers bind a time.Time as:
// mattn's, modernc's default (time.Time.String's), ncruces's
// (RFC 3339 with nanoseconds) and the same with a space for the T.
var timeLayouts = []string{
	timeFormat,
	"2006-01-02 15:04:05.999999999 -0700 MST",
	time.RFC3339Nano,
	"2006-01-02 15:04:05.999999999Z07:00",
}

// timeProbe is the time.Time the capture binds on a connection of its
// own to learn how the driver binds one: fractional seconds, and a zone
// that is neither UTC nor a whole hour, so that no two layouts agree.
var timeProbe = time.Date(2001, 2, 3, 4, 5, 6, 7008009, time.FixedZone("P", 5*3600+30*60))

// timeBinder converts a time.Time as a driver binds it.
type timeBinder func(time.Time) sqltrace.Value

// mattnTime is the binder where the driver's own is not known.
func mattnTime(t time.Time) sqltrace.Value {
	return sqltrace.Keep(sqltrace.ValueText, []byte(t.Format(timeFormat)))
}

// probeTimeBinder learns how cn's driver binds a time.Time: it binds
// timeProbe to SELECT quote(?) and finds the layout (or Unix count) that
// gives what SQLite received. It returns nil when none does, or when the
// driver refuses a time.Time.
func probeTimeBinder(ctx context.Context, cn driver.Conn) timeBinder {
	rows, err := queryArgs(ctx, cn, "SELECT quote(?)", []driver.NamedValue{{Ordinal: 1, Value: timeProbe}})
	if err != nil || len(rows) != 1 || len(rows[0]) != 1 {
		return nil
	}
	return binderFor(rows[0][0])
}

// binderFor returns the binder that turns timeProbe into quoted, the
// text SQLite's quote() made of the bound value; nil when none does.
func binderFor(quoted string) timeBinder {
	if text, ok := strings.CutPrefix(quoted, "'"); ok && strings.HasSuffix(text, "'") {
		text = strings.ReplaceAll(text[:len(text)-1], "''", "'")
		for _, layout := range timeLayouts {
			for _, in := range []func(time.Time) time.Time{func(t time.Time) time.Time { return t }, time.Time.UTC} {
				if in(timeProbe).Format(layout) == text {
					return func(t time.Time) sqltrace.Value {
						return sqltrace.Keep(sqltrace.ValueText, []byte(in(t).Format(layout)))
					}
				}
			}
		}
		return nil
	}
	n, err := strconv.ParseInt(quoted, 10, 64)
	if err != nil {
		return nil
	}
	for _, unix := range []func(time.Time) int64{time.Time.Unix, time.Time.UnixMilli, time.Time.UnixNano} {
		if unix(timeProbe) == n {
			return func(t time.Time) sqltrace.Value { return sqltrace.Value{Type: sqltrace.ValueInt, Int: unix(t)} }
		}
	}
	return nil
}
