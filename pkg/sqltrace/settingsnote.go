package sqltrace

import "strings"

// settingsNotePrefix opens a note that says which settings a database's
// connections ran with where no statement of the trace set them: a Go
// program's driver sets them from its connection string (mattn's
// _journal_mode=WAL, modernc's _pragma=busy_timeout(5000)) or its own
// defaults, out of the wrapper's sight, and the wrapper reads them back
// on a connection of its own.
const settingsNotePrefix = "connection settings, as the driver's connection string and defaults left them, on "

// SettingsNote returns the note that database path's connections ran
// with stmts, statements that would set their settings
// ("PRAGMA journal_mode=wal; PRAGMA synchronous=1").
func SettingsNote(path, stmts string) Note {
	return Note{Level: NoteInfo, Text: settingsNotePrefix + path + " — " + stmts}
}

// ParseSettingsNote reads a note SettingsNote wrote: the database's path
// and the statements; false for another note.
func ParseSettingsNote(n Note) (path, stmts string, ok bool) {
	rest, ok := strings.CutPrefix(n.Text, settingsNotePrefix)
	i := strings.LastIndex(rest, " — ")
	if !ok || n.Level != NoteInfo || i < 0 {
		return "", "", false
	}
	return rest[:i], rest[i+len(" — "):], true
}

// maskNotePrefix opens the note of a trace whose columns gobench capture
// --mask replaced by keyed substitutes (package mask).
const maskNotePrefix = "masked columns (values replaced by keyed substitutes): "

// MaskNote returns the note that the trace's values of cols
// ("users.email, users.name") are substitutes.
func MaskNote(cols string) Note {
	return Note{Level: NoteInfo, Text: maskNotePrefix + cols}
}

// ParseMaskNote reads a note MaskNote wrote: the masked columns; false
// for another note.
func ParseMaskNote(n Note) (cols string, ok bool) {
	cols, ok = strings.CutPrefix(n.Text, maskNotePrefix)
	return cols, ok && n.Level == NoteInfo
}

// versionNotePrefix opens the note that names the SQLite library a
// captured process ran its statements on.
const versionNotePrefix = "SQLite library of this process: "

// VersionNote returns the note that a process's statements ran on SQLite
// version (sqlite3_libversion(): "3.40.1"). A replay on another version
// can return other results for the same statements (sum() of REAL
// values is compensated since 3.43), which its divergence report says.
func VersionNote(version string) Note {
	return Note{Level: NoteInfo, Text: versionNotePrefix + version}
}

// ParseVersionNote reads a note VersionNote wrote: the version; false for
// another note.
func ParseVersionNote(n Note) (version string, ok bool) {
	version, ok = strings.CutPrefix(n.Text, versionNotePrefix)
	return version, ok && n.Level == NoteInfo && version != ""
}
