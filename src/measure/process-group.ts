/**
 * Killing a run's process group. Every run leads a group of its own (the run helper's setpgid, or
 * Node's detached spawn), so a timeout, a cancel or the end of the run kills the whole group, never
 * just the shell.
 */

/**
 * Kills the run's process group. `running` says the run's own process has not exited yet: then, if
 * the group does not exist (the instant before the helper's setpgid), the process itself is killed.
 * After the exit its pid may already belong to someone else, so only the group is killed.
 */
export function killGroup(pid: number | undefined, running: boolean): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    if (!running) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Whether a process id is in use. EPERM: it is, by another user. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
