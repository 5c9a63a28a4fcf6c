/*
 * test_peer_death_gpu - a process of a team dies in the middle of its
 * frames, and the other one is not stuck: tests/nvshmem/allreduce.lua's
 * fsum frame on 2 processes, one per GPU.
 *
 *   test_peer_death_gpu        (needs 2 GPUs and NVSHMEM; skips, 77, otherwise)
 *
 * Both ranks run FRAMES frames, each checked (the sum of both ranks'
 * e = 3 x, as test_exchange_gpu checks it).  Then rank 1 kills itself
 * (SIGKILL: no exit handler, its GPU context torn down by the driver), and
 * rank 0 starts one more frame, whose allreduce waits for rank 1's words
 * that never come.  Rank 0 must see:
 *   - gg_session_wait end in GG_ERR_TIMEOUT after its WAIT_MS, not hang,
 *     naming rank 1 as the one its exchange waits for;
 *   - gg_session_terminate end the persistent kernel (GG_OK: the exchange's
 *     wait looks at the host's abort line), then the session's free, the
 *     team's free (its collective calls bounded by the team's timeout)
 *     return, each within LIMIT_MS;
 *   - its GPU still run a kernel of the module afterwards, right.
 * The parent checks rank 1 died of SIGKILL and rank 0 passed.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allreduce.h"
#include "gg.h"
#include "gg_session.h"
#include "gg_team.h"
#include "team_procs.h"

#define RANKS 2
#define FRAMES 200
#define N 1003          /* fsum's e and the run-time n */
#define WAIT_MS 2000    /* rank 0's wait for the frame its peer never joins */
#define TEAM_MS 10000   /* the team's bound on each collective call: the start-up's and
                           the first allocation's too, after module loads of ~10 s */
#define LIMIT_MS 15000  /* what terminate, and each free, may take at most */

static int rank;

#define FAIL(...)                                   \
  do {                                              \
    fprintf(stderr, "rank %d: ", rank);             \
    fprintf(stderr, __VA_ARGS__);                   \
    fprintf(stderr, " (%s)\n", gg_error_detail()); \
    return 1;                                       \
  } while (0)

/* x of rank r in frame f: small integers, so every sum is exact */
static float x_of(int r, int f, long i) { return (float)((i * 7 + f * 3 + r * 11) % 101 - 50); }

static int frame(gg_session *s, int cmd, gg_array *const a[3], int f, int64_t wait_ns,
                 gg_status *st) {
  float *x = gg_array_host(a[0]), *e = gg_array_host(a[1]);
  for (long i = 0; i < N; i++) x[i] = x_of(rank, f, i);
  const gg_arg args[4] = {gg_arg_array(a[0]), gg_arg_array(a[1]), gg_arg_array(a[2]),
                          gg_arg_i64(N)};
  *st = gg_session_start(s, cmd, args, 4, NULL);
  if (!*st) *st = gg_session_wait(s, wait_ns);
  if (*st) return 0;
  for (long i = 0; i < N; i++) {
    const float want = x_of(0, f, i) * 3.0f + x_of(1, f, i) * 3.0f;
    if (e[i] != want) {
      fprintf(stderr, "rank %d: frame %d: e[%ld] = %g, want %g\n", rank, f, i, e[i], want);
      return 1;
    }
  }
  return 0;
}

/* Rank 0 after its peer died: everything ends, in bounded time. */
static int survive(gg_context *ctx, gg_module *mod, gg_session *s, int cmd, gg_array *const a[3],
                   gg_team *team) {
  gg_status st;
  double t = team_now_ms();
  frame(s, cmd, a, FRAMES, (int64_t)WAIT_MS * 1000000, &st);
  const double waited = team_now_ms() - t;
  if (st != GG_ERR_TIMEOUT ||
      !strstr(gg_error_detail(), "its exchanges wait for the frame of rank 1 of the team (NVSHMEM "
                                 "PE), which died, hangs or has not posted it"))
    FAIL("the frame after the peer died: %s, want a timeout that names rank 1", gg_strerror(st));
  printf("rank 0: the frame after the peer died: %s after %.0f ms: %s\n", gg_strerror(st), waited,
         gg_error_detail());
  if (waited > WAIT_MS + 1000) FAIL("the wait took %.0f ms, asked for %d", waited, WAIT_MS);
  t = team_now_ms();
  st = gg_session_terminate(s);
  printf("rank 0: terminate: %s in %.0f ms\n", gg_strerror(st), team_now_ms() - t);
  if (st != GG_OK) FAIL("terminate: %s, want the kernel ended", gg_strerror(st));
  if (team_now_ms() - t > LIMIT_MS) FAIL("terminate took %.0f ms", team_now_ms() - t);
  t = team_now_ms();
  gg_session_free(s); /* frees the symmetric workspace: collective, bounded */
  printf("rank 0: session freed in %.0f ms\n", team_now_ms() - t);
  if (team_now_ms() - t > LIMIT_MS) FAIL("the session's free took %.0f ms", team_now_ms() - t);
  t = team_now_ms();
  gg_team_free(team);
  printf("rank 0: team freed in %.0f ms\n", team_now_ms() - t);
  if (team_now_ms() - t > LIMIT_MS) FAIL("the team's free took %.0f ms", team_now_ms() - t);
  /* the GPU is clean: a kernel of the module runs, right */
  gg_kernel *fill;
  gg_stream *stream;
  if (gg_kernel_get(mod, "fill", &fill) || gg_stream_open(ctx, &stream)) FAIL("kernel fill");
  float *x = gg_array_host(a[0]), *e = gg_array_host(a[1]);
  for (long i = 0; i < N; i++) x[i] = (float)i;
  const gg_arg args[3] = {gg_arg_array(a[0]), gg_arg_array(a[1]), gg_arg_i64(N)};
  if (gg_launch(fill, stream, args, 3) || gg_stream_sync(stream)) FAIL("a kernel after the team");
  for (long i = 0; i < N; i++)
    if (e[i] != (float)i * 3.0f) FAIL("after the team: e[%ld] = %g, want %g", i, e[i], i * 3.0);
  printf("rank 0: its GPU ran a kernel afterwards, right\n");
  gg_stream_free(stream);
  return 0;
}

static team_pipes pipes;

static int run_rank(void) {
  gg_context *ctx;
  gg_context_options o = {.device = rank};
  if (gg_context_open(&ctx, &o)) FAIL("context on GPU %d", rank);
  gg_team_uid uid;
  if (rank == 0 && gg_team_uid_new(&uid)) FAIL("gg_team_uid_new");
  if (team_share(&pipes, rank, &uid, sizeof uid)) FAIL("the id through the pipes");
  gg_team *team;
  if (gg_team_open(ctx, rank, RANKS, &uid, TEAM_MS, &team)) FAIL("gg_team_open");
  gg_module *mod;
  if (gg_module_load(ctx, &gg_module_allreduce, &mod)) FAIL("module load");
  gg_array *a[3];
  if (gg_array_alloc(ctx, GG_SPACE_MAPPED, N * 4, &a[0]) ||
      gg_array_alloc(ctx, GG_SPACE_MAPPED, N * 4, &a[1]) ||
      gg_array_alloc(ctx, GG_SPACE_MAPPED, N * 4, &a[2]))
    FAIL("arrays");
  gg_session *s;
  gg_session_options so = {.team = team};
  int cmd;
  if (gg_session_open(mod, "p", &so, &s) || gg_session_command(s, "fsum", &cmd))
    FAIL("session of p on the team");
  for (int f = 0; f < FRAMES; f++) {
    gg_status st;
    if (frame(s, cmd, a, f, 20000000000LL, &st)) return 1;
    if (st) FAIL("frame %d: %s", f, gg_strerror(st));
  }
  printf("rank %d: %d frames on %d GPUs, every element right\n", rank, FRAMES, RANKS);
  if (rank == 1) {
    fflush(stdout);
    raise(SIGKILL); /* dies with its persistent kernel running */
  }
  return survive(ctx, mod, s, cmd, a, team);
}

static int rank_main(void *arg) {
  rank = (int)(intptr_t)arg;
  return run_rank();
}

int main(void) {
  team_multicast_off();
  char why[1600];
  if (!gg_nvshmem_available(why, sizeof why)) {
    printf("skip: %s\n", why);
    return 77;
  }
  int code = team_probe(RANKS);
  if (code) return code;
  pid_t pids[RANKS];
  int codes[RANKS];
  if (team_pipes_open(&pipes, RANKS)) return 1;
  for (int r = 0; r < RANKS; r++) pids[r] = team_spawn(rank_main, (void *)(intptr_t)r);
  team_reap(pids, RANKS, 300, codes);
  if (codes[1] != 128 + SIGKILL) {
    fprintf(stderr, "rank 1 ended with %d, not killed (%d)\n", codes[1], 128 + SIGKILL);
    return 1;
  }
  if (codes[0]) {
    fprintf(stderr, "rank 0 ended with %d%s\n", codes[0], codes[0] < 0 ? " (hung: killed)" : "");
    return 1;
  }
  printf("test_peer_death_gpu: ok (rank 1 killed after %d frames; rank 0 timed out and ended "
         "cleanly)\n", FRAMES);
  return 0;
}
