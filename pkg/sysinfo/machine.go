package sysinfo

import (
	"path/filepath"
	"strings"
)

// Machine is what a run's numbers depend on besides the database: the
// kernel, the processor and how it is clocked, the memory. Fields the OS
// does not tell are empty (zero).
type Machine struct {
	Kernel      string
	CPUModel    string
	Governor    string // the cpufreq scaling governor (Linux), such as "performance"
	MemoryBytes int64
}

// mount is one line of /proc/self/mountinfo.
type mount struct {
	point, options string
	fstype, source string
	dev            string
}

// Mount is one mounted file system: where it is mounted, its type (such
// as "ext4" or "fuse.gobench-rec"), its source (a device, or the name a
// FUSE file system gave itself) and its device number ("0:45", as
// mountinfo gives it: read without asking the file system, which a
// FUSE mount whose server is gone would never answer).
type Mount struct {
	Point, Type, Source, Dev string
}

// parseMountinfo reads the mount points and their options (per-mount and
// superblock options, in that order, without repeats) from the text of
// /proc/self/mountinfo, skipping lines it cannot read.
func parseMountinfo(text string) []mount {
	var out []mount
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		sep := -1
		for i, x := range f {
			if x == "-" {
				sep = i
				break
			}
		}
		// id parent major:minor root point options [optional…] - fstype source superoptions
		if sep < 6 || len(f) < sep+4 {
			continue
		}
		var opts []string
		for _, o := range append(strings.Split(f[5], ","), strings.Split(f[sep+3], ",")...) {
			if o != "" && !contains(opts, o) {
				opts = append(opts, o)
			}
		}
		out = append(out, mount{point: unescapeMount(f[4]), options: strings.Join(opts, ","),
			fstype: f[sep+1], source: unescapeMount(f[sep+2]), dev: f[2]})
	}
	return out
}

// unescapeMount undoes the octal escapes of mountinfo (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) && isOctal(s[i+1:i+4]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// isOctal reports whether s is three octal digits of a byte (up to \377).
func isOctal(s string) bool {
	for i := 0; i < 3; i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return s[0] <= '3'
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// mountOptionsOf returns the options of the mount holding path (absolute,
// symlinks resolved): the last-mounted of the longest matching points.
func mountOptionsOf(mounts []mount, path string) string {
	best, opts := -1, ""
	for _, m := range mounts {
		if !under(path, m.point) {
			continue
		}
		if len(m.point) >= best {
			best, opts = len(m.point), m.options
		}
	}
	return opts
}

// under reports whether path is point or below it.
func under(path, point string) bool {
	if point == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == point || strings.HasPrefix(path, point+string(filepath.Separator))
}

// cpuModel finds the processor's name in the text of /proc/cpuinfo.
func cpuModel(text string) string {
	for _, key := range []string{"model name", "Model", "Hardware", "cpu model"} {
		for _, line := range strings.Split(text, "\n") {
			k, v, ok := strings.Cut(line, ":")
			if ok && strings.TrimSpace(k) == key {
				if v = strings.TrimSpace(v); v != "" {
					return v
				}
			}
		}
	}
	return ""
}
