package sqlscript

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrEval marks an error while a \set expression is evaluated at run time,
// such as a division by zero or a bound out of order: an error of the
// script, not of the database.
var ErrEval = errors.New("script expression")

// Expr is a parsed \set expression.
type Expr interface {
	eval(s *State) (Value, error)
	vars(add func(string))
}

type literal struct{ v Value }

func (l *literal) eval(*State) (Value, error) { return l.v, nil }
func (*literal) vars(func(string))            {}

// varRef reads a variable; it keeps the slot the variable has in the State
// it last read from (see Script).
type varRef struct {
	name string
	st   *State
	slot int
}

func (r *varRef) eval(s *State) (Value, error) {
	if r.st != s {
		r.st, r.slot = s, s.slot(r.name)
	}
	v, ok := s.at(r.slot)
	if !ok {
		return Value{}, fmt.Errorf("%w: variable :%s is not set", ErrEval, r.name)
	}
	return v, nil
}
func (r *varRef) vars(add func(string)) { add(r.name) }

type unary struct{ x Expr }

func (u *unary) eval(s *State) (Value, error) {
	v, err := u.x.eval(s)
	if err != nil {
		return v, err
	}
	switch v.Kind {
	case Int:
		if v.I == math.MinInt64 {
			return Value{}, fmt.Errorf("%w: %w", ErrEval, errRange)
		}
		return IntValue(-v.I), nil
	case Float:
		return FloatValue(-v.F), nil
	}
	return Value{}, fmt.Errorf("%w: cannot negate %s", ErrEval, v)
}
func (u *unary) vars(add func(string)) { u.x.vars(add) }

type binary struct {
	op   byte
	l, r Expr
}

func (b *binary) vars(add func(string)) { b.l.vars(add); b.r.vars(add) }

func (b *binary) eval(s *State) (Value, error) {
	l, err := b.l.eval(s)
	if err != nil {
		return l, err
	}
	r, err := b.r.eval(s)
	if err != nil {
		return r, err
	}
	if l.Kind == Int && r.Kind == Int {
		v, err := intOp(b.op, l.I, r.I)
		if err != nil {
			return v, fmt.Errorf("%w: %w", ErrEval, err)
		}
		return v, nil
	}
	lf, err := l.float()
	if err != nil {
		return Value{}, fmt.Errorf("%w: %c: %w", ErrEval, b.op, err)
	}
	rf, err := r.float()
	if err != nil {
		return Value{}, fmt.Errorf("%w: %c: %w", ErrEval, b.op, err)
	}
	switch b.op {
	case '+':
		return FloatValue(lf + rf), nil
	case '-':
		return FloatValue(lf - rf), nil
	case '*':
		return FloatValue(lf * rf), nil
	case '/':
		if rf == 0 {
			return Value{}, fmt.Errorf("%w: %w", ErrEval, errDivZero)
		}
		return FloatValue(lf / rf), nil
	}
	return Value{}, fmt.Errorf("%w: %% takes integers", ErrEval)
}

// Errors of integer arithmetic, which eval wraps in ErrEval. errRange is
// a result beyond 64 bits: pgbench's "bigint out of range", never a value
// wrapped around.
var (
	errRange   = errors.New("bigint out of range")
	errDivZero = errors.New("division by zero")
)

// intOp is integer arithmetic as pgbench does it: division truncates,
// dividing by zero is an error, and so is a result that does not fit in
// 64 bits.
func intOp(op byte, l, r int64) (Value, error) {
	switch op {
	case '+':
		sum := l + r
		if (l^sum)&(r^sum) < 0 { // both operands' signs differ from the sum's
			return Value{}, errRange
		}
		return IntValue(sum), nil
	case '-':
		diff := l - r
		if (l^r)&(l^diff) < 0 { // operands of opposite signs, and the difference took r's
			return Value{}, errRange
		}
		return IntValue(diff), nil
	case '*':
		if l == 0 || r == 0 {
			return IntValue(0), nil
		}
		prod := l * r
		if prod/r != l || (l == -1 && r == math.MinInt64) || (r == -1 && l == math.MinInt64) {
			return Value{}, errRange
		}
		return IntValue(prod), nil
	}
	if r == 0 {
		return Value{}, errDivZero
	}
	if r == -1 { // math.MinInt64 / -1 overflows: pgbench refuses it too
		if l == math.MinInt64 && op == '/' {
			return Value{}, errRange
		}
		if op == '%' {
			return IntValue(0), nil
		}
	}
	if op == '/' {
		return IntValue(l / r), nil
	}
	return IntValue(l % r), nil
}

type call struct {
	name string
	fn   *function
	args []Expr
}

func (c *call) vars(add func(string)) {
	for _, a := range c.args {
		a.vars(add)
	}
}

func (c *call) eval(s *State) (Value, error) {
	// The arguments go on the state's stack, reused from call to call
	// (a nested call stacks its own above), so evaluating allocates
	// nothing.
	base := len(s.stack)
	for _, a := range c.args {
		v, err := a.eval(s)
		if err != nil {
			s.stack = s.stack[:base]
			return v, err
		}
		s.stack = append(s.stack, v)
	}
	v, err := c.fn.impl(s, s.stack[base:])
	s.stack = s.stack[:base]
	if err != nil {
		return Value{}, c.fail(err)
	}
	return v, nil
}

// fail wraps an error of the call's function. It is out of line so that
// eval, on every script's path, keeps a small frame.
//
//go:noinline
func (c *call) fail(err error) error { return fmt.Errorf("%w: %s(): %w", ErrEval, c.name, err) }

// exprParser parses an expression by precedence climbing: unary minus
// binds tightest, then * / %, then + -. Every operation whose operands
// are constants is computed as it is parsed (see fold).
type exprParser struct {
	src     string
	pos     int
	scratch *State // the State fold tries functions of constants on
}

// ParseExpr parses a \set expression. An operation on constants that
// cannot be computed (1 / 0, 9223372036854775807 + 1, random(5, 1)) is an
// error here, not at run time: the expression has no branches, so it
// would fail every time the script ran.
func ParseExpr(src string) (Expr, error) {
	p := &exprParser{src: src}
	e, err := p.binary(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(p.src) {
		return nil, fmt.Errorf("unexpected %s in expression %s", clip(p.src[p.pos:]), clip(src))
	}
	return e, nil
}

// maxQuoted bounds the text an error quotes from a script, so that a
// message stays one short line whatever the script holds.
const maxQuoted = 40

// clip quotes s for a message, cut to maxQuoted bytes (on a character
// boundary) with an ellipsis.
func clip(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}

// shown is a name from a script as a message shows it: as written when
// it is short and printable, else quoted and cut (see clip).
func shown(s string) string {
	if len(s) <= maxQuoted && utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) < 0 {
		return s
	}
	return clip(s)
}

func (p *exprParser) space() {
	for p.pos < len(p.src) && unicode.IsSpace(rune(p.src[p.pos])) {
		p.pos++
	}
}

func precedence(op byte) int {
	switch op {
	case '+', '-':
		return 1
	case '*', '/', '%':
		return 2
	}
	return 0
}

func (p *exprParser) binary(min int) (Expr, error) {
	p.space()
	start := p.pos
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		p.space()
		if p.pos >= len(p.src) {
			return l, nil
		}
		op := p.src[p.pos]
		prec := precedence(op)
		if prec == 0 || prec <= min {
			return l, nil
		}
		p.pos++
		r, err := p.binary(prec)
		if err != nil {
			return nil, err
		}
		if l, err = p.fold(&binary{op: op, l: l, r: r}, start); err != nil {
			return nil, err
		}
	}
}

// minInt64Digits is the one integer constant beyond int64 that an
// expression may hold, after a unary minus: -9223372036854775808.
const minInt64Digits = "9223372036854775808"

func (p *exprParser) unary() (Expr, error) {
	p.space()
	if p.pos >= len(p.src) {
		return nil, fmt.Errorf("expression %s ends where a value should be", clip(p.src))
	}
	start := p.pos
	switch c := p.src[p.pos]; {
	case c == '-':
		p.pos++
		p.space()
		if rest := p.src[p.pos:]; strings.HasPrefix(rest, minInt64Digits) &&
			(len(rest) == len(minInt64Digits) || !isWordByte(rest[len(minInt64Digits)]) && rest[len(minInt64Digits)] != '.') {
			p.pos += len(minInt64Digits)
			return &literal{IntValue(math.MinInt64)}, nil
		}
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return p.fold(&unary{x}, start)
	case c == '+':
		p.pos++
		return p.unary()
	case c == '(':
		p.pos++
		e, err := p.binary(0)
		if err != nil {
			return nil, err
		}
		p.space()
		if p.pos >= len(p.src) || p.src[p.pos] != ')' {
			return nil, fmt.Errorf("missing ) in expression %s", clip(p.src))
		}
		p.pos++
		return e, nil
	case c == ':':
		p.pos++
		name := p.word()
		if name == "" {
			return nil, fmt.Errorf("a variable name must follow : in expression %s", clip(p.src))
		}
		return &varRef{name: name}, nil
	case c >= '0' && c <= '9' || c == '.':
		return p.number()
	case isWordStart(c):
		return p.call()
	}
	return nil, fmt.Errorf("unexpected %s in expression %s", clip(p.src[p.pos:]), clip(p.src))
}

// fold computes e now when its operands are all constants, and returns
// the value as a constant; e's text is p.src[start:p.pos]. An operation
// that fails on its constants is an error, naming that text. A function
// that draws random values is not replaced by a value, only tried once
// on a State of the parser's own, so that arguments it refuses (an empty
// range, a parameter out of bounds) are found too.
func (p *exprParser) fold(e Expr, start int) (Expr, error) {
	var pure bool
	switch e := e.(type) {
	case *unary:
		pure = isConst(e.x)
	case *binary:
		pure = isConst(e.l) && isConst(e.r)
	case *call:
		for _, a := range e.args {
			if !isConst(a) {
				return e, nil
			}
		}
		pure = pureFunctions[e.name]
	}
	if p.scratch == nil {
		p.scratch = NewState(0, 0, 1)
	}
	if _, ok := e.(*call); !ok && !pure {
		return e, nil
	}
	v, err := e.eval(p.scratch)
	if err != nil {
		why := strings.TrimPrefix(err.Error(), ErrEval.Error()+": ")
		return nil, fmt.Errorf("%s cannot be computed: %s", clip(strings.TrimSpace(p.src[start:p.pos])), why)
	}
	if !pure {
		return e, nil
	}
	return &literal{v}, nil
}

// isConst reports whether e is a constant.
func isConst(e Expr) bool { _, ok := e.(*literal); return ok }

// pureFunctions are the functions whose value depends on their arguments
// alone: on constants, fold computes them once.
var pureFunctions = map[string]bool{
	"abs": true, "int": true, "double": true, "sqrt": true, "pi": true,
	"mod": true, "greatest": true, "least": true,
}

func isWordStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isWordByte(c byte) bool { return isWordStart(c) || c >= '0' && c <= '9' }

func (p *exprParser) word() string {
	start := p.pos
	for p.pos < len(p.src) && isWordByte(p.src[p.pos]) {
		p.pos++
	}
	return p.src[start:p.pos]
}

func (p *exprParser) number() (Expr, error) {
	start := p.pos
	for p.pos < len(p.src) && (isWordByte(p.src[p.pos]) || p.src[p.pos] == '.' ||
		(p.src[p.pos] == '+' || p.src[p.pos] == '-') && (p.src[p.pos-1] == 'e' || p.src[p.pos-1] == 'E')) {
		p.pos++
	}
	text := p.src[start:p.pos]
	i, err := strconv.ParseInt(text, 10, 64)
	if err == nil {
		return &literal{IntValue(i)}, nil
	}
	if strings.Trim(text, "0123456789") == "" { // digits only: an integer, as pgbench reads it
		return nil, fmt.Errorf("the integer %s is out of range (bigint: -9223372036854775808 to 9223372036854775807)", clip(text))
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil && !strings.ContainsAny(text, "xXpP_") && !math.IsInf(f, 0) {
		return &literal{FloatValue(f)}, nil
	}
	return nil, fmt.Errorf("%s is not a number", clip(text))
}

func (p *exprParser) call() (Expr, error) {
	start := p.pos
	name := strings.ToLower(p.word())
	switch name {
	case "true":
		return &literal{IntValue(1)}, nil
	case "false":
		return &literal{IntValue(0)}, nil
	}
	fn, ok := functions[name]
	if !ok {
		return nil, fmt.Errorf("unknown function %s (known: %s)", shown(name), functionNames())
	}
	p.space()
	if p.pos >= len(p.src) || p.src[p.pos] != '(' {
		return nil, fmt.Errorf("%s must be called: %s(…)", name, name)
	}
	p.pos++
	var args []Expr
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == ')' {
		p.pos++
	} else {
		for {
			a, err := p.binary(0)
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			p.space()
			if p.pos < len(p.src) && p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.src) && p.src[p.pos] == ')' {
				p.pos++
				break
			}
			return nil, fmt.Errorf("missing ) after the arguments of %s", name)
		}
	}
	if len(args) < fn.min || len(args) > fn.max {
		return nil, fmt.Errorf("%s takes %s, not %d", name, fn.arity(), len(args))
	}
	return p.fold(&call{name: name, fn: fn, args: args}, start)
}
