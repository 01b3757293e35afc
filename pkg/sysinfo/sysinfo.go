// Package sysinfo reads facts about the machine a run happens on.
package sysinfo
