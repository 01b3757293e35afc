package ab

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// resolve returns the binary a build names: value itself when it names
// an existing file, or else value as a git revision of repo, built into
// dir.
func resolve(ctx context.Context, repo, value, dir string, note func(string, ...any)) (string, error) {
	if value == "" {
		return "", errors.New("give a gobench binary or a git revision")
	}
	if fi, err := os.Stat(value); err == nil {
		if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			return "", fmt.Errorf("%w: not an executable file", ErrRefused)
		}
		return filepath.Abs(value)
	}
	return buildRevision(ctx, repo, value, dir, note)
}

// buildRevision extracts revision rev of the git repository repo into
// dir (git archive: the index and the work tree are left alone) and
// builds its ./cmd/gobench there with go build -trimpath, whose cache
// entries do not depend on the directory, so a second build of the same
// sources is quick.
func buildRevision(ctx context.Context, repo, rev, dir string, note func(string, ...any)) (string, error) {
	commit, err := gitOutput(ctx, repo, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("%w: neither an existing file nor a git revision of %s", ErrRefused, repoName(repo))
	}
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	start := time.Now()
	note("building %s (%s) in %s", rev, commit[:min(12, len(commit))], src)
	if err := extract(ctx, repo, commit, src); err != nil {
		return "", fmt.Errorf("extracting %s: %w", rev, err)
	}
	bin := filepath.Join(dir, "gobench")
	var stderr bytes.Buffer
	cmd, finish := command(ctx, buildLimit, "go", "build", "-trimpath", "-buildvcs=false", "-o", bin, "./cmd/gobench")
	cmd.Dir, cmd.Stderr = src, &stderr
	if err := run(cmd, finish); err != nil {
		return "", fmt.Errorf("go build: %w: %s", err, lastLines(stderr.String(), 5))
	}
	note("built %s in %v", rev, time.Since(start).Round(time.Second))
	return bin, nil
}

func repoName(repo string) string {
	if repo == "" {
		return "the current directory"
	}
	return repo
}

// gitOutput runs git in repo and returns its trimmed output.
func gitOutput(ctx context.Context, repo string, args ...string) (string, error) {
	var out, stderr bytes.Buffer
	cmd, finish := command(ctx, buildLimit, "git", args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = repo, &out, &stderr
	if err := run(cmd, finish); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, lastLines(stderr.String(), 2))
	}
	return strings.TrimSpace(out.String()), nil
}

// extract writes the tree of commit into dir, from git archive's tar.
func extract(ctx context.Context, repo, commit, dir string) error {
	var stderr bytes.Buffer
	cmd, finish := command(ctx, buildLimit, "git", "archive", "--format=tar", commit)
	cmd.Dir, cmd.Stderr = repo, &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return finish(err)
	}
	untarErr := untar(pipe, dir)
	_, _ = io.Copy(io.Discard, pipe) // let git finish writing whatever is left
	if err := finish(cmd.Wait()); err != nil {
		return fmt.Errorf("git archive: %w: %s", err, lastLines(stderr.String(), 2))
	}
	return untarErr
}

// untar writes a tar stream's directories, files and symbolic links
// under dir, refusing any name that would leave it.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag == tar.TypeXGlobalHeader {
			continue // git's pax header: the commit id
		}
		if !filepath.IsLocal(h.Name) {
			return fmt.Errorf("archive entry %q leaves the directory", h.Name)
		}
		path := filepath.Join(dir, h.Name)
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(path, 0o755)
		case tar.TypeReg:
			err = writeFile(path, tr, os.FileMode(h.Mode).Perm())
		case tar.TypeSymlink:
			err = os.Symlink(h.Linkname, path)
		}
		if err != nil {
			return err
		}
	}
}

func writeFile(path string, r io.Reader, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
