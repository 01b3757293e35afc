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
