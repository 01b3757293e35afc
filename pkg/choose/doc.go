// Package choose answers the store question in one plan (gobench choose):
// given a workload and the promise a service needs of its writes at a
// crash, every engine and setting able to keep that promise is a
// candidate (Candidates); a time budget sizes their runs, repeats and
// power cuts (Size); Build makes the plans, which the one cell runner
// runs; Rank reads their results into one ranked table
// (result.Choice): the candidates that kept the promise by speed, the
// others with what they lost, the winner and its margin.
package choose
