package store

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// JoinBoolLists returns args with the value given after a declared
// boolean option's flag as a separate word joined to it: "--bbolt-batch
// false,true" becomes "--bbolt-batch=false,true", the form pflag parses
// (a flag that may stand alone, as a bare boolean one is true, never takes
// the next word as its value). A word is joined when it is meant as the
// flag's value: a comma list, a word that reads as a boolean, or a yes/no
// answer (which the flag then refuses with a clear message); anything else
// (another flag, a command's own argument) is left alone and the flag is
// bare, true. fs holds the command's flags; args stop at "--".
func JoinBoolLists(fs *pflag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		out = append(out, a)
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if !strings.HasPrefix(a, "--") || strings.Contains(a, "=") || i+1 == len(args) {
			continue
		}
		f := fs.Lookup(a[2:])
		if f == nil || !isBoolList(f) || !meantAsBool(args[i+1]) {
			continue
		}
		out[len(out)-1] = a + "=" + args[i+1]
		i++
	}
	return out
}

// isBoolList reports whether f is a declared boolean option's flag.
func isBoolList(f *pflag.Flag) bool {
	l, ok := f.Value.(*listValue)
	return ok && l.typ.Kind() == reflect.Bool
}

// meantAsBool reports whether word, after a boolean option's flag, is its
// value rather than the next argument.
func meantAsBool(word string) bool {
	if strings.HasPrefix(word, "-") {
		return false
	}
	if strings.Contains(word, ",") {
		return true
	}
	if _, err := strconv.ParseBool(word); err == nil {
		return true
	}
	switch strings.ToLower(word) {
	case "yes", "no", "y", "n", "on", "off":
		return true
	}
	return false
}
