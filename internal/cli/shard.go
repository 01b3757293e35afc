package cli

import (
	"errors"
	"fmt"
	"strconv"
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
func shardFromEnv(getenv func(string) string) (shard, from string, err error) {
	if s := getenv("GOBENCH_SHARD"); s != "" {
		return s, "GOBENCH_SHARD", nil
	}
	if i := getenv("GOBENCH_SHARD_INDEX"); i != "" {
		return fromZero(getenv, "GOBENCH_SHARD_INDEX", i, "GitHub's strategy.job-index", "the matrix's strategy.job-total")
	}
	if i, n := getenv("CI_NODE_INDEX"), getenv("CI_NODE_TOTAL"); i != "" || n != "" {
		idx, err1 := strconv.Atoi(i)
		total, err2 := strconv.Atoi(n)
		if err1 != nil || err2 != nil {
			return "", "", fmt.Errorf("--shard auto: CI_NODE_INDEX %q and CI_NODE_TOTAL %q (GitLab) must both be whole numbers", i, n)
		}
		return fmt.Sprintf("%d/%d", idx, total), "CI_NODE_INDEX/CI_NODE_TOTAL (GitLab parallel, from 1)", nil
	}
	if i := getenv("JOB_COMPLETION_INDEX"); i != "" {
		return fromZero(getenv, "JOB_COMPLETION_INDEX", i, "a Kubernetes Indexed Job's index", "the Job's completions")
	}
	return "", "", errors.New("--shard auto: no shard in the environment (GOBENCH_SHARD=I/N; on GitHub, GOBENCH_SHARD_INDEX: ${{ strategy.job-index }} and GOBENCH_SHARD_COUNT: ${{ strategy.job-total }}; GitLab's CI_NODE_INDEX/CI_NODE_TOTAL; or Kubernetes' JOB_COMPLETION_INDEX with GOBENCH_SHARD_COUNT)")
}

// fromZero returns the shard of index i, counted from 0 in variable name
// (whose the index is), of GOBENCH_SHARD_COUNT (what the count is).
func fromZero(getenv func(string) string, name, i, whose, count string) (shard, from string, err error) {
	idx, err := strconv.Atoi(i)
	if err != nil || idx < 0 {
		return "", "", fmt.Errorf("--shard auto: %s %q is not a whole number (%s, from 0)", name, i, whose)
	}
	n := getenv("GOBENCH_SHARD_COUNT")
	total, err := strconv.Atoi(n)
	if err != nil {
		return "", "", fmt.Errorf("--shard auto: %s (%s, from 0) needs GOBENCH_SHARD_COUNT, %s (got %q)", name, whose, count, n)
	}
	return fmt.Sprintf("%d/%d", idx+1, total), fmt.Sprintf("%s (%s, from 0) of GOBENCH_SHARD_COUNT", name, whose), nil
}

// What --shard splits (--shard-by).
const (
	shardByCells   = "cells"
	shardByWorkers = "workers"
)
