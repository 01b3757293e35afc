package store

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Declaration is an engine's options declared once (see Declare): the
// flags that set them, their help and values, the cells of a matrix they
// span, their JSON and their names in reports and gates all follow from
// one tagged struct.
type Declaration interface {
	// Engine names the engine, for messages: "the bbolt engine".
	Engine() string
	// Settings returns a new, unbound Settings of the options.
	Settings() Settings
	// Name names options (as Config.Options carries them) by their flags.
	Name(raw json.RawMessage) ([]Setting, error)
}

// Declarer is implemented by a Driver whose options are a Declaration.
// The registry binds its flags, spans its cells and names its options
// from it.
type Declarer interface {
	Options() Declaration
}

// Validator is an engine's options type: Validate checks one cell's
// values together, after each was parsed and found among its declared
// values.
type Validator interface {
	Validate() error
}

// Decl is the Declaration of the options type T. Each exported field of
// T that carries a `flag` tag is an option:
//
//	type Options struct {
//		Freelist string `json:"freelist" flag:"bbolt-freelist" values:"array,map" help:"bbolt engine: how free pages are kept"`
//		Sync     string `json:"sync" flag:"sync"`
//	}
//
// flag names the command-line flag (an engine outside the default family
// prefixes it with its name); help is its usage; values, a comma list,
// are the only values it takes (and what shells complete). Every flag
// takes a comma list, and every value is a cell of the run's matrix,
// spanned in the order of the fields; a flag the command line did not
// give leaves its field at the engine's default (the defaults' value, not
// its text read back). A field's type is a string, a bool
// (a bare --flag is true), an integer, a float, a time.Duration or a type
// with encoding.TextUnmarshaler and TextMarshaler. A flag of CommonFlags
// (--sync) is bound once for every engine that declares it, with the
// common help and default.
//
// complete, a comma list, are values shells complete without restricting
// the flag to them (Validate judges the others). A flag with values or
// complete takes its keywords in any case, as SQLite does its pragmas'
// ("--journal WAL" is wal). named:"omitzero" names the option in reports
// only where its value is not the zero value of its type. A field tagged
// name, without flag, is an option no flag sets (the run sets it, through
// OnCell, or a preset does): it is named as the tag says, and takes no
// part in flags, completion or cells.
type Decl[T Validator] struct {
	engine   string
	defaults func() T
	fields   []option
	cell     func(o *T, w Want, given Given) (time.Duration, error)
	profile  func(o *T, given Given)
}

// Given returns the values a command line gave a declared flag, nil
// where it gave none (the cell has the default).
type Given func(flag string) List

// option is one declared field of T.
type option struct {
	index    []int
	flag     string
	help     string
	values   []string
	complete []string
	typ      reflect.Type
	omitZero bool // named only where not the zero value
	unbound  bool // named only: no flag sets it
}

// Declare reads the options of T from its tags; defaults gives the
// options of a run that sets none. A field badly tagged is a programming
// error: Declare panics, naming it.
func Declare[T Validator](engine string, defaults func() T) *Decl[T] {
	d := &Decl[T]{engine: engine, defaults: defaults}
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("store: Declare of %v: options are a struct", t))
	}
	for _, f := range reflect.VisibleFields(t) {
		name, ok := f.Tag.Lookup("flag")
		o := option{index: f.Index, flag: name, help: f.Tag.Get("help"), typ: f.Type, omitZero: f.Tag.Get("named") == "omitzero"}
		if !ok {
			o.flag, o.unbound = f.Tag.Get("name"), true
		}
		if o.flag == "" || !f.IsExported() {
			continue
		}
		if v := f.Tag.Get("values"); v != "" {
			o.values = strings.Split(v, ",")
		}
		if v := f.Tag.Get("complete"); v != "" {
			o.complete = strings.Split(v, ",")
		}
		if c, ok := CommonFlags[name]; ok {
			o.help = c.Help
			if o.values == nil {
				o.values = c.Values
			}
		}
		if !parsable(f.Type) {
			panic(fmt.Sprintf("store: %s declares --%s on a field of type %v, which no flag parses", engine, name, f.Type))
		}
		if o.help == "" && !o.unbound {
			panic(fmt.Sprintf("store: %s declares --%s without help", engine, name))
		}
		d.fields = append(d.fields, o)
	}
	def := defaults()
	for _, o := range d.fields {
		if o.values != nil && !slices.Contains(o.values, d.text(def, o)) {
			panic(fmt.Sprintf("store: %s: the default of --%s, %q, is not among its values %v", engine, o.flag, d.text(def, o), o.values))
		}
	}
	return d
}

// OnCell sets what fits each cell's options to the run (Want) after its
// flags' values are set: an in-memory mode, a lock-wait budget under the
// retry policy; given tells which flags the command line gave, and with
// what values. It returns the cell's retry budget. Without it a cell
// refuses Want.Memory and has no retry budget of its own.
func (d *Decl[T]) OnCell(f func(o *T, w Want, given Given) (retry time.Duration, err error)) *Decl[T] {
	d.cell = f
	return d
}

// Profile sets what a cell's profile (--profile) sets, after its flags'
// values are set and before OnCell's hook: given tells which flags the
// command line gave, whose values the profile leaves alone.
func (d *Decl[T]) Profile(f func(o *T, given Given)) *Decl[T] {
	d.profile = f
	return d
}

// Engine names the engine.
func (d *Decl[T]) Engine() string { return d.engine }

// Default returns the options of a run that sets none.
func (d *Decl[T]) Default() T { return d.defaults() }

// Decode reads options as a Config carries them: the defaults for nil,
// refusing unknown fields, values outside a field's declared values and
// what Validate refuses, each with class ErrInvalid and naming the engine.
func (d *Decl[T]) Decode(raw json.RawMessage) (T, error) {
	o := d.defaults()
	if len(raw) > 0 {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			return o, fmt.Errorf("%w: %s options: %w", ErrInvalid, d.engine, err)
		}
	}
	if err := d.check(o); err != nil {
		return o, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return o, nil
}

// check refuses a value outside its field's declared values, then what
// Validate refuses; errors name the engine.
func (d *Decl[T]) check(o T) error {
	for _, f := range d.fields {
		if v := d.text(o, f); f.values != nil && !slices.Contains(f.values, v) {
			return fmt.Errorf("%s: --%s %s: want %s", d.engine, f.flag, v, orList(f.values))
		}
	}
	if err := o.Validate(); err != nil {
		return fmt.Errorf("%s: %w", d.engine, err)
	}
	return nil
}

// Encode returns the options as a Config carries them.
func (d *Decl[T]) Encode(o T) json.RawMessage {
	b, err := json.Marshal(o)
	if err != nil {
		panic(err) // cannot happen: the fields are plain values or text marshalers
	}
	return b
}

// Name names options by their flags, in the order of the fields.
func (d *Decl[T]) Name(raw json.RawMessage) ([]Setting, error) {
	o, err := d.Decode(raw)
	if err != nil {
		return nil, err
	}
	return d.Named(o), nil
}

// Named returns o's options by their flags, in the order of the fields;
// an option named omitzero is left out where its value is zero.
func (d *Decl[T]) Named(o T) []Setting {
	var out []Setting
	v := reflect.ValueOf(o)
	for _, f := range d.fields {
		if f.omitZero && v.FieldByIndex(f.index).IsZero() {
			continue
		}
		out = append(out, Setting{Name: f.flag, Value: d.text(o, f)})
	}
	return out
}

// Facts returns o's options as facts named by their flags, as a
// Describer gives them: Headline reads them back.
func (d *Decl[T]) Facts(o T) []Fact {
	named := d.Named(o)
	out := make([]Fact, len(named))
	for i, s := range named {
		out[i] = Fact(s)
	}
	return out
}

// Headline returns the options among facts (see Facts) as a report's
// headline: "bbolt-freelist map · sync full".
func (d *Decl[T]) Headline(facts []Fact) string {
	var parts []string
	for _, f := range d.fields {
		for _, fa := range facts {
			if fa.Name == f.flag {
				parts = append(parts, f.flag+" "+fa.Value)
			}
		}
	}
	return strings.Join(parts, " · ")
}

// text returns the value of f in o as its flag takes it.
func (d *Decl[T]) text(o T, f option) string {
	return formatValue(reflect.ValueOf(o).FieldByIndex(f.index))
}

// Settings returns a new, unbound Settings of the options.
func (d *Decl[T]) Settings() Settings {
	s := &declSettings[T]{d: d, lists: make([]*List, len(d.fields))}
	def := d.defaults()
	for i, f := range d.fields {
		s.lists[i] = &List{d.text(def, f)}
	}
	return s
}

// declSettings are a Decl's options as flags bind them: one comma list
// per field.
type declSettings[T Validator] struct {
	d     *Decl[T]
	lists []*List
	fs    *pflag.FlagSet
}

var _ Completer = (*declSettings[Validator])(nil)

func (s *declSettings[T]) Engine() string { return s.d.engine }

// Flags names the flags, common ones among them.
func (s *declSettings[T]) Flags() []string {
	var out []string
	for _, f := range s.d.fields {
		if !f.unbound {
			out = append(out, f.flag)
		}
	}
	return out
}

// AddFlags binds each field's flag; a common flag another engine bound
// already is shared.
func (s *declSettings[T]) AddFlags(fs *pflag.FlagSet) {
	s.fs = fs
	for i, f := range s.d.fields {
		if _, ok := CommonFlags[f.flag]; ok {
			s.lists[i] = BindCommon(fs, f.flag)
			continue
		}
		if f.unbound {
			continue
		}
		fold := f.typ.Kind() == reflect.String && (f.values != nil || f.complete != nil)
		fs.Var(&listValue{List: s.lists[i], typ: f.typ, fold: fold}, f.flag, f.help+" (a comma list spans a matrix)")
		if f.typ.Kind() == reflect.Bool {
			fs.Lookup(f.flag).NoOptDefVal = "true"
		}
	}
}

// Values lists the values a flag of the engine takes, or suggests.
func (s *declSettings[T]) Values(flag string) []string {
	for _, f := range s.d.fields {
		switch {
		case f.flag != flag || f.unbound:
		case f.complete != nil:
			return f.complete
		case f.typ.Kind() == reflect.Bool && f.values == nil:
			return []string{"false", "true"}
		default:
			return f.values
		}
	}
	return nil
}

// set returns which flags a cell's texts set (by the command line or an
// override), each with its value there: what a profile leaves alone.
func (d *Decl[T]) set(texts []string) Given {
	return func(flag string) List {
		for i, f := range d.fields {
			if f.flag == flag && !f.unbound && texts[i] != "" {
				return List{texts[i]}
			}
		}
		return nil
	}
}

// given returns the values the command line gave flag, nil where it gave
// none.
func (s *declSettings[T]) given(flag string) List {
	for i, f := range s.d.fields {
		if f.flag == flag && !f.unbound && s.fs != nil && s.fs.Changed(flag) {
			return *s.lists[i]
		}
	}
	return nil
}

// Cells spans the product of the fields' lists, the first field
// outermost: each cell is the defaults with the values given set, fitted
// to w, checked; a cell equal to one before it is dropped.
func (s *declSettings[T]) Cells(w Want) ([]Cell, error) {
	var cells []Cell
	seen := map[string]bool{}
	idx := make([]int, len(s.lists))
	for {
		c, err := s.cellAt(idx, w)
		if err != nil {
			return nil, err
		}
		if !seen[string(c.Options)] {
			seen[string(c.Options)] = true
			cells = append(cells, c)
		}
		if !next(idx, s.lists) {
			return cells, nil
		}
	}
}

// cellAt builds the cell of the values at idx.
func (s *declSettings[T]) cellAt(idx []int, w Want) (Cell, error) {
	return s.cellOf(s.textsAt(idx), w)
}

// textsAt returns the text each field takes in the cell at idx: its
// flag's value there, or "" for a field whose flag the command line did
// not give (it keeps the default: a flag's default text need not read
// back as the default value, as SQLite's checkpoint "auto" is not its
// pragma left alone).
func (s *declSettings[T]) textsAt(idx []int) []string {
	texts := make([]string, len(s.d.fields))
	for i, f := range s.d.fields {
		if !f.unbound && s.given(f.flag) != nil {
			texts[i] = (*s.lists[i])[idx[i]]
		}
	}
	return texts
}

// cellOf builds the cell of the defaults with each field of a text set
// to it, fitted to w (the hook) and checked.
func (s *declSettings[T]) cellOf(texts []string, w Want) (Cell, error) {
	o := s.d.defaults()
	v := reflect.ValueOf(&o).Elem()
	for i, f := range s.d.fields {
		text := texts[i]
		if f.unbound || text == "" {
			continue
		}
		if f.values != nil && !slices.Contains(f.values, text) {
			return Cell{}, fmt.Errorf("%w: %s: --%s %s: want %s", ErrInvalid, s.d.engine, f.flag, text, orList(f.values))
		}
		if err := parseValue(v.FieldByIndex(f.index), text); err != nil {
			return Cell{}, fmt.Errorf("%w: %s: --%s %q: %w", ErrInvalid, s.d.engine, f.flag, text, err)
		}
	}
	if s.d.profile != nil {
		s.d.profile(&o, s.d.set(texts))
	}
	var c Cell
	switch {
	case s.d.cell != nil:
		retry, err := s.d.cell(&o, w, s.given)
		if err != nil {
			return Cell{}, fmt.Errorf("%w: %s: %w", ErrInvalid, s.d.engine, err)
		}
		c.RetryBudget = retry
	case w.Memory:
		return Cell{}, fmt.Errorf("%w: --storage memory: %s has no in-memory mode (drop it, or use --storage disk or ramdisk)", ErrInvalid, s.d.engine)
	}
	if err := s.d.check(o); err != nil {
		return Cell{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	c.Options = s.d.Encode(o)
	return c, nil
}

var _ Overrider = (*declSettings[Validator])(nil)

// Override returns the cell of these Settings whose options are options,
// its flags named in values taking those values instead (in place of the
// command line's or the default), each parsed by its flag's own parser,
// fitted to w by the cell hook, which sees the command line's flags as
// given, and checked. A flag the engine does not bind, a value its flag
// refuses, and options that are none of the cells' are errors.
func (s *declSettings[T]) Override(options json.RawMessage, values map[string]string, w Want) (Cell, error) {
	texts, err := s.textsOf(options, w)
	if err != nil {
		return Cell{}, err
	}
	for _, flag := range slices.Sorted(maps.Keys(values)) {
		i := slices.IndexFunc(s.d.fields, func(f option) bool { return f.flag == flag && !f.unbound })
		if i < 0 {
			return Cell{}, fmt.Errorf("%w: %s have no flag --%s", ErrInvalid, s.d.engine, flag)
		}
		texts[i] = values[flag]
		if f := s.d.fields[i]; f.typ.Kind() == reflect.String && (f.values != nil || f.complete != nil) {
			texts[i] = strings.ToLower(texts[i]) // keywords in any case, as the flag takes them
		}
		if texts[i] == "" {
			return Cell{}, fmt.Errorf("%w: %s: --%s takes no empty value", ErrInvalid, s.d.engine, flag)
		}
	}
	return s.cellOf(texts, w)
}

// textsOf returns the texts of the cell (of the command line's values,
// fitted to w) whose options are options: the first such.
func (s *declSettings[T]) textsOf(options json.RawMessage, w Want) ([]string, error) {
	idx := make([]int, len(s.lists))
	for {
		c, err := s.cellAt(idx, w)
		if err != nil {
			return nil, err
		}
		if bytes.Equal(c.Options, options) {
			return s.textsAt(idx), nil
		}
		if !next(idx, s.lists) {
			return nil, fmt.Errorf("%w: %s: options %s are none of the cells the flags span", ErrInvalid, s.d.engine, options)
		}
	}
}

// next advances idx, an odometer over lists with the last field fastest;
// false when it has gone round.
func next(idx []int, lists []*List) bool {
	for i := len(idx) - 1; i >= 0; i-- {
		idx[i]++
		if idx[i] < len(*lists[i]) {
			return true
		}
		idx[i] = 0
	}
	return false
}

// orList joins values for a message: "a, b or c".
func orList(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// listValue is a declared flag's comma list, checking each item parses
// as the field's type as the flag is set; keywords in any case with fold.
type listValue struct {
	*List
	typ  reflect.Type
	fold bool
}

func (l *listValue) Set(s string) error {
	if l.fold {
		s = strings.ToLower(s)
	}
	var parsed List
	if err := parsed.Set(s); err != nil {
		return err
	}
	for _, item := range parsed {
		if err := parseValue(reflect.New(l.typ).Elem(), item); err != nil {
			return listItemError(parsed, item, err)
		}
	}
	*l.List = parsed
	return nil
}

// listItemError names the item of a list that failed to parse, unless
// the error names it already or the list is that one item (the flag's
// own error quotes the whole value): `"abc": "abc": bad` said it twice.
func listItemError(list List, item string, err error) error {
	if len(list) == 1 || strings.HasPrefix(err.Error(), strconv.Quote(item)) {
		return err
	}
	return fmt.Errorf("%q: %w", item, err)
}

// Type names the field's kind in help: "int", "duration", "string".
func (l *listValue) Type() string {
	switch {
	case l.typ == reflect.TypeFor[time.Duration]():
		return "duration"
	case l.typ.Kind() == reflect.Bool:
		return "bools" // a comma list of true and false: not pflag's "bool", whose help hides that it takes a value
	case reflect.PointerTo(l.typ).Implements(textUnmarshaler):
		return "string"
	case l.typ.Kind() >= reflect.Int && l.typ.Kind() <= reflect.Uint64:
		return "int"
	case l.typ.Kind() == reflect.Float64:
		return "float"
	}
	return "string"
}

// IsBoolFlag lets a bool's flag stand alone (--flag is --flag=true).
func (l *listValue) IsBoolFlag() bool { return l.typ.Kind() == reflect.Bool }

var (
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	durationType    = reflect.TypeFor[time.Duration]()
)

// parsable reports whether a field of type t can be set from a flag.
func parsable(t reflect.Type) bool {
	if reflect.PointerTo(t).Implements(textUnmarshaler) && t.Implements(textMarshaler) {
		return true
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint32, reflect.Uint64, reflect.Float64:
		return true
	}
	return false
}

// parseValue sets v from its flag's text.
func parseValue(v reflect.Value, s string) error {
	if u, ok := v.Addr().Interface().(encoding.TextUnmarshaler); ok {
		return u.UnmarshalText([]byte(s))
	}
	if v.Type() == durationType {
		d, err := time.ParseDuration(s)
		v.SetInt(int64(d))
		return err
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("want true or false")
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("want a whole number")
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(s, 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("want a whole number, 0 or more")
		}
		v.SetUint(n)
	case reflect.Float64:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("want a number")
		}
		v.SetFloat(f)
	}
	return nil
}

// formatValue returns v as its flag takes it.
func formatValue(v reflect.Value) string {
	if m, ok := v.Interface().(encoding.TextMarshaler); ok {
		b, _ := m.MarshalText()
		return string(b)
	}
	if v.Type() == durationType {
		return time.Duration(v.Int()).String()
	}
	return fmt.Sprint(v.Interface())
}
