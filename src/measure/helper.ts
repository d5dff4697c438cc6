/**
 * The run helper: a 40-line C program between pairbench and the measured shell.
 *
 * Node cannot read a child's resource usage (libuv reaps children with waitpid and drops the
 * rusage), so a tiny helper forks the shell, waits for it with wait4(2) and reports wall time
 * (CLOCK_MONOTONIC around fork and wait), user and system CPU time and peak resident memory of
 * the whole tree of waited-for descendants, as hyperfine does from Rust. It is compiled once per
 * machine with the system C compiler and cached; without a compiler pairbench falls back to
 * timing in Node (wall time only), and says so.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

export const HELPER_SOURCE = String.raw`/* pairbench run helper: fork, exec, wait4, report on fd 3. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/types.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) return 127;
  /* The report pipe must not leak into the measured tree, or a background child would hold it open. */
  fcntl(3, F_SETFD, FD_CLOEXEC);
  /* A process group of its own, so pairbench can kill the whole tree; but no new session: on Linux
     a new session (setsid) also starts a new scheduler autogroup, and each run would then compete
     for the CPU as a group of its own, preempted far more often under load than in the parent's. */
  setpgid(0, 0);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid < 0) { perror("pairbench helper: fork"); return 127; }
  if (pid == 0) { execvp(argv[1], argv + 1); perror("pairbench helper: exec"); _exit(127); }
  int status = 0;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0) {
    if (errno != EINTR) { perror("pairbench helper: wait4"); return 127; }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double wall = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
  double user = (double)ru.ru_utime.tv_sec * 1e3 + (double)ru.ru_utime.tv_usec / 1e3;
  double sys = (double)ru.ru_stime.tv_sec * 1e3 + (double)ru.ru_stime.tv_usec / 1e3;
#ifdef __APPLE__
  double rss = (double)ru.ru_maxrss;          /* bytes on macOS */
#else
  double rss = (double)ru.ru_maxrss * 1024.0; /* KiB on Linux */
#endif
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  FILE *out = fdopen(3, "w");
  if (out) {
    fprintf(out, "{\"wallMs\":%.6f,\"userMs\":%.3f,\"sysMs\":%.3f,\"maxRssBytes\":%.0f,\"exitCode\":%d,\"signal\":%d}\n", wall, user, sys, rss, code, sig);
    fclose(out);
  }
  if (sig) return 128 + sig;
  return code < 0 ? 127 : code;
}
`;

let cached: Promise<string | null> | null = null;

/** Path of the compiled helper, or null when no C compiler is available. Compiled once per process and cached on disk. */
export function runHelper(): Promise<string | null> {
  cached ??= compile();
  return cached;
}

async function compile(): Promise<string | null> {
  if (process.env.PAIRBENCH_NO_HELPER === '1') return null;
  const hash = createHash('sha256').update(HELPER_SOURCE).digest('hex').slice(0, 12);
  const dir = join(process.env.PAIRBENCH_CACHE_DIR ?? join(tmpdir(), 'pairbench-cache'), `helper-${hash}`);
  const exe = join(dir, 'pairbench-run');
  if (existsSync(exe)) return exe;
  mkdirSync(dir, { recursive: true });
  const src = join(dir, `run-${process.pid}.c`);
  writeFileSync(src, HELPER_SOURCE);
  const tmpExe = `${exe}.${process.pid}.tmp`;
  for (const cc of [process.env.CC, 'cc', 'gcc', 'clang']) {
    if (!cc) continue;
    const res = await execa(cc, ['-O2', '-o', tmpExe, src], { reject: false, stdin: 'ignore' });
    if (res.exitCode === 0) {
      renameSync(tmpExe, exe);
      return exe;
    }
  }
  return null;
}
