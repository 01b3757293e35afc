package sqlscript

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
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
		return intOp(b.op, l.I, r.I)
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
			return Value{}, fmt.Errorf("%w: division by zero", ErrEval)
		}
		return FloatValue(lf / rf), nil
	}
	return Value{}, fmt.Errorf("%w: %% takes integers", ErrEval)
}

// intOp is integer arithmetic as pgbench does it: division truncates, and
// dividing by zero is an error.
func intOp(op byte, l, r int64) (Value, error) {
	switch op {
	case '+':
		return IntValue(l + r), nil
	case '-':
		return IntValue(l - r), nil
	case '*':
		return IntValue(l * r), nil
	}
	if r == 0 {
		return Value{}, fmt.Errorf("%w: division by zero", ErrEval)
	}
	if r == -1 { // math.MinInt64 / -1 overflows: pgbench refuses it too
		if l == math.MinInt64 && op == '/' {
			return Value{}, fmt.Errorf("%w: bigint out of range", ErrEval)
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
// binds tightest, then * / %, then + -.
type exprParser struct {
	src string
	pos int
}

// ParseExpr parses a \set expression.
func ParseExpr(src string) (Expr, error) {
	p := &exprParser{src: src}
	e, err := p.binary(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(p.src) {
		return nil, fmt.Errorf("unexpected %q in expression %q", p.src[p.pos:], src)
	}
	return e, nil
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
		l = &binary{op: op, l: l, r: r}
	}
}

func (p *exprParser) unary() (Expr, error) {
	p.space()
	if p.pos >= len(p.src) {
		return nil, fmt.Errorf("expression %q ends where a value should be", p.src)
	}
	switch c := p.src[p.pos]; {
	case c == '-':
		p.pos++
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if l, ok := x.(*literal); ok && l.v.Kind != Text { // fold -1
			v, _ := (&unary{x}).eval(nil)
			return &literal{v}, nil
		}
		return &unary{x}, nil
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
			return nil, fmt.Errorf("missing ) in expression %q", p.src)
		}
		p.pos++
		return e, nil
	case c == ':':
		p.pos++
		name := p.word()
		if name == "" {
			return nil, fmt.Errorf("a variable name must follow : in expression %q", p.src)
		}
		return &varRef{name: name}, nil
	case c >= '0' && c <= '9' || c == '.':
		return p.number()
	case isWordStart(c):
		return p.call()
	}
	return nil, fmt.Errorf("unexpected %q in expression %q", p.src[p.pos:], p.src)
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
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		return &literal{IntValue(i)}, nil
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil && !strings.ContainsAny(text, "xXpP_") && !math.IsInf(f, 0) {
		return &literal{FloatValue(f)}, nil
	}
	return nil, fmt.Errorf("%q is not a number", text)
}

func (p *exprParser) call() (Expr, error) {
	name := strings.ToLower(p.word())
	switch name {
	case "true":
		return &literal{IntValue(1)}, nil
	case "false":
		return &literal{IntValue(0)}, nil
	}
	fn, ok := functions[name]
	if !ok {
		return nil, fmt.Errorf("unknown function %s (known: %s)", name, functionNames())
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
	return &call{name: name, fn: fn, args: args}, nil
}
