/**
 * The run helper: a small C program between pairbench and the measured shell.
 *
 * Node cannot read a child's resource usage (libuv reaps children with waitpid and drops the
 * rusage), so a tiny helper forks the shell, waits for it with wait4(2) and reports wall time
 * (CLOCK_MONOTONIC around fork and wait), user and system CPU time and peak resident memory of
 * the whole tree of waited-for descendants, as hyperfine does from Rust. pairbench starts it once
 * (`--serve`) and sends it run after run, so that no run pays for Node's own spawn (run.ts);
 * `pairbench-run CMD ARGS...` runs one command and reports on fd 3. It is compiled once per
 * machine with the system C compiler and cached; without a compiler pairbench falls back to
 * timing in Node (wall time only), and says so.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

export const HELPER_SOURCE = String.raw`/* pairbench run helper: fork, exec, wait4, report. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double ms_since(struct timespec a, struct timespec b) {
  return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int report_json(char *buf, size_t size, double wall, struct rusage *ru, int status, int timed_out) {
  double user = (double)ru->ru_utime.tv_sec * 1e3 + (double)ru->ru_utime.tv_usec / 1e3;
  double sys = (double)ru->ru_stime.tv_sec * 1e3 + (double)ru->ru_stime.tv_usec / 1e3;
#ifdef __APPLE__
  double rss = (double)ru->ru_maxrss;          /* bytes on macOS */
#else
  double rss = (double)ru->ru_maxrss * 1024.0; /* KiB on Linux */
#endif
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return snprintf(buf, size, "{\"wallMs\":%.6f,\"userMs\":%.3f,\"sysMs\":%.3f,\"maxRssBytes\":%.0f,\"exitCode\":%d,\"signal\":%d,\"timedOut\":%d}",
                  wall, user, sys, rss, code, sig, timed_out);
}

/* ---- one run per process: pairbench-run CMD ARGS... (report on fd 3) ---- */
static int once(char **argv) {
  /* The report pipe must not leak into the measured tree, or a background child would hold it open. */
  fcntl(3, F_SETFD, FD_CLOEXEC);
  /* A process group of its own, so the whole tree can be killed; but no new session: on Linux a new
     session (setsid) also starts a new scheduler autogroup, and each run would then compete for the
     CPU as a group of its own, preempted far more often under load than in the parent's. */
  setpgid(0, 0);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid < 0) { perror("pairbench helper: fork"); return 127; }
  if (pid == 0) { execvp(argv[0], argv); fprintf(stderr, "pairbench: cannot run %s: %s\n", argv[0], strerror(errno)); _exit(127); }
  int status = 0;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0) {
    if (errno != EINTR) { perror("pairbench helper: wait4"); return 127; }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  char line[512];
  report_json(line, sizeof line, ms_since(t0, t1), &ru, status, 0);
  FILE *out = fdopen(3, "w");
  if (out) { fprintf(out, "%s\n", line); fclose(out); }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}

/* ---- serve: one process for many runs (pairbench-run --serve) ----
   Requests on fd 0: a 4-byte little-endian length, then NUL-terminated fields: the number of runs,
   then per run: cwd, timeout in ms (0: none), stop-on-failure (0/1), argc, argv..., envc, env... .
   The runs of a request follow each other with no round trip to pairbench in between (the two
   runs of a pair, each after its --prepare); after a run with stop-on-failure that failed, the
   rest are skipped. Replies on fd 3, frames of a type byte and a 4-byte little-endian length, per
   run in order: 'P' the run's pid (its process group) as soon as it is forked, 'O' and 'E' its
   stdout and stderr as they come, 'R' the figures as JSON once the run and its output are over
   ({"skipped":1} for a skipped run). Serving from one long-lived small process takes Node's spawn
   (a fork of a large process, about 3 ms) out of every run and leaves Node idle while a run is
   measured; running a pair's two runs back to back leaves the machine no idle gap between them,
   in which other work would take the core the second run then has to win back. */
static int sig_pipe[2] = {-1, -1};

static void on_child(int s) {
  int saved = errno;
  (void)s;
  ssize_t w = write(sig_pipe[1], "c", 1);
  (void)w;
  errno = saved;
}

static int write_all(int fd, const void *data, size_t n) {
  const char *p = (const char *)data;
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) { if (errno == EINTR) continue; return -1; }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static int read_all(int fd, void *data, size_t n) {
  char *p = (char *)data;
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, p + got, n - got);
    if (r < 0) { if (errno == EINTR) continue; return -1; }
    if (r == 0) break;
    got += (size_t)r;
  }
  return (int)(got == n ? 1 : 0);
}

static int frame(char type, const void *data, uint32_t len) {
  unsigned char h[5] = {(unsigned char)type, (unsigned char)(len & 255), (unsigned char)((len >> 8) & 255), (unsigned char)((len >> 16) & 255), (unsigned char)(len >> 24)};
  if (write_all(3, h, 5) < 0) return -1;
  return len ? write_all(3, data, len) : 0;
}

static void set_flags(int fd, int cloexec, int nonblock) {
  if (cloexec) fcntl(fd, F_SETFD, FD_CLOEXEC);
  if (nonblock) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* Forwards what is readable on fd as frames of type; closes it at end of file. */
static void forward(int *fd, char type) {
  char chunk[65536];
  for (;;) {
    ssize_t r = read(*fd, chunk, sizeof chunk);
    if (r > 0) { if (frame(type, chunk, (uint32_t)r) < 0) _exit(0); if ((size_t)r < sizeof chunk) return; continue; }
    if (r < 0 && (errno == EINTR)) continue;
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    close(*fd);
    *fd = -1;
    return;
  }
}

/* Runs one request; returns 0 to go on serving, 1 when pairbench is gone. */
static int serve_one(char *cwd, double timeout_ms, char **argv, char **envp, int devnull, int *failed) {
  *failed = 1;
  int out[2], err[2];
  if (pipe(out) || pipe(err)) {
    char msg[256];
    int n = snprintf(msg, sizeof msg, "{\"error\":\"pipe: %s\"}", strerror(errno));
    return frame('R', msg, (uint32_t)n) < 0;
  }
  set_flags(out[0], 1, 1); set_flags(out[1], 1, 0); set_flags(err[0], 1, 1); set_flags(err[1], 1, 0);
  char c;
  while (read(sig_pipe[0], &c, 1) > 0) {}
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGCHLD, SIG_DFL);
    dup2(devnull, 0); dup2(out[1], 1); dup2(err[1], 2);
    if (chdir(cwd) != 0) { fprintf(stderr, "pairbench: cannot enter %s: %s\n", cwd, strerror(errno)); _exit(127); }
    environ = envp;
    execvp(argv[0], argv);
    fprintf(stderr, "pairbench: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  close(out[1]); close(err[1]);
  if (pid < 0) {
    char msg[256];
    int n = snprintf(msg, sizeof msg, "{\"error\":\"fork: %s\"}", strerror(errno));
    close(out[0]); close(err[0]);
    return frame('R', msg, (uint32_t)n) < 0;
  }
  setpgid(pid, pid); /* both sides set it, so it holds before anyone signals the group */
  char pidtext[32];
  int pn = snprintf(pidtext, sizeof pidtext, "%ld", (long)pid);
  if (frame('P', pidtext, (uint32_t)pn) < 0) { kill(-pid, SIGKILL); return 1; }
  int fo = out[0], fe = err[0], reaped = 0, timed_out = 0, gone = 0, status = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  double deadline = timeout_ms > 0 ? now_ms() + timeout_ms : -1, drain_until = -1;
  while (!reaped || fo >= 0 || fe >= 0) {
    if (reaped && drain_until < 0) {
      /* the run is over: what it left in its group dies, and its output is read to the end (2 s at most:
         a process that left the group may hold the pipes) */
      kill(-pid, SIGKILL);
      drain_until = now_ms() + 2000;
    }
    int wait_ms = -1;
    double now = now_ms();
    if (reaped) {
      if (now >= drain_until) break;
      wait_ms = (int)(drain_until - now) + 1;
    } else if (deadline >= 0 && !timed_out) {
      if (now >= deadline) { timed_out = 1; kill(-pid, SIGKILL); continue; }
      wait_ms = (int)(deadline - now) + 1;
    }
    struct pollfd p[4];
    int n = 0, io = -1, ie = -1, is = -1, ii = -1;
    if (fo >= 0) { io = n; p[n].fd = fo; p[n].events = POLLIN; p[n++].revents = 0; }
    if (fe >= 0) { ie = n; p[n].fd = fe; p[n].events = POLLIN; p[n++].revents = 0; }
    if (!reaped) { is = n; p[n].fd = sig_pipe[0]; p[n].events = POLLIN; p[n++].revents = 0; }
    if (!gone) { ii = n; p[n].fd = 0; p[n].events = POLLIN; p[n++].revents = 0; }
    int r = poll(p, (nfds_t)n, wait_ms);
    if (r < 0 && errno != EINTR) break;
    if (!reaped) {
      pid_t w = wait4(pid, &status, WNOHANG, &ru);
      if (w == pid) { clock_gettime(CLOCK_MONOTONIC, &t1); reaped = 1; }
    }
    if (r <= 0) continue;
    if (is >= 0 && p[is].revents) { while (read(sig_pipe[0], &c, 1) > 0) {} }
    if (io >= 0 && p[io].revents) forward(&fo, 'O');
    if (ie >= 0 && p[ie].revents) forward(&fe, 'E');
    if (ii >= 0 && p[ii].revents) {
      /* pairbench never writes during a run: input now means it is gone (end of file) or confused */
      gone = 1;
      kill(-pid, SIGKILL);
    }
  }
  if (fo >= 0) close(fo);
  if (fe >= 0) close(fe);
  if (!reaped) { while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {} clock_gettime(CLOCK_MONOTONIC, &t1); kill(-pid, SIGKILL); }
  if (gone) return 1;
  *failed = timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
  char line[512];
  int len = report_json(line, sizeof line, ms_since(t0, t1), &ru, status, timed_out);
  return frame('R', line, (uint32_t)len) < 0;
}

static int serve(void) {
  signal(SIGPIPE, SIG_IGN);
  /* its own process group: a terminal's Ctrl-C reaches pairbench, which cancels the run itself */
  setpgid(0, 0);
  set_flags(0, 1, 0);
  set_flags(3, 1, 0);
  if (pipe(sig_pipe)) return 127;
  set_flags(sig_pipe[0], 1, 1);
  set_flags(sig_pipe[1], 1, 1);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_child;
  sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  sigaction(SIGCHLD, &sa, NULL);
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull < 0) return 127;
  set_flags(devnull, 1, 0);
  for (;;) {
    unsigned char h[4];
    if (read_all(0, h, 4) != 1) return 0; /* end of input: pairbench is done */
    uint32_t len = (uint32_t)h[0] | ((uint32_t)h[1] << 8) | ((uint32_t)h[2] << 16) | ((uint32_t)h[3] << 24);
    if (len == 0 || len > (64u << 20)) return 127;
    char *buf = malloc((size_t)len + 1);
    if (!buf || read_all(0, buf, len) != 1) return 127;
    buf[len] = 0;
    size_t nf = 0;
    for (uint32_t i = 0; i < len; i++) if (buf[i] == 0) nf++;
    char **fields = calloc(nf + 2, sizeof(char *));
    if (!fields) return 127;
    size_t k = 0;
    for (uint32_t i = 0; i < len && k < nf; k++) { fields[k] = buf + i; i += (uint32_t)strlen(buf + i) + 1; }
    if (nf < 1) return 127;
    size_t nruns = (size_t)strtoul(fields[0], NULL, 10), at = 1;
    int stop = 0, skip = 0;
    for (size_t r = 0; r < nruns && !stop; r++) {
      if (at + 4 > nf) return 127;
      char *cwd = fields[at];
      double timeout_ms = atof(fields[at + 1]);
      int stop_on_failure = atoi(fields[at + 2]);
      size_t argc = (size_t)strtoul(fields[at + 3], NULL, 10);
      if (argc == 0 || at + 4 + argc >= nf) return 127;
      size_t envc = (size_t)strtoul(fields[at + 4 + argc], NULL, 10);
      if (at + 5 + argc + envc > nf) return 127;
      char **argv = calloc(argc + 1, sizeof(char *));
      char **envp = calloc(envc + 1, sizeof(char *));
      if (!argv || !envp) return 127;
      for (size_t i = 0; i < argc; i++) argv[i] = fields[at + 4 + i];
      for (size_t i = 0; i < envc; i++) envp[i] = fields[at + 5 + argc + i];
      at += 5 + argc + envc;
      if (skip) {
        stop = frame('R', "{\"skipped\":1}", 13) < 0;
      } else {
        int failed = 0;
        stop = serve_one(cwd, timeout_ms, argv, envp, devnull, &failed);
        if (failed && stop_on_failure) skip = 1;
      }
      free(argv); free(envp);
    }
    free(fields); free(buf);
    if (stop) return 0;
  }
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--serve") == 0) return serve();
  if (argc < 2) return 127;
  return once(argv + 1);
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
