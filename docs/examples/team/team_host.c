/*
 * team_host.c - a frame on two GPUs (docs/multi-gpu.md): one process per
 * GPU, as NVSHMEM wants.  This program forks them itself; an application
 * may start them any way it likes (a launcher, a service manager, MPI).
 *
 *   1. each rank opens a context on its own GPU;
 *   2. rank 0 makes NVSHMEM's unique id (gg_team_uid_new) and hands its
 *      128 bytes to rank 1 (here through a pipe, made before the fork);
 *      each joins the team (gg_team_open, bounded by a timeout);
 *   3. each loads the module and opens its persistent kernel's session on
 *      the team (gg_session_options.team), then posts its own GPU's
 *      frames, the same frames in the same order as the other rank;
 *   4. each terminates its session, frees it (collective: its symmetric
 *      workspace) and leaves the team.
 *
 * team_example.lua's frame "total": e = x + x on each GPU, then e summed over
 * both GPUs.  Rank r's x(i) = r + i / 8, so after every frame both GPUs'
 * e(i) = 2 (0 + i / 8) + 2 (1 + i / 8), checked against the CPU.
 *
 * Start it from a process that has not touched CUDA (the ranks open it
 * after the fork).  Exit: 0, 1 on an error or a wrong result, 77 without
 * NVSHMEM (scripts/deps.sh installs it) or without two GPUs.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gg.h"
#include "gg_session.h"
#include "gg_team.h"
#include "team_example.h" /* gpugen emit team_example.lua */

#define N 1000
#define FRAMES 1000

static int fail(int rank, const char *what)
{
  fprintf(stderr, "rank %d: %s: %s\n", rank, what, gg_error_detail());
  return 1;
}

/* The frames of one rank on its GPU: 0, 1 on an error, 77 without its GPU. */
static int run_rank(int rank, int pipe_fd[2])
{
  gg_context *ctx;
  gg_context_options co = {.device = rank};
  if (gg_context_open(&ctx, &co)) {
    printf("rank %d: no GPU %d: %s\n", rank, rank, gg_error_detail());
    return 77;
  }
  gg_team_uid uid;
  close(pipe_fd[rank == 0 ? 0 : 1]); /* rank 1 reads EOF if rank 0 ends without writing */
  signal(SIGPIPE, SIG_IGN);          /* rank 0's write fails, not kills, if rank 1 has ended */
  if (rank == 0) { /* the bootstrap's root: the process that makes the id joins too */
    if (gg_team_uid_new(&uid))
      return fail(rank, "unique id");
    if (write(pipe_fd[1], &uid, sizeof uid) != (ssize_t)sizeof uid)
      return fail(rank, "handing the id on");
  } else if (read(pipe_fd[0], &uid, sizeof uid) != (ssize_t)sizeof uid) {
    return fail(rank, "reading the id");
  }

  gg_team *team;
  if (gg_team_open(ctx, rank, 2, &uid, 20000 /* ms */, &team))
    return fail(rank, "joining the team");

  int bad = 0;
  gg_module *mod = NULL;
  gg_array *x = NULL, *e = NULL;
  gg_session *s = NULL;
  float hx[N], he[N];
  for (int i = 0; i < N; i++)
    hx[i] = (float)rank + (float)i / 8; /* exact in binary */
  gg_session_options so = {.team = team};
  int cmd;
  if (gg_module_load(ctx, &gg_module_team_example, &mod) ||
      gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof hx, &x) ||
      gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof he, &e) ||
      gg_copy_from_host(x, 0, hx, sizeof hx, NULL) ||
      gg_session_open(mod, "team", &so, &s) || gg_session_command(s, "total", &cmd))
    bad = fail(rank, "setting up");
  gg_arg args[2] = {gg_arg_array(x), gg_arg_array(e)};
  for (int f = 0; f < FRAMES && !bad; f++)
    if (gg_session_start(s, cmd, args, 2, NULL) || gg_session_wait(s, 2000000000 /* ns */))
      bad = fail(rank, "a frame");
  if (s) { /* every rank ends its session, whatever failed: the free is collective */
    gg_session_terminate(s);
    gg_session_free(s);
  }
  if (!bad && gg_copy_to_host(he, e, 0, sizeof he, NULL))
    bad = fail(rank, "reading e");
  for (int i = 0; i < N && !bad; i++) {
    const float want = 2 * ((float)i / 8) + 2 * (1 + (float)i / 8);
    if (he[i] != want) {
      fprintf(stderr, "rank %d: e(%d) = %g, the CPU gives %g\n", rank, i, he[i], want);
      bad = 1;
    }
  }
  if (!bad)
    printf("rank %d: %d frames on 2 GPUs, e = the sum over both, every element right\n", rank,
           FRAMES);
  gg_array_free(e);
  gg_array_free(x);
  gg_module_free(mod);
  gg_team_free(team);
  gg_context_free(ctx);
  return bad;
}

int main(void)
{
  char why[1600];
  if (!gg_nvshmem_available(why, sizeof why)) {
    printf("skip: %s\n", why);
    return 77;
  }
  /* one host: NVSHMEM's bootstrap on the loopback; NVLink multicast off,
     NVSHMEM's and NCCL's (gg_team_open sets NVSHMEM_DISABLE_NVLS=1 too,
     unless it is set): it can take a shared host's GPUs out of service */
  setenv("NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME", "lo", 0);
  setenv("NVSHMEM_DISABLE_NVLS", "1", 1);
  setenv("NCCL_NVLS_ENABLE", "0", 1); /* no NCCL here; any library the ranks load keeps it off */
  int pipe_fd[2];
  if (pipe(pipe_fd))
    return 1;
  pid_t pid[2];
  for (int r = 0; r < 2; r++) {
    fflush(stdout);
    if ((pid[r] = fork()) == 0) {
      const int code = run_rank(r, pipe_fd);
      fflush(stdout); /* _exit: no atexit handlers in the child (NVSHMEM's threads) */
      _exit(code);
    }
  }
  close(pipe_fd[0]);
  close(pipe_fd[1]);
  int worst = 0, skipped = 0;
  for (int r = 0; r < 2; r++) {
    int status, code;
    if (waitpid(pid[r], &status, 0) < 0)
      return 1;
    code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    skipped |= code == 77;
    if (code && code != 77)
      worst = code;
  }
  if (skipped)
    return 77;
  return worst ? 1 : 0;
}
