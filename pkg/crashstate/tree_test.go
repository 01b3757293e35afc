package crashstate

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gobench/gobench/pkg/iorecord"
	"github.com/gobench/gobench/pkg/store"
)

// tree is a file system recorder's run: a tree at the start (its
// directories and files numbered as the recorder numbers them), then
// events by number.
type tree struct {
	t      *testing.T
	dir    string
	start  []byte
	events []byte
	next   uint32
}

func newTree(t *testing.T) *tree {
	tr := &tree{t: t, dir: t.TempDir(), next: iorecord.RootDir}
	if err := os.MkdirAll(filepath.Join(tr.dir, "base"), 0o700); err != nil {
		t.Fatal(err)
	}
	tr.add(iorecord.Event{Kind: iorecord.KindStart})
	return tr
}

// has lists a file (or, with content "/", a directory) of the start.
func (tr *tree) has(parent uint32, name, content string) uint32 {
	tr.next++
	kind := iorecord.KindCreate
	if content == "/" {
		kind = iorecord.KindMkdir
	} else if err := os.WriteFile(filepath.Join(tr.dir, "base", strconv.Itoa(int(tr.next))), []byte(content), 0o600); err != nil {
		tr.t.Fatal(err)
	}
	tr.start = iorecord.AppendEvent(tr.start, &iorecord.Event{Kind: kind, File: tr.next, Arg: int64(parent), Data: []byte(name)})
	return tr.next
}

func (tr *tree) add(e iorecord.Event) *tree {
	tr.events = iorecord.AppendEvent(tr.events, &e)
	return tr
}

func (tr *tree) create(parent uint32, name string, dir bool) uint32 {
	tr.next++
	kind := iorecord.KindCreate
	if dir {
		kind = iorecord.KindMkdir
	}
	tr.add(iorecord.Event{Kind: kind, File: tr.next, Arg: int64(parent), Data: []byte(name)})
	return tr.next
}

func (tr *tree) write(id uint32, off int64, data string) *tree {
	return tr.add(iorecord.Event{Kind: iorecord.KindWrite, File: id, Arg: off, Data: []byte(data)})
}
func (tr *tree) sync(id uint32) *tree {
	return tr.add(iorecord.Event{Kind: iorecord.KindSync, File: id})
}
func (tr *tree) dirSync(id uint32) *tree {
	return tr.add(iorecord.Event{Kind: iorecord.KindDirSync, File: id})
}
func (tr *tree) trunc(id uint32, size int64) *tree {
	return tr.add(iorecord.Event{Kind: iorecord.KindTruncate, File: id, Arg: size})
}
func (tr *tree) rename(id, from uint32, old string, to uint32, new string) *tree {
	return tr.add(iorecord.Event{Kind: iorecord.KindRename, File: id, Data: iorecord.AppendRename(nil, iorecord.Rename{From: from, To: to, Old: old, New: new})})
}
func (tr *tree) unlink(id, parent uint32, name string) *tree {
	return tr.add(iorecord.Event{Kind: iorecord.KindDelete, File: id, Arg: int64(parent), Data: []byte(name)})
}
func (tr *tree) link(id, parent uint32, name string) *tree {
	return tr.add(iorecord.Event{Kind: iorecord.KindLink, File: id, Arg: int64(parent), Data: []byte(name)})
}

// last returns the files of the state after the last event under model,
// by their paths ("dir/" for a directory).
func (tr *tree) last(model string) map[string]string {
	tr.t.Helper()
	tr.add(iorecord.Event{Kind: iorecord.KindEnd})
	defer func() { tr.events = tr.events[:len(tr.events)-iorecord.HeaderLen] }()
	must := func(err error) {
		if err != nil {
			tr.t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(tr.dir, "base", "tree"), tr.start, 0o600))
	rec := filepath.Join(tr.dir, "record")
	must(os.WriteFile(rec, tr.events, 0o600))
	var got map[string]string
	o := Options{Record: rec, Base: filepath.Join(tr.dir, "base"), Work: filepath.Join(tr.dir, "work"), Tree: "tree",
		Spec: store.CrashSpec{States: 1 << 20, Model: model, Seed: 3}}
	_, err := Build(context.Background(), o, func(store.Ack) {}, func(st store.CrashState) error {
		got = map[string]string{}
		return filepath.WalkDir(st.Path, func(p string, d os.DirEntry, err error) error {
			if err != nil || p == st.Path {
				return err
			}
			rel, _ := filepath.Rel(st.Path, p)
			if d.IsDir() {
				got[rel+"/"] = ""
				return nil
			}
			b, err := os.ReadFile(p)
			got[rel] = string(b)
			return err
		})
	})
	must(err)
	return got
}

func same(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || v != w {
			return false
		}
	}
	return true
}

// Each change of the tree is durable, under POSIX's model, once the
// directory it changed is synced, and at once under LazyFS's; a file's
// data and size only at its own sync, under both.
func TestTreeChanges(t *testing.T) {
	root := uint32(iorecord.RootDir)
	for _, tt := range []struct {
		name        string
		run         func(tr *tree)
		lose, names map[string]string
	}{
		{"a new directory and its file, nothing synced", func(tr *tree) {
			d := tr.create(root, "sub", true)
			f := tr.create(d, "f", false)
			tr.write(f, 0, "x").sync(f)
		}, map[string]string{"old": "o"}, map[string]string{"old": "o", "sub/": "", "sub/f": "x"}},
		{"the parent synced, the new directory not", func(tr *tree) {
			d := tr.create(root, "sub", true)
			f := tr.create(d, "f", false)
			tr.write(f, 0, "x").sync(f).dirSync(root)
		}, map[string]string{"old": "o", "sub/": ""}, map[string]string{"old": "o", "sub/": "", "sub/f": "x"}},
		{"both synced", func(tr *tree) {
			d := tr.create(root, "sub", true)
			f := tr.create(d, "f", false)
			tr.write(f, 0, "x").sync(f).dirSync(d).dirSync(root)
		}, map[string]string{"old": "o", "sub/": "", "sub/f": "x"}, map[string]string{"old": "o", "sub/": "", "sub/f": "x"}},
		{"a rename over the old file (write, sync, rename), the directory not synced", func(tr *tree) {
			f := tr.create(root, "tmp", false)
			tr.write(f, 0, "new").sync(f).rename(f, root, "tmp", root, "old")
		}, map[string]string{"old": "o"}, map[string]string{"old": "new"}},
		{"the same, the directory synced", func(tr *tree) {
			f := tr.create(root, "tmp", false)
			tr.write(f, 0, "new").sync(f).rename(f, root, "tmp", root, "old").dirSync(root)
		}, map[string]string{"old": "new"}, map[string]string{"old": "new"}},
		{"a rename before the data's sync", func(tr *tree) {
			f := tr.create(root, "tmp", false)
			tr.write(f, 0, "new").rename(f, root, "tmp", root, "old").dirSync(root)
		}, map[string]string{"old": ""}, map[string]string{"old": ""}},
		{"a second name, then the first removed", func(tr *tree) {
			tr.link(2, root, "again").unlink(2, root, "old").dirSync(root)
		}, map[string]string{"again": "o"}, map[string]string{"again": "o"}},
		{"a removal not synced", func(tr *tree) {
			tr.unlink(2, root, "old")
		}, map[string]string{"old": "o"}, map[string]string{}},
		{"cut short, grown again by a write, synced", func(tr *tree) {
			tr.trunc(2, 0).write(2, 2, "ab").sync(2)
		}, map[string]string{"old": "\x00\x00ab"}, map[string]string{"old": "\x00\x00ab"}},
	} {
		tr := newTree(t)
		if tr.has(root, "old", "o") != 2 {
			t.Fatal("numbering")
		}
		tt.run(tr)
		if got := tr.last(store.CrashLose); !same(got, tt.lose) {
			t.Errorf("%s, lose: %q, want %q", tt.name, got, tt.lose)
		}
		if got := tr.last(store.CrashNamesDurable); !same(got, tt.names) {
			t.Errorf("%s, names-durable: %q, want %q", tt.name, got, tt.names)
		}
	}
}

// A tree at the start with nested directories and a second name for a
// file comes back whole when nothing changed.
func TestTreeAtTheStart(t *testing.T) {
	tr := newTree(t)
	root := uint32(iorecord.RootDir)
	d := tr.has(root, "d", "/")
	f := tr.has(d, "f", "data")
	tr.has(root, "top", "t")
	tr.start = iorecord.AppendEvent(tr.start, &iorecord.Event{Kind: iorecord.KindLink, File: f, Arg: int64(root), Data: []byte("f2")})
	tr.write(f, 0, "D").sync(f)
	want := map[string]string{"d/": "", "d/f": "Data", "f2": "Data", "top": "t"}
	if got := tr.last(store.CrashLose); !same(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
}

// A record that names a directory it never made, or renames an entry
// that is not there, is refused.
func TestTreeBadRecords(t *testing.T) {
	for _, run := range []func(tr *tree){
		func(tr *tree) { tr.create(77, "x", false) },
		func(tr *tree) { tr.rename(5, iorecord.RootDir, "nothing", iorecord.RootDir, "y") },
		func(tr *tree) { tr.link(99, iorecord.RootDir, "z") },
	} {
		tr := newTree(t)
		run(tr)
		tr.add(iorecord.Event{Kind: iorecord.KindEnd})
		if err := os.WriteFile(filepath.Join(tr.dir, "base", "tree"), tr.start, 0o600); err != nil {
			t.Fatal(err)
		}
		rec := filepath.Join(tr.dir, "record")
		if err := os.WriteFile(rec, tr.events, 0o600); err != nil {
			t.Fatal(err)
		}
		o := Options{Record: rec, Base: filepath.Join(tr.dir, "base"), Work: filepath.Join(tr.dir, "w"), Tree: "tree", Spec: store.CrashSpec{States: 10, Model: store.CrashLose}}
		if _, err := Build(context.Background(), o, func(store.Ack) {}, func(store.CrashState) error { return nil }); err == nil {
			t.Error("a record of an impossible change was accepted")
		}
	}
}
