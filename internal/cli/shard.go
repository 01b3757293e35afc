package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// shardAuto is the --shard value that reads the shard from the CI
// system's own variables (shardFromEnv).
const shardAuto = "auto"

// shardFromEnv returns the shard, as --shard takes it (I/N, counting from
// 1), that the CI system running this job names in its variables, and
// where it came from:
//
//   - GOBENCH_SHARD=I/N, counting from 1, set by hand;
//   - GitHub Actions' matrix: GOBENCH_SHARD_INDEX from
//     ${{ strategy.job-index }} (GitHub counts from 0) of
//     GOBENCH_SHARD_COUNT from ${{ strategy.job-total }}: a workflow
//     must pass them, since GitHub puts neither in a job's environment;
//   - GitLab's parallel jobs: CI_NODE_INDEX (from 1) of CI_NODE_TOTAL;
//   - Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX (from 0) of
//     GOBENCH_SHARD_COUNT (the Job's completions, which the pod is not
//     told).
//
// Two of them set (a GitLab runner inside a Kubernetes Job, a variable
// left from a template) is refused, naming both: which one is this job's
// shard is not gobench's guess. An index outside its count is refused,
// naming the variable and its range.
func shardFromEnv(getenv func(string) string) (shard, from string, err error) {
	var named []string
	for _, src := range shardSources {
		if v := getenv(src.index); v != "" || (src.total != "" && getenv(src.total) != "") {
			named = append(named, fmt.Sprintf("%s=%q (%s)", src.index, v, src.whose))
		}
	}
	switch {
	case len(named) > 1:
		return "", "", fmt.Errorf("--shard auto: the environment names %d shards, %s: unset all but one, or give --shard I/N", len(named), strings.Join(named, " and "))
	case getenv("GOBENCH_SHARD") != "":
		return getenv("GOBENCH_SHARD"), "GOBENCH_SHARD", nil
	case getenv("GOBENCH_SHARD_INDEX") != "":
		return fromZero(getenv, "GOBENCH_SHARD_INDEX", "GitHub's strategy.job-index", "the matrix's strategy.job-total")
	case getenv("CI_NODE_INDEX") != "" || getenv("CI_NODE_TOTAL") != "":
		i, n := getenv("CI_NODE_INDEX"), getenv("CI_NODE_TOTAL")
		idx, err1 := strconv.Atoi(i)
		total, err2 := strconv.Atoi(n)
		if err1 != nil || err2 != nil {
			return "", "", fmt.Errorf("--shard auto: CI_NODE_INDEX %q and CI_NODE_TOTAL %q (GitLab) must both be whole numbers", i, n)
		}
		if total < 1 || idx < 1 || idx > total {
			return "", "", fmt.Errorf("--shard auto: CI_NODE_INDEX %d is out of range: 1 to %d (GitLab's, from 1, of CI_NODE_TOTAL %d)", idx, total, total)
		}
		return fmt.Sprintf("%d/%d", idx, total), "CI_NODE_INDEX/CI_NODE_TOTAL (GitLab parallel, from 1)", nil
	case getenv("JOB_COMPLETION_INDEX") != "":
		return fromZero(getenv, "JOB_COMPLETION_INDEX", "a Kubernetes Indexed Job's index", "the Job's completions")
	}
	return "", "", errors.New("--shard auto: no shard in the environment (GOBENCH_SHARD=I/N; on GitHub, GOBENCH_SHARD_INDEX: ${{ strategy.job-index }} and GOBENCH_SHARD_COUNT: ${{ strategy.job-total }}; GitLab's CI_NODE_INDEX/CI_NODE_TOTAL; or Kubernetes' JOB_COMPLETION_INDEX with GOBENCH_SHARD_COUNT)")
}

// shardSources are the variables that name a shard, one row per way of
// naming it: its index variable, a count variable whose presence alone
// names it too (GitLab's; GOBENCH_SHARD_COUNT serves two and names
// neither), and whose it is.
var shardSources = []struct{ index, total, whose string }{
	{"GOBENCH_SHARD", "", "set by hand, I/N"},
	{"GOBENCH_SHARD_INDEX", "", "GitHub's strategy.job-index"},
	{"CI_NODE_INDEX", "CI_NODE_TOTAL", "GitLab's parallel"},
	{"JOB_COMPLETION_INDEX", "", "a Kubernetes Indexed Job's"},
}

// fromZero returns the shard of the index in variable name, counted from
// 0 (whose the index is), of GOBENCH_SHARD_COUNT (what the count is).
func fromZero(getenv func(string) string, name, whose, count string) (shard, from string, err error) {
	i := getenv(name)
	idx, err := strconv.Atoi(i)
	if err != nil || idx < 0 {
		return "", "", fmt.Errorf("--shard auto: %s %q is not a whole number (%s, from 0)", name, i, whose)
	}
	n := getenv("GOBENCH_SHARD_COUNT")
	total, err := strconv.Atoi(n)
	if err != nil || total < 1 {
		return "", "", fmt.Errorf("--shard auto: %s (%s, from 0) needs GOBENCH_SHARD_COUNT, %s, a count of 1 or more (got %q)", name, whose, count, n)
	}
	if idx >= total {
		return "", "", fmt.Errorf("--shard auto: %s %d is out of range: 0 to %d (%s, from 0, of GOBENCH_SHARD_COUNT %d)", name, idx, total-1, whose, total)
	}
	return fmt.Sprintf("%d/%d", idx+1, total), fmt.Sprintf("%s (%s, from 0) of GOBENCH_SHARD_COUNT", name, whose), nil
}

// What --shard splits (--shard-by).
const (
	shardByCells   = "cells"
	shardByWorkers = "workers"
)
