/*
 * test_team_gpu - a team of N processes, one a GPU (include/gg_team.h):
 * rank 0 makes the unique id and hands it to the others through pipes,
 * every rank opens the team, allocates symmetric arrays and loads a
 * module whose kernel calls NVSHMEM (NVRTC -rdc, nvJitLink with
 * libnvshmem_device.a, nvshmemx_cumodule_init).  Each round every rank
 * puts its block of floats into the next rank's array with a signal,
 * waits for its own signal, and all meet at a barrier; the host checks
 * every element it received against the values the previous rank sent.
 * Sizes 1000 and 65537 (not powers of two), 20 rounds each.
 *
 * Then, in a process of its own, the bounds: a team larger than the
 * host's GPUs and a rank outside the team are refused at once, and a team
 * of two whose second rank never comes ends in GG_ERR_TIMEOUT within its
 * timeout (not a hang), after which the process may not start NVSHMEM
 * again (GG_ERR_STATE).
 *
 * usage: test_team_gpu [N]   (N ranks, default 2; needs N GPUs, else 77)
 * Skips (77) without NVSHMEM, without a GPU, or with fewer than N.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "gg_team.h"
#include "team_procs.h"

static const char src[] =
    "#include <nvshmem.h>\n"
    "#include <nvshmemx.h>\n"
    "struct ring_args { unsigned long long dst, src, sig, n, round; };\n"
    "extern \"C\" __global__ void gg_ring(ring_args a) {\n"
    "  float *dst = (float *)a.dst + (a.round & 1ull) * a.n; /* two buffers by round */\n"
    "  const float *src = (const float *)a.src;\n"
    "  unsigned long long *sig = (unsigned long long *)a.sig;\n"
    "  int me = nvshmem_my_pe(), npes = nvshmem_n_pes();\n"
    "  nvshmemx_float_put_signal_nbi_block(dst, src, a.n, sig, a.round, NVSHMEM_SIGNAL_SET,\n"
    "                                      (me + 1) % npes);\n"
    "  if (threadIdx.x == 0) nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, a.round);\n"
    "  __syncthreads();\n"
    "  /* nobody puts round k + 2 into a buffer before its owner read round k */\n"
    "  if (threadIdx.x == 0) nvshmem_barrier_all();\n"
    "}\n";

static const char *const opts[] = {"-std=c++17", "-default-device", NULL};
static const gg_param_desc ring_params[] = {
    {.name = "dst", .kind = GG_PARAM_SCALAR, .dtype = GG_U64, .offset = 0, .size = 8, .extents = {{0, -1}}},
    {.name = "src", .kind = GG_PARAM_SCALAR, .dtype = GG_U64, .offset = 8, .size = 8, .extents = {{0, -1}}},
    {.name = "sig", .kind = GG_PARAM_SCALAR, .dtype = GG_U64, .offset = 16, .size = 8, .extents = {{0, -1}}},
    {.name = "n", .kind = GG_PARAM_SCALAR, .dtype = GG_U64, .offset = 24, .size = 8, .extents = {{0, -1}}},
    {.name = "round", .kind = GG_PARAM_SCALAR, .dtype = GG_U64, .offset = 32, .size = 8, .extents = {{0, -1}}},
};
static const gg_kernel_desc ring_kernel = {
    .name = "ring", .symbol = "gg_ring", .pattern = GG_PATTERN_FOR, .mode = GG_LAUNCH_CLASSIC,
    .rank = 1, .range = {{-1, 1}}, .block_size = 256, .items_per_thread = 1,
    .grid_rule = GG_GRID_FIXED, .grid_fixed = 1, .features = GG_FEAT_NVSHMEM,
    .args_size = 40, .args_align = 8, .nparams = 5, .params = ring_params,
    .tile = 0, .into_param = -1};

#define FAIL(...)                                   \
  do {                                              \
    fprintf(stderr, "rank %d: ", rank);             \
    fprintf(stderr, __VA_ARGS__);                   \
    fprintf(stderr, " (%s)\n", gg_error_detail()); \
    return 1;                                       \
  } while (0)


static float sent(int rank, long i, int round) { return (float)(rank * 100000 + i + 7 * round); }

/* One size: rounds of the ring, every received element checked. */
static int ring(gg_context *ctx, int rank, int n, gg_team *team, gg_kernel *k, long len) {
  gg_array *dst, *srca, *sig;
  if (gg_team_array_alloc(team, 2 * len * sizeof(float), &dst) ||
      gg_team_array_alloc(team, len * sizeof(float), &srca) ||
      gg_team_array_alloc(team, 8, &sig))
    FAIL("symmetric alloc of %ld floats", len);
  float *h = malloc(len * sizeof *h);
  int prev = (rank + n - 1) % n, bad = 0;
  for (int round = 1; round <= 20 && !bad; round++) {
    for (long i = 0; i < len; i++) h[i] = sent(rank, i, round);
    gg_arg a[5] = {gg_arg_u64((uintptr_t)gg_array_native(dst)),
                   gg_arg_u64((uintptr_t)gg_array_native(srca)),
                   gg_arg_u64((uintptr_t)gg_array_native(sig)), gg_arg_u64(len),
                   gg_arg_u64(round)};
    gg_status st = gg_copy_from_host(srca, 0, h, len * sizeof *h, NULL);
    if (!st) st = gg_launch(k, NULL, a, 5);
    if (!st) st = gg_device_sync(ctx);
    if (!st) st = gg_copy_to_host(h, dst, (round & 1) * len * sizeof *h, len * sizeof *h, NULL);
    if (st) FAIL("round %d: %s", round, gg_strerror(st));
    for (long i = 0; i < len; i++)
      if (h[i] != sent(prev, i, round)) {
        fprintf(stderr, "rank %d, %ld floats, round %d: [%ld] = %.1f, rank %d sent %.1f\n", rank,
                len, round, i, h[i], prev, sent(prev, i, round));
        bad = 1;
        break;
      }
  }
  free(h);
  gg_array_free(sig);
  gg_array_free(srca);
  gg_array_free(dst);
  if (!bad) printf("rank %d: %ld floats from rank %d, 20 rounds: every element right\n", rank, len, prev);
  return bad;
}

static team_pipes pipes;

static int run_rank(int rank, int n) {
  gg_context *ctx;
  gg_context_options o = {.device = rank};
  if (gg_context_open(&ctx, &o)) FAIL("context on GPU %d", rank);
  gg_team_uid uid;
  if (rank == 0 && gg_team_uid_new(&uid)) FAIL("gg_team_uid_new");
  if (team_share(&pipes, rank, &uid, sizeof uid)) FAIL("the id through the pipes");
  gg_team *team;
  double t0 = team_now_ms();
  if (gg_team_open(ctx, rank, n, &uid, 60000, &team)) FAIL("gg_team_open");
  printf("rank %d: team of %d open in %.0f ms\n", rank, gg_team_size(team), team_now_ms() - t0);
  if (gg_team_rank(team) != rank || gg_team_size(team) != n) FAIL("rank/size");
  gg_team *again;
  if (gg_team_open(ctx, rank, n, &uid, 1000, &again) != GG_ERR_STATE) FAIL("a second team opened");
  gg_module_desc md = {.abi = GG_MODULE_ABI, .name = "team_ring", .cuda_source = src,
                       .cuda_options = opts, .nkernels = 1, .kernels = &ring_kernel};
  gg_module *mod;
  gg_kernel *k;
  t0 = team_now_ms();
  if (gg_module_load(ctx, &md, &mod) || gg_kernel_get(mod, "ring", &k)) FAIL("module load");
  printf("rank %d: module loaded in %.0f ms\n", rank, team_now_ms() - t0);
  int bad = ring(ctx, rank, n, team, k, 1000) || ring(ctx, rank, n, team, k, 65537);
  gg_module_free(mod);
  gg_team_free(team);
  gg_context_free(ctx);
  return bad;
}

/* The bounds, in a process of its own (its NVSHMEM is spent after). */
static int run_bounds(void) {
  int rank = 0;
  gg_context *ctx;
  if (gg_context_open(&ctx, NULL)) FAIL("context");
  gg_team_uid uid;
  gg_team *t;
  if (gg_team_uid_new(&uid)) FAIL("gg_team_uid_new");
  if (gg_team_open(ctx, 0, GG_TEAM_MAX, &uid, 1000, &t) != GG_ERR_INVALID)
    FAIL("a team of %d ranks on one host was not refused", GG_TEAM_MAX);
  if (gg_team_open(ctx, 2, 2, &uid, 1000, &t) != GG_ERR_INVALID) FAIL("rank 2 of 2 accepted");
  if (gg_team_open(ctx, 0, 2, &uid, 0, &t) != GG_ERR_INVALID) FAIL("timeout 0 accepted");
  double t0 = team_now_ms();
  gg_status st = gg_team_open(ctx, 0, 2, &uid, 3000, &t);
  double ms = team_now_ms() - t0;
  printf("bounds: a team of 2 whose rank 1 never comes: %s after %.0f ms: %s\n", gg_strerror(st),
         ms, gg_error_detail());
  if (st != GG_ERR_TIMEOUT || ms < 2900 || ms > 6000) FAIL("expected a timeout after 3 s");
  if (gg_team_open(ctx, 0, 1, &uid, 1000, &t) != GG_ERR_STATE) FAIL("NVSHMEM restarted");
  return 0; /* spawn leaves with _exit: NVSHMEM's bootstrap thread still waits */
}

static int n_ranks;

static int rank_main(void *arg) { return run_rank((int)(intptr_t)arg, n_ranks); }
static int bounds_main(void *arg) { return run_bounds(); }

int main(int argc, char **argv) {
  team_multicast_off();
  char why[1600];
  if (!gg_nvshmem_available(why, sizeof why)) {
    printf("skip: %s\n", why);
    return 77;
  }
  n_ranks = argc > 1 ? atoi(argv[1]) : 2;
  if (n_ranks < 2 || n_ranks > 8) {
    fprintf(stderr, "usage: test_team_gpu [N], N from 2 to 8\n");
    return 2;
  }
  int code = team_probe(n_ranks);
  if (code) return code;

  pid_t pids[8];
  int codes[8], bad = 0;
  if (team_pipes_open(&pipes, n_ranks)) return 1;
  for (int r = 0; r < n_ranks; r++) pids[r] = team_spawn(rank_main, (void *)(intptr_t)r);
  team_reap(pids, n_ranks, 240, codes);
  for (int r = 0; r < n_ranks; r++)
    if (codes[r]) {
      fprintf(stderr, "rank %d ended with %d%s\n", r, codes[r], codes[r] < 0 ? " (killed: hung)" : "");
      bad = 1;
    }
  pid_t p = team_spawn(bounds_main, NULL);
  team_reap(&p, 1, 60, &code);
  if (code) {
    fprintf(stderr, "bounds ended with %d\n", code);
    bad = 1;
  }
  if (bad) return 1;
  printf("test_team_gpu: ok (%d ranks)\n", n_ranks);
  return 0;
}
