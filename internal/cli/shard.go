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
//   - GOBENCH_SHARD=I/N, as a GitHub Actions matrix passes it
//     (env: GOBENCH_SHARD: ${{ matrix.shard }}/4), counting from 1;
//   - GitLab's parallel jobs: CI_NODE_INDEX (from 1) of CI_NODE_TOTAL;
//   - Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX (from 0) of
//     GOBENCH_SHARD_COUNT (the Job's completions, which the pod is not
//     told).
func shardFromEnv(getenv func(string) string) (shard, from string, err error) {
	if s := getenv("GOBENCH_SHARD"); s != "" {
		return s, "GOBENCH_SHARD", nil
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
		idx, err := strconv.Atoi(i)
		if err != nil || idx < 0 {
			return "", "", fmt.Errorf("--shard auto: JOB_COMPLETION_INDEX %q (Kubernetes) is not a whole number", i)
		}
		n := getenv("GOBENCH_SHARD_COUNT")
		total, err := strconv.Atoi(n)
		if err != nil {
			return "", "", fmt.Errorf("--shard auto: JOB_COMPLETION_INDEX (a Kubernetes Indexed Job, from 0) needs GOBENCH_SHARD_COUNT, the Job's completions (got %q)", n)
		}
		return fmt.Sprintf("%d/%d", idx+1, total), "JOB_COMPLETION_INDEX (Kubernetes Indexed Job, from 0) of GOBENCH_SHARD_COUNT", nil
	}
	return "", "", errors.New("--shard auto: no shard in the environment (GOBENCH_SHARD=I/N, GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, or Kubernetes' JOB_COMPLETION_INDEX with GOBENCH_SHARD_COUNT)")
}
