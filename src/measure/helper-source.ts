/**
 * The run helper's C source: a small program between pairbench and the measured shell, compiled
 * at run time with the system C compiler (helper.ts) and started once per comparison
 * (`pairbench-run --serve`).
 *
 * Node cannot read a child's resource usage (libuv reaps children with waitpid and drops the
 * rusage), so the helper forks the shell, waits for it with wait4(2) and reports wall time
 * (CLOCK_MONOTONIC around fork and wait), user and system CPU time and peak resident memory of
 * the whole tree of waited-for descendants, as hyperfine does from Rust. On Linux it is also a
 * child subreaper, so that what a run leaves behind, even out of its process group, is found and
 * killed (S10). The wire format is in helper-protocol.ts.
 */
export const HELPER_SOURCE = String.raw`/* pairbench run helper: fork, exec, wait4, report; kill what a run leaves behind. */
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
#ifdef __linux__
#include <dirent.h>
#include <sys/prctl.h>
#endif

#ifndef PAIRBENCH_HELPER_ID
#define PAIRBENCH_HELPER_ID "unknown"
#endif

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

#ifdef __linux__
/* The helper's children, from /proc/self/task/<pid>/children, or by reading the parent of every process
   where the kernel lacks that file. Returns how many were found (at most max). */
static int list_children(pid_t *out, int max) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/task/%ld/children", (long)getpid());
  int n = 0, fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    char buf[16384];
    ssize_t len = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (len < 0) len = 0;
    buf[len] = 0;
    for (char *p = buf; *p && n < max;) {
      char *end;
      long pid = strtol(p, &end, 10);
      if (end == p) break;
      if (pid > 0) out[n++] = (pid_t)pid;
      p = end;
    }
    return n;
  }
  DIR *d = opendir("/proc");
  if (!d) return 0;
  struct dirent *e;
  long self = (long)getpid();
  while ((e = readdir(d)) != NULL && n < max) {
    char *end;
    long pid = strtol(e->d_name, &end, 10);
    if (*end || pid <= 0) continue;
    char stat_path[64], buf[512];
    snprintf(stat_path, sizeof stat_path, "/proc/%ld/stat", pid);
    int sfd = open(stat_path, O_RDONLY | O_CLOEXEC);
    if (sfd < 0) continue;
    ssize_t len = read(sfd, buf, sizeof buf - 1);
    close(sfd);
    if (len <= 0) continue;
    buf[len] = 0;
    char *paren = strrchr(buf, ')'); /* the name may hold spaces and parentheses: the fields follow the last one */
    long ppid = 0;
    char state;
    if (paren && sscanf(paren + 1, " %c %ld", &state, &ppid) == 2 && ppid == self) out[n++] = (pid_t)pid;
  }
  closedir(d);
  return n;
}
#endif

/* Kills every process a finished run left behind, whatever its group or session. On Linux the helper is a
   child subreaper (PR_SET_CHILD_SUBREAPER): every orphan of a run (a daemon that left with setsid, the end of a
   double fork) becomes the helper's child, so once the run's shell is reaped, the helper's children and their
   descendants are exactly what the run left. Each is killed; the children of a killed one come to the helper
   in turn, until none is left (5 s at most: a process stuck in the kernel is given up on). Elsewhere the run's
   process group is all that is killed. */
static void kill_leftovers(pid_t group) {
  kill(-group, SIGKILL);
  double until = now_ms() + 5000;
  for (;;) {
    int st;
    pid_t w;
    while ((w = waitpid(-1, &st, WNOHANG)) > 0) {}
    if (w < 0 && errno != EINTR) return; /* ECHILD: nothing left */
#ifdef __linux__
    pid_t kids[1024];
    int n = list_children(kids, 1024);
    for (int i = 0; i < n; i++) kill(kids[i], SIGKILL);
#else
    return;
#endif
    if (now_ms() > until) return;
    struct timespec pause = {0, 200000};
    nanosleep(&pause, NULL);
  }
}

/* Runs one request; returns 0 to go on serving, 1 when pairbench is gone. */
static int serve_one(char *cwd, double timeout_ms, char **argv, char **envp, int devnull, int *failed) {
  *failed = 1;
  int out[2], err[2];
  int go[2];
  if (pipe(out) || pipe(err) || pipe(go)) {
    char msg[256];
    int n = snprintf(msg, sizeof msg, "{\"error\":\"pipe: %s\"}", strerror(errno));
    return frame('R', msg, (uint32_t)n) < 0;
  }
  set_flags(out[0], 1, 1); set_flags(out[1], 1, 0); set_flags(err[0], 1, 1); set_flags(err[1], 1, 0);
  set_flags(go[0], 1, 0); set_flags(go[1], 1, 0);
  char c;
  while (read(sig_pipe[0], &c, 1) > 0) {}
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid == 0) {
    /* Nothing of the run starts before pairbench knows its pid (the 'P' frame): a run that kills the
       helper at once must still leave pairbench its process group to kill. */
    close(go[1]);
    char g = 0;
    while (read(go[0], &g, 1) < 0 && errno == EINTR) {}
    if (g != 'g') _exit(127);
    close(go[0]);
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
  close(out[1]); close(err[1]); close(go[0]);
  if (pid < 0) {
    char msg[256];
    int n = snprintf(msg, sizeof msg, "{\"error\":\"fork: %s\"}", strerror(errno));
    close(out[0]); close(err[0]); close(go[1]);
    return frame('R', msg, (uint32_t)n) < 0;
  }
  setpgid(pid, pid); /* both sides set it, so it holds before anyone signals the group */
  char pidtext[32];
  int pn = snprintf(pidtext, sizeof pidtext, "%ld", (long)pid);
  if (frame('P', pidtext, (uint32_t)pn) < 0) { close(go[1]); kill(pid, SIGKILL); return 1; }
  ssize_t gw;
  while ((gw = write(go[1], "g", 1)) < 0 && errno == EINTR) {}
  (void)gw;
  close(go[1]);
  int fo = out[0], fe = err[0], reaped = 0, timed_out = 0, gone = 0, status = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  double deadline = timeout_ms > 0 ? now_ms() + timeout_ms : -1, drain_until = -1;
  while (!reaped || fo >= 0 || fe >= 0) {
    if (reaped && drain_until < 0) {
      /* the run is over: what it left behind dies, and its output is read to the end (2 s at most: where
         the helper cannot be a subreaper, a process that left the group may hold the pipes) */
      kill_leftovers(pid);
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
  if (!reaped) { while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {} clock_gettime(CLOCK_MONOTONIC, &t1); }
  kill_leftovers(pid);
  if (gone) return 1;
  *failed = timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
  char line[512];
  int len = report_json(line, sizeof line, ms_since(t0, t1), &ru, status, timed_out);
  return frame('R', line, (uint32_t)len) < 0;
}

static int serve(void) {
  signal(SIGPIPE, SIG_IGN);
#ifdef __linux__
  /* orphans of a run come to the helper, not to init: kill_leftovers finds them */
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
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
  /* pairbench checks that a helper starts and is the build of this source before it uses it */
  if (argc == 2 && strcmp(argv[1], "--id") == 0) { printf("pairbench-run %s\n", PAIRBENCH_HELPER_ID); return 0; }
  fprintf(stderr, "usage: pairbench-run --serve | --id (started by pairbench)\n");
  return 127;
}
`;
