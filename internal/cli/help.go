package cli

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// groupKey annotates a flag with the help group it is listed under.
const groupKey = "gobench/group"

// The help groups of a run command's flags, in the order --help lists
// them. A flag of no group is the command's own: its workload.
const (
	groupWorkload = "Workload"
	groupEngine   = "Engine and database"
	groupWorkers  = "Workers"
	groupLoad     = "Load shape"
	groupCI       = "Comparing and CI"
	groupSearch   = "Capacity search (--find-rate)"
	groupScale    = "Scale search (--find-scale)"
	groupCrash    = "Power cuts (--crash)"
	groupOutput   = "Output"
)

var groupOrder = []string{groupWorkload, groupEngine, groupWorkers, groupLoad, groupCI, groupSearch, groupScale, groupCrash, groupOutput}

// inGroup lists under group, in --help, the flags bind binds to fs.
func inGroup(fs *pflag.FlagSet, group string, bind func()) {
	before := map[string]bool{}
	fs.VisitAll(func(f *pflag.Flag) { before[f.Name] = true })
	bind()
	fs.VisitAll(func(f *pflag.Flag) {
		if !before[f.Name] {
			_ = fs.SetAnnotation(f.Name, groupKey, []string{group})
		}
	})
}

// groupedFlags renders cmd's flags for --help: by group, as kubectl and
// gh list them, when any flag has a group; else as one list.
func groupedFlags(cmd *cobra.Command) string {
	local := cmd.LocalFlags()
	grouped := false
	local.VisitAll(func(f *pflag.Flag) { grouped = grouped || len(f.Annotations[groupKey]) > 0 })
	if !grouped {
		return "Flags:\n" + strings.TrimRight(local.FlagUsages(), " \n")
	}
	sets := map[string]*pflag.FlagSet{}
	local.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return // a group of hidden flags alone is not listed
		}
		g := groupWorkload
		if a := f.Annotations[groupKey]; len(a) > 0 {
			g = a[0]
		} else if f.Name == "help" {
			g = groupOutput
		}
		if sets[g] == nil {
			sets[g] = pflag.NewFlagSet(g, pflag.ContinueOnError)
			sets[g].SortFlags = local.SortFlags
		}
		sets[g].AddFlag(f)
	})
	var b strings.Builder
	for _, g := range groupOrder {
		if fs := sets[g]; fs != nil {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(heading(g, local) + " flags:\n" + strings.TrimRight(fs.FlagUsages(), " \n"))
		}
	}
	return b.String()
}

// heading is group g's title in --help of a command with flags local: the
// power-cut group of a command that hides --crash (it refuses it) holds
// only the I/O tracer, and is titled so.
func heading(g string, local *pflag.FlagSet) string {
	if f := local.Lookup("crash"); g == groupCrash && (f == nil || f.Hidden) {
		return "I/O tracing"
	}
	return g
}

// usageTemplate is cobra's, with the local flags listed by groupedFlags.
const usageTemplate = `Usage:{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if gt (len .Aliases) 0}}

Aliases:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Available Commands:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

{{groupedFlags .}}{{end}}{{if .HasAvailableInheritedFlags}}

Global Flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasHelpSubCommands}}

Additional help topics:{{range .Commands}}{{if .IsAdditionalHelpTopicCommand}}
  {{rpad .CommandPath .CommandPathPadding}} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} [command] --help" for more information about a command.{{end}}
`

// progressValue is --progress: an interval, or automatic (1 s on a
// terminal, 10 s elsewhere) while not given, which help shows as "auto"
// rather than a negative duration.
type progressValue struct{ p *time.Duration }

func (v progressValue) Set(s string) error {
	if s == "auto" {
		*v.p = -1
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*v.p = d
	return nil
}

func (v progressValue) String() string {
	if *v.p < 0 {
		return "auto"
	}
	return v.p.String()
}

// Type names the value in help.
func (v progressValue) Type() string { return "duration" }

// wrapText fills the words of s into lines of at most width columns.
func wrapText(s string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(s) {
		l := utf8.RuneCountInString(w)
		switch {
		case n == 0:
		case n+1+l > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += l
	}
	return b.String()
}
