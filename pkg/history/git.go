package history

import (
	"context"
	"os/exec"
	"strings"
)

// Revision fills what meta leaves empty of the commit and branch a
// result measured: from the CI system's variables (GitHub's GITHUB_SHA
// and GITHUB_REF_NAME, GitLab's CI_COMMIT_SHA and CI_COMMIT_REF_NAME),
// read through getenv, else from the git checkout in dir (git rev-parse
// HEAD, git branch --show-current). What none of them says stays empty.
func Revision(ctx context.Context, meta Meta, dir string, getenv func(string) string) Meta {
	first := func(names ...string) string {
		for _, n := range names {
			if v := getenv(n); v != "" {
				return v
			}
		}
		return ""
	}
	if meta.Commit == "" {
		meta.Commit = first("GITHUB_SHA", "CI_COMMIT_SHA")
	}
	if meta.Branch == "" {
		meta.Branch = first("GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME")
	}
	if meta.Commit == "" {
		meta.Commit = git(ctx, dir, "rev-parse", "HEAD")
	}
	if meta.Branch == "" {
		meta.Branch = git(ctx, dir, "branch", "--show-current")
	}
	return meta
}

// git runs git in dir and returns its output's first line, "" when it
// fails (no git, no checkout).
func git(ctx context.Context, dir string, args ...string) string {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line)
}
