package ab

import "syscall"

// dieWithAB has the kernel send the process SIGTERM when ab dies
// (PR_SET_PDEATHSIG): a run stops as for an interrupt.
func dieWithAB(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }
