/*
 * team_procs.h - the processes of a team on one host, for the tests and
 * benchmarks that start one (tests/nvshmem/test_*_gpu.c, bench/xchg_bench.c):
 * a probe for the GPUs, one forked process a rank, rank 0's ids handed to
 * the others through pipes, and a bounded wait for them all.
 */
#ifndef TEAM_PROCS_H
#define TEAM_PROCS_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gg.h"
#include "gg_team.h"

static inline double team_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* NVLink multicast off for this process and the ranks it forks, whatever
 * the environment says: NVSHMEM's and NCCL's multicast objects can take
 * a shared host's GPUs out of service.  First thing in main. */
static inline void team_multicast_off(void) {
  setenv("NVSHMEM_DISABLE_NVLS", "1", 1);
  setenv("NCCL_NVLS_ENABLE", "0", 1);
}

/* Fork f(arg) as a child; its pid. */
static inline pid_t team_spawn(int (*f)(void *), void *arg) {
  fflush(stdout);
  pid_t p = fork();
  if (p == 0) {
    int rc = f(arg);
    fflush(stdout);
    fflush(stderr);
    _exit(rc); /* no atexit: NVSHMEM's threads may still be inside the library */
  }
  return p;
}

/* Exit codes of children (-1: did not end), waited for at most limit_s
 * seconds, then killed; how many did not end. */
static inline int team_reap(const pid_t *pids, int n, int limit_s, int *codes) {
  double end = team_now_ms() + limit_s * 1e3;
  int left = n;
  for (int i = 0; i < n; i++) codes[i] = -1;
  while (left && team_now_ms() < end) {
    int status;
    pid_t p = waitpid(-1, &status, WNOHANG);
    if (p <= 0) {
      usleep(20000);
      continue;
    }
    for (int i = 0; i < n; i++)
      if (pids[i] == p) {
        codes[i] = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        left--;
      }
  }
  for (int i = 0; i < n; i++)
    if (codes[i] < 0) {
      kill(pids[i], SIGKILL);
      waitpid(pids[i], NULL, 0);
    }
  return left;
}

/* Is there a GPU n - 1?  Asked in a child, so that this process never
 * opens CUDA before it forks the ranks: 0, or 77 (the reason printed),
 * or 1 when the child failed. */
static int team_probe_gpus;
static int team_probe_child(void *arg) {
  (void)arg;
  gg_context *ctx;
  gg_context_options o = {.device = team_probe_gpus - 1};
  if (gg_context_open(&ctx, &o)) {
    printf("skip: no GPU %d for a team of %d: %s\n", team_probe_gpus - 1, team_probe_gpus,
           gg_error_detail());
    return 77;
  }
  gg_context_free(ctx);
  return 0;
}
static inline int team_probe(int n) {
  team_probe_gpus = n;
  pid_t p = team_spawn(team_probe_child, NULL);
  int code;
  team_reap(&p, 1, 60, &code);
  return code == 0 || code == 77 ? code : 1;
}

/* Rank 0's ids (bytes) to every other rank, made before the fork. */
typedef struct team_pipes {
  int n;
  int fd[GG_TEAM_MAX][2];
} team_pipes;

static inline int team_pipes_open(team_pipes *p, int n) {
  p->n = n;
  for (int r = 0; r < n; r++)
    if (pipe(p->fd[r])) return -1;
  return 0;
}

/* Rank 0 writes the bytes to every other rank, which reads them: 0 or -1. */
static inline int team_share(const team_pipes *p, int rank, void *bytes, size_t size) {
  if (rank != 0) return read(p->fd[rank][0], bytes, size) == (ssize_t)size ? 0 : -1;
  for (int r = 1; r < p->n; r++)
    if (write(p->fd[r][1], bytes, size) != (ssize_t)size) return -1;
  return 0;
}

#endif
