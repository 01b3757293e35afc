package mask

import "strings"

// PagingParams returns the indexes (1-based) of the parameters that give
// a LIMIT or an OFFSET (LIMIT ?, LIMIT ? OFFSET ?, LIMIT ?, ?): values
// that land in no column.
func PagingParams(sql string) []int {
	toks := numbered(sql)
	var out []int
	for i, t := range toks {
		if t.kind != tokWord || t.text != "limit" && t.text != "offset" {
			continue
		}
		for j := i + 1; j < len(toks) && toks[j].kind == tokParam; j += 2 {
			if toks[j].param > 0 {
				out = append(out, toks[j].param)
			}
			if j+1 >= len(toks) || toks[j+1].text != "," {
				break
			}
		}
	}
	return out
}

// Insert is the shape of an INSERT ... VALUES statement (ParseInsert).
type Insert struct {
	// Table is the table inserted into, in lower case; Columns its
	// column list (lower case), nil when the statement gives none.
	Table   string
	Columns []string
	// ColumnsEnd is the byte offset of the column list's closing
	// parenthesis (-1 without a list); RowEnd that of the first row of
	// VALUES; Rows counts the rows of VALUES.
	ColumnsEnd, RowEnd int
	Rows               int
}

// ParseInsert reads an INSERT (or REPLACE) INTO t [(cols)] VALUES (...)
// statement, false for any other (INSERT ... SELECT, DEFAULT VALUES).
func ParseInsert(sql string) (Insert, bool) {
	toks := tokenize(sql)
	i := indexWord(toks, 0, "into")
	if i < 0 {
		return Insert{}, false
	}
	ins := Insert{ColumnsEnd: -1, RowEnd: -1}
	var j int
	if ins.Table, j = qualifiedName(toks, i+1); ins.Table == "" {
		return Insert{}, false
	}
	if j < len(toks) && toks[j].text == "as" {
		j += 2
	}
	if j < len(toks) && toks[j].text == "(" {
		for j++; j < len(toks) && toks[j].text != ")"; j++ {
			if isName(toks[j]) {
				ins.Columns = append(ins.Columns, strings.ToLower(toks[j].text))
			}
		}
		if j >= len(toks) {
			return Insert{}, false
		}
		ins.ColumnsEnd = toks[j].start
		j++
	}
	if j >= len(toks) || toks[j].text != "values" {
		return Insert{}, false
	}
	for j++; j < len(toks) && toks[j].text == "("; {
		end := skipExpr(toks, j+1)
		for end < len(toks) && toks[end].text == "," {
			end = skipExpr(toks, end+1)
		}
		if end >= len(toks) {
			return Insert{}, false
		}
		if ins.Rows == 0 {
			ins.RowEnd = toks[end].start
		}
		ins.Rows++
		if j = end + 1; j < len(toks) && toks[j].text == "," {
			j++
		}
	}
	return ins, ins.Rows > 0
}

// Params returns every parameter of sql, in order, with its index and
// bytes (Slot.Param, Start and End; no column).
func Params(sql string) []Slot {
	var out []Slot
	for _, t := range numbered(sql) {
		if t.kind == tokParam && t.param > 0 {
			out = append(out, Slot{Param: t.param, Start: t.start, End: t.end})
		}
	}
	return out
}

// numbered returns sql's tokens, each parameter given its index.
func numbered(sql string) []token {
	toks := tokenize(sql)
	var st Statement
	numberParams(toks, &st)
	return toks
}
