package crashstate

import (
	"container/list"
	"errors"
	"os"
)

// fileCache keeps the model's images open, at most max at once: a run
// of an engine that keeps a file per key has thousands.
type fileCache struct {
	max  int
	open map[string]*list.Element // of *os.File, the most recently used first
	lru  list.List
}

func newFileCache(max int) *fileCache {
	return &fileCache{max: max, open: map[string]*list.Element{}}
}

// get returns the file at path, opening it for reading and writing.
func (c *fileCache) get(path string) (*os.File, error) {
	if e, ok := c.open[path]; ok {
		c.lru.MoveToFront(e)
		return e.Value.(*os.File), nil
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	c.add(path, f)
	return f, nil
}

// create makes a new, empty file at path and returns it open.
func (c *fileCache) create(path string) (*os.File, error) {
	if _, ok := c.open[path]; ok {
		return nil, errors.New("crash state: an image made twice: " + path)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	c.add(path, f)
	return f, nil
}

func (c *fileCache) add(path string, f *os.File) {
	c.open[path] = c.lru.PushFront(f)
	for c.lru.Len() > c.max {
		old := c.lru.Back()
		of := c.lru.Remove(old).(*os.File)
		delete(c.open, of.Name())
		of.Close()
	}
}

// close closes every file it holds open.
func (c *fileCache) close() {
	for e := c.lru.Front(); e != nil; e = e.Next() {
		e.Value.(*os.File).Close()
	}
	c.open = map[string]*list.Element{}
	c.lru.Init()
}
