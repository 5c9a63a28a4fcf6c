/*
 * xchg_bench - an all-reduce across GPUs inside the frame, against NCCL.
 *
 * N processes, one a GPU (include/gg_team.h), run bench/xchg_bench.lua:
 *   gpugen frame    the stage kernel (e = x + x) and an allreduce stage of
 *                   e, one frame of a persistent kernel on every GPU, the
 *                   exchange done inside it with NVSHMEM; each host posts
 *                   its own GPU's frame and waits for it;
 *   relayed         the same frames, rank 0's host alone posting: its
 *                   kernel hands each frame to the others' over NVLink
 *                   (options.relay, gg_session_follow), and acknowledges
 *                   once every GPU ran it;
 *   NCCL graph      the same stage kernel and ncclAllReduce (in place)
 *                   captured in one CUDA graph per GPU, replayed and
 *                   synchronized per frame: what such users pick today;
 *   one GPU         the same total work on rank 0's GPU alone (every
 *                   GPU's x summed, as one frame): what the team must beat
 *                   to be worth its GPUs.
 * Payloads of 1K and 32K floats (4 KiB, 128 KiB).  And the exchange of a
 * corner turn, 64 x 4096 complex values (2 MiB): the gpugen frame's
 * alltoall stage against the same stage kernel and NCCL's grouped
 * ncclSend/ncclRecv (block q to rank q) in a graph, and the stage alone
 * on one GPU.  And a halo stencil chain, S = 1, 4 and 8 smoothing steps
 * over 2M floats cut in N parts with a ghost row at each end: the gpugen
 * frame's halo stage before each step against the same stage kernel
 * after grouped ncclSend/ncclRecv of the edge rows, S times in one graph,
 * and the whole array on one GPU.  Every way's result is
 * checked against the CPU (each rank knows every rank's x: it is a
 * function of the rank), before its timed rows are printed.  Rank 0
 * prints the table; every rank prints its own p50 and p99.99, since the
 * frame is what every host sees.
 *
 * NCCL is the machine's: $GG_NCCL_LIBRARY, else libnccl.so.2 on the
 * loader's path, else the nvidia-nccl wheel of `python3`; without it the
 * NCCL rows are skipped, saying why.  NVLink multicast stays off:
 * NCCL_NVLS_ENABLE=0 and NVSHMEM_DISABLE_NVLS=1 are forced here.
 *
 * usage: xchg_bench [N (2)] [iterations (5000)] [csv (xchg_bench.csv)]
 * XCHG_BLOCKS=B in the environment runs the team's persistent kernel (the
 * gpugen and relayed rows) on B blocks instead of every SM: a frame's
 * grid-wide steps cost more the more blocks take part (on 2 H200s the 1K
 * allreduce was 7.4 us on 1 block, 9.8 on 132), while the 32K, corner-turn
 * and halo rows need the SMs.
 * Needs N GPUs and NVSHMEM (.deps/nvshmem); exits 77 without them.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "gg_session.h"
#include "gg_team.h"
#include "stats.h"
#include "team_procs.h" /* tests/nvshmem: the processes of a team */
#include "xchg_bench.h"

#define NMAX 8

static int n_ranks = 2, iters = 5000;
static const char *csv_path = "xchg_bench.csv";
static team_pipes pipes;

/* ---- NCCL, opened at run time (its C API, the few calls used) ---- */

typedef struct { char internal[128]; } nccl_id;
enum { NCCL_FLOAT32 = 7, NCCL_SUM = 0 };
static struct {
  int (*get_unique_id)(nccl_id *);
  int (*comm_init_rank)(void **comm, int nranks, nccl_id id, int rank);
  int (*all_reduce)(const void *, void *, size_t, int, int, void *comm, void *stream);
  int (*send)(const void *, size_t, int, int peer, void *comm, void *stream);
  int (*recv)(void *, size_t, int, int peer, void *comm, void *stream);
  int (*group_start)(void);
  int (*group_end)(void);
  int (*comm_destroy)(void *comm);
  const char *(*error_string)(int);
  char why[600];
} nccl;

static void *nccl_dlopen(void) {
  const char *env = getenv("GG_NCCL_LIBRARY");
  if (env) return dlopen(env, RTLD_NOW);
  void *lib = dlopen("libnccl.so.2", RTLD_NOW);
  if (lib) return lib;
  FILE *p = popen("python3 -c 'import nvidia.nccl as m, os; "
                  "print(os.path.join(list(m.__path__)[0], \"lib\", \"libnccl.so.2\"))' 2>/dev/null",
                  "r");
  char path[512] = "";
  if (p) {
    if (!fgets(path, sizeof path, p)) path[0] = 0;
    pclose(p);
  }
  path[strcspn(path, "\n")] = 0;
  return path[0] ? dlopen(path, RTLD_NOW) : NULL;
}

static int nccl_open(void) {
  void *lib = nccl_dlopen();
  if (!lib) {
    snprintf(nccl.why, sizeof nccl.why, "NCCL not found (set GG_NCCL_LIBRARY to libnccl.so.2; "
             "the nvidia-nccl-cu13 wheel has it): %s", dlerror());
    return -1;
  }
  *(void **)&nccl.get_unique_id = dlsym(lib, "ncclGetUniqueId");
  *(void **)&nccl.comm_init_rank = dlsym(lib, "ncclCommInitRank");
  *(void **)&nccl.all_reduce = dlsym(lib, "ncclAllReduce");
  *(void **)&nccl.comm_destroy = dlsym(lib, "ncclCommDestroy");
  *(void **)&nccl.error_string = dlsym(lib, "ncclGetErrorString");
  *(void **)&nccl.send = dlsym(lib, "ncclSend");
  *(void **)&nccl.recv = dlsym(lib, "ncclRecv");
  *(void **)&nccl.group_start = dlsym(lib, "ncclGroupStart");
  *(void **)&nccl.group_end = dlsym(lib, "ncclGroupEnd");
  if (!nccl.get_unique_id || !nccl.comm_init_rank || !nccl.all_reduce || !nccl.comm_destroy ||
      !nccl.error_string || !nccl.send || !nccl.recv || !nccl.group_start || !nccl.group_end) {
    snprintf(nccl.why, sizeof nccl.why, "this libnccl lacks a call of NCCL 2's C API");
    return -1;
  }
  return 0;
}

/* ---- one rank ---- */

#define FAIL(...)                                                \
  do {                                                           \
    fprintf(stderr, "rank %d: ", rank);                          \
    fprintf(stderr, __VA_ARGS__);                                \
    fprintf(stderr, " (%s)\n", gg_error_detail());               \
    return 1;                                                    \
  } while (0)

static float x_of(int rank, long i) { return (float)(rank + 1) + (float)(i % 7) * 0.5f; }

/* e after the frame on a team of n: the sum over ranks of x + x (exact in f32) */
static int check_e(int rank, const char *way, const float *e, long len, int n) {
  for (long i = 0; i < len; i++) {
    float want = 0.0f;
    for (int r = 0; r < n; r++) want += x_of(r, i) + x_of(r, i);
    if (e[i] != want) {
      fprintf(stderr, "rank %d: %s: e[%ld] = %g, want %g\n", rank, way, i, e[i], want);
      return 1;
    }
  }
  return 0;
}

/* The corner turn's array: 64 x 8192 floats, N blocks of rows.  After
 * the exchange rank r's block q (q != r) is rank q's block r of a = x + x;
 * its own block stays (checked where `own` is 1: the gpugen frame works in
 * place, NCCL's receives go to another array). */
enum { CT = 64 * 8192 };
static int check_ct(int rank, const char *way, const float *a, int n, int own) {
  const long block = CT / n;
  for (long j = 0; j < CT; j++) {
    const int q = (int)(j / block);
    if (q == rank && !own) continue;
    const long src = q == rank ? j : rank * block + (j - q * block);
    const float want = x_of(q, src) + x_of(q, src);
    if (a[j] != want) {
      fprintf(stderr, "rank %d: %s: a[%ld] = %g, want %g\n", rank, way, j, a[j], want);
      return 1;
    }
  }
  return 0;
}

/* ---- the halo stencil chain ----
 * The global array A: 2M floats between two fixed boundary values, A[0]
 * and A[ST_N + 1].  Rank q holds A[lo .. hi + 1] (lo = ST_N q / N, hi =
 * ST_N (q + 1) / N): its own rows A[lo + 1 .. hi] between two ghost rows,
 * A[lo] and A[hi + 1], the neighbours' edge rows (or the boundary). */
enum { ST_N = 2 * 1024 * 1024 };
static const int st_steps[3] = {1, 4, 8};
static float st_init(long i) { return (float)(1 + i % 5) + (float)(i % 11) * 0.25f; }
static void st_part(int rank, int n, long *lo, long *rows) {
  *lo = (long)ST_N * rank / n;
  *rows = (long)ST_N * (rank + 1) / n - *lo + 2;
}
/* S steps of the stencil over A on the CPU (in a, b: ST_N + 2 floats
 * each); the result is where the last step wrote. */
static const float *st_reference(int steps, float *a, float *b) {
  for (long i = 0; i < ST_N + 2; i++) a[i] = st_init(i);
  for (int s = 0; s < steps; s++) {
    const float *x = s % 2 ? b : a;
    float *y = s % 2 ? a : b;
    y[0] = x[0], y[ST_N + 1] = x[ST_N + 1];
    for (long i = 1; i <= ST_N; i++) y[i] = 0.25f * x[i - 1] + 0.5f * x[i] + 0.25f * x[i + 1];
  }
  return steps % 2 ? b : a;
}
/* This rank's own rows after the chain against the reference (the GPU
 * may fuse the multiply-adds the CPU rounds twice: 1e-5 relative). */
static int st_check(int rank, const char *way, const float *got, const float *ref, long lo,
                    long rows) {
  for (long r = 1; r < rows - 1; r++) {
    const float want = ref[lo + r], d = got[r] - want;
    if (!(d <= 1e-5f * want && -d <= 1e-5f * want)) {
      fprintf(stderr, "rank %d: %s: row %ld (A[%ld]) = %.9g, want %.9g\n", rank, way, r, lo + r,
              got[r], want);
      return 1;
    }
  }
  return 0;
}

typedef struct row {
  char label[96];
  bench_summary r;
} row;
static row rows[48];
static int nrows;

/* Where a session's frames went (its statistics: device times split
 * each frame into host -> GPU, GPU, GPU -> host), one line per row,
 * printed after the table; warm-up frames included. */
static char splits[16][200];
static int nsplits;
static void keep_split(gg_session *se, const char *label) {
  gg_stats gs;
  if (nsplits < 16 && gg_session_stats(se, &gs) == GG_OK && gs.timed)
    snprintf(splits[nsplits++], sizeof splits[0],
             "%-40s p50 to GPU %6.2f  GPU %6.2f  to host %6.2f us (%llu frames)", label,
             gs.part[GG_PART_TO_GPU].p50_ns / 1e3, gs.part[GG_PART_GPU].p50_ns / 1e3,
             gs.part[GG_PART_TO_HOST].p50_ns / 1e3, (unsigned long long)gs.timed);
  gg_session_stats_reset(se);
}

static row *keep(const char *label, bench_stats *s) {
  row *w = &rows[nrows++];
  snprintf(w->label, sizeof w->label, "%s", label);
  bench_stats_summarize(s, &w->r);
  bench_stats_reset(s);
  return w;
}

/* Frames of a session: `warm` untimed, then iters timed, round trip each. */
static int time_session(gg_session *se, int cmd, const gg_arg *a, int na, bench_stats *s) {
  for (int i = 0; i < iters + iters / 10; i++) {
    double t0 = bench_now_us();
    if (gg_session_start(se, cmd, a, na, NULL) || gg_session_wait(se, 5000000000ll)) return -1;
    if (i >= iters / 10) bench_stats_add(s, bench_now_us() - t0);
  }
  return 0;
}

/* Replays of a graph, synchronized each: the same warm-up and count. */
static int time_graph(gg_graph *g, gg_stream *st, bench_stats *s) {
  for (int i = 0; i < iters + iters / 10; i++) {
    double t0 = bench_now_us();
    if (gg_graph_launch(g, st) || gg_stream_sync(st)) return -1;
    if (i >= iters / 10) bench_stats_add(s, bench_now_us() - t0);
  }
  return 0;
}

/* This rank's part of the initial array into x (and y: its boundary
 * rows are read as they are), by copies (a fill is a kernel, which would
 * wait behind a session's). */
static int st_load(gg_array *x, gg_array *y, long lo, long rows, float *h) {
  for (long r = 0; r < rows; r++) h[r] = st_init(lo + r);
  return gg_copy_from_host(x, 0, h, rows * 4, NULL) || gg_copy_from_host(y, 0, h, rows * 4, NULL);
}

/* A stencil frame: one from the initial rows, its result into h; then
 * the timed ones (which go on smoothing what the last one left). */
static int st_run(gg_session *se, const char *name, const gg_arg *a, gg_array *x, gg_array *y,
                  long lo, long rows, int steps, float *h, bench_stats *s) {
  int cmd;
  if (st_load(x, y, lo, rows, h) || gg_session_command(se, name, &cmd) ||
      gg_session_start(se, cmd, a, 3, NULL) || gg_session_wait(se, 5000000000ll) ||
      gg_copy_to_host(h, steps % 2 ? y : x, 0, rows * 4, NULL))
    return -1;
  return time_session(se, cmd, a, 3, s);
}

static int run_rank(int rank) {
  gg_context *ctx;
  gg_context_options o = {.device = rank};
  if (gg_context_open(&ctx, &o)) FAIL("context on GPU %d", rank);
  int have_nccl = nccl_open() == 0;
  struct { gg_team_uid uid; nccl_id nid; } ids;
  memset(&ids, 0, sizeof ids);
  if (rank == 0) {
    if (gg_team_uid_new(&ids.uid)) FAIL("gg_team_uid_new");
    if (have_nccl && nccl.get_unique_id(&ids.nid)) have_nccl = 0;
  }
  if (team_share(&pipes, rank, &ids, sizeof ids)) FAIL("the ids through the pipes");
  gg_team *team;
  if (gg_team_open(ctx, rank, n_ranks, &ids.uid, 60000, &team)) FAIL("gg_team_open");
  gg_module *mod;
  if (gg_module_load(ctx, &gg_module_xchg_bench, &mod)) FAIL("module load");
  void *comm = NULL;
  if (have_nccl) {
    int e = nccl.comm_init_rank(&comm, n_ranks, ids.nid, rank);
    if (e) {
      snprintf(nccl.why, sizeof nccl.why, "ncclCommInitRank: %s", nccl.error_string(e));
      have_nccl = 0;
    }
  } else if (rank == 0) {
    printf("NCCL rows skipped: %s\n", nccl.why);
  }

  enum { NBIG = 32768 };
  static float hx[NMAX * NBIG], he[NBIG];
  static float hct[CT], hout[CT];
  static float sta[ST_N + 2], stb[ST_N + 2], sth[ST_N + 2];
  gg_array *x, *xall, *e, *xc, *ac, *yc, *sx, *sy;
  if (gg_array_alloc(ctx, GG_SPACE_DEVICE, NBIG * 4, &x) ||
      gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)n_ranks * NBIG * 4, &xall) ||
      gg_array_alloc(ctx, GG_SPACE_DEVICE, NBIG * 4, &e) ||
      gg_array_alloc(ctx, GG_SPACE_DEVICE, CT * 4, &xc) ||
      gg_array_alloc(ctx, GG_SPACE_DEVICE, CT * 4, &ac) ||
      gg_array_alloc(ctx, GG_SPACE_DEVICE, CT * 4, &yc) ||
      gg_array_alloc(ctx, GG_SPACE_DEVICE, (ST_N + 2) * 4, &sx) ||
      gg_array_alloc(ctx, GG_SPACE_DEVICE, (ST_N + 2) * 4, &sy))
    FAIL("arrays");
  long st_lo, st_rows;
  st_part(rank, n_ranks, &st_lo, &st_rows);
  for (long i = 0; i < CT; i++) hct[i] = x_of(rank, i);
  if (gg_copy_from_host(xc, 0, hct, CT * 4, NULL)) FAIL("copy");
  const gg_arg act[2] = {gg_arg_array(xc), gg_arg_array(ac)};
  gg_stream *st;
  if (gg_stream_open(ctx, &st)) FAIL("stream");
  /* One thing on the GPU at a time: a session's persistent kernel holds
   * every SM, so the team's session ends before the graphs run, and the
   * one-GPU session opens after them. */
  bench_stats s;
  bench_stats_init(&s, iters);
  const long lens[2] = {1024, NBIG};
  const char *tags[6] = {"1k", "32k", "ct", "st1", "st4", "st8"};
  row *at[6][3] = {{NULL}}; /* [payload][way]: where each row went */
  char name[32], label[96];
  int bad = 0, cmd;

  /* gpugen: the frame, the exchange inside it */
  snprintf(name, sizeof name, "team%d", n_ranks);
  /* XCHG_BLOCKS: the team's persistent kernel on that many blocks (0: as
     the module says, every SM) */
  const int team_blocks = getenv("XCHG_BLOCKS") ? atoi(getenv("XCHG_BLOCKS")) : 0;
  gg_session_options so = {.team = team, .blocks = team_blocks, .stats_frames = 1000000};
  gg_session *se;
  if (gg_session_open(mod, name, &so, &se)) FAIL("session %s", name);
  for (int k = 0; k < 2 && !bad; k++) {
    long len = lens[k];
    for (long i = 0; i < len; i++) hx[i] = x_of(rank, i);
    gg_arg a[2] = {gg_arg_array(x), gg_arg_array(e)};
    snprintf(name, sizeof name, "ar%d_%s", n_ranks, tags[k]);
    memset(he, 0, sizeof he); /* zeros by a copy: a fill is a kernel, which would wait
                                 behind the session's, which may hold every SM */
    if (gg_copy_from_host(x, 0, hx, len * 4, NULL) || gg_copy_from_host(e, 0, he, len * 4, NULL) ||
        gg_session_command(se, name, &cmd) || time_session(se, cmd, a, 2, &s) ||
        gg_copy_to_host(he, e, 0, len * 4, NULL))
      FAIL("frame %s", name);
    bad |= check_e(rank, name, he, len, n_ranks);
    snprintf(label, sizeof label, "%s  gpugen frame, allreduce inside", tags[k]);
    at[k][0] = keep(label, &s);
    keep_split(se, label);
  }
  snprintf(name, sizeof name, "ct%d", n_ranks);
  if (!bad) {
    memset(hout, 0, sizeof hout);
    if (gg_copy_from_host(ac, 0, hout, CT * 4, NULL) || gg_session_command(se, name, &cmd) ||
        time_session(se, cmd, act, 2, &s) || gg_copy_to_host(hout, ac, 0, CT * 4, NULL))
      FAIL("frame %s", name);
    bad |= check_ct(rank, name, hout, n_ranks, 1);
    at[2][0] = keep("ct  gpugen frame, alltoall inside", &s);
    keep_split(se, "ct  gpugen frame, alltoall inside");
  }
  for (int k = 0; k < 3 && !bad; k++) {
    const float *ref = st_reference(st_steps[k], sta, stb);
    const gg_arg a[3] = {gg_arg_array(sx), gg_arg_array(sy), gg_arg_i64(st_rows)};
    snprintf(name, sizeof name, "st%d_%d", n_ranks, st_steps[k]);
    if (st_run(se, name, a, sx, sy, st_lo, st_rows, st_steps[k], sth, &s)) FAIL("frame %s", name);
    bad |= st_check(rank, name, sth, ref, st_lo, st_rows);
    snprintf(label, sizeof label, "%s  gpugen frame, halo inside", tags[3 + k]);
    at[3 + k][0] = keep(label, &s);
    keep_split(se, label);
  }
  gg_session_terminate(se);
  gg_session_free(se); /* collective: its symmetric workspace */

  /* gpugen, relayed: rank 0's host alone posts (options.relay) and its
     kernel hands each frame to the others', whose hosts follow
     (gg_session_follow); rank 0's wait is the frame on every GPU */
  row *relayed[2] = {NULL, NULL};
  for (int k = 0; k < 2 && !bad; k++) {
    const long len = lens[k];
    gg_session_options sr = {.team = team, .relay = rank == 0, .blocks = team_blocks,
                             .stats_frames = rank == 0 ? 1000000 : 0};
    snprintf(name, sizeof name, "team%d", n_ranks);
    if (gg_session_open(mod, name, &sr, &se)) FAIL("relayed session %s", name);
    /* from here every rank goes through to the pipes, terminate and the
       collective free, whatever fails (an early return would leave its
       kernel running and the others waiting) */
    for (long i = 0; i < len; i++) hx[i] = x_of(rank, i);
    memset(he, 0, sizeof he);
    gg_arg a[2] = {gg_arg_array(x), gg_arg_array(e)};
    snprintf(name, sizeof name, "ar%d_%s", n_ranks, tags[k]);
    int failed = gg_copy_from_host(x, 0, hx, len * 4, NULL) ||
                 gg_copy_from_host(e, 0, he, len * 4, NULL) || gg_session_command(se, name, &cmd);
    if (!failed)
      failed = rank == 0 ? time_session(se, cmd, a, 2, &s) != 0
                         : gg_session_follow(se, cmd, a, 2) != GG_OK;
    if (failed)
      fprintf(stderr, "rank %d: relayed %s: %s\n", rank, name, gg_error_detail());
    /* rank 0 tells the others its frames are done (each waited for all) */
    char over = (char)failed;
    if (team_share(&pipes, rank, &over, 1)) failed = 1;
    gg_session_terminate(se);
    if (!failed && !over && gg_copy_to_host(he, e, 0, len * 4, NULL)) failed = 1;
    bad |= failed || over || check_e(rank, "relayed", he, len, n_ranks);
    if (rank == 0 && !bad) {
      snprintf(label, sizeof label, "%s  gpugen frame, relayed (rank 0 posts)", tags[k]);
      relayed[k] = keep(label, &s);
      keep_split(se, label);
    }
    gg_session_free(se); /* collective */
  }

  /* NCCL: the stage kernel and ncclAllReduce, one graph */
  for (int k = 0; k < 2 && have_nccl && !bad; k++) {
    long len = lens[k];
    for (long i = 0; i < len; i++) hx[i] = x_of(rank, i);
    gg_arg a[2] = {gg_arg_array(x), gg_arg_array(e)};
    gg_kernel *kt;
    gg_graph *g;
    snprintf(name, sizeof name, "twice_%s", tags[k]);
    if (gg_copy_from_host(x, 0, hx, len * 4, NULL) || gg_fill_zero(e, NULL) ||
        gg_kernel_get(mod, name, &kt) || gg_graph_capture_begin(st, &g))
      FAIL("capture");
    int launched = gg_launch(kt, st, a, 2);
    int ne = nccl.all_reduce(gg_array_native(e), gg_array_native(e), (size_t)len, NCCL_FLOAT32,
                             NCCL_SUM, comm, gg_stream_native(st));
    if (gg_graph_capture_end(g) || launched || ne) FAIL("graph (nccl %d)", ne);
    if (time_graph(g, st, &s)) FAIL("replay");
    if (gg_copy_to_host(he, e, 0, len * 4, NULL)) FAIL("copy");
    bad |= check_e(rank, "NCCL graph", he, len, n_ranks);
    gg_graph_free(g);
    snprintf(label, sizeof label, "%s  kernel + ncclAllReduce, CUDA graph", tags[k]);
    at[k][1] = keep(label, &s);
  }

  /* NCCL: the stage kernel and grouped sends and receives, one graph */
  if (have_nccl && !bad) {
    gg_kernel *kt;
    gg_graph *g;
    const size_t block = CT / n_ranks;
    if (gg_fill_zero(yc, NULL) || gg_kernel_get(mod, "fill_ct", &kt) ||
        gg_graph_capture_begin(st, &g))
      FAIL("capture");
    int launched = gg_launch(kt, st, act, 2), ne = nccl.group_start();
    float *a = gg_array_native(ac), *y = gg_array_native(yc);
    for (int p = 0; p < n_ranks && !ne; p++)
      if (p != rank)
        ne = nccl.send(a + p * block, block, NCCL_FLOAT32, p, comm, gg_stream_native(st)) ||
             nccl.recv(y + p * block, block, NCCL_FLOAT32, p, comm, gg_stream_native(st));
    ne = nccl.group_end() || ne;
    if (gg_graph_capture_end(g) || launched || ne) FAIL("graph (nccl %d)", ne);
    if (time_graph(g, st, &s)) FAIL("replay");
    if (gg_copy_to_host(hout, yc, 0, CT * 4, NULL)) FAIL("copy");
    bad |= check_ct(rank, "NCCL graph (corner turn)", hout, n_ranks, 0);
    gg_graph_free(g);
    at[2][1] = keep("ct  kernel + ncclSend/ncclRecv, CUDA graph", &s);
  }

  /* NCCL: per step, the edge rows by grouped sends and receives, then the
     stage kernel; S steps in one graph */
  for (int k = 0; k < 3 && have_nccl && !bad; k++) {
    const float *ref = st_reference(st_steps[k], sta, stb);
    gg_kernel *kt;
    gg_graph *g;
    if (st_load(sx, sy, st_lo, st_rows, sth) || gg_kernel_get(mod, "smooth", &kt) ||
        gg_graph_capture_begin(st, &g))
      FAIL("capture");
    int launched = 0, ne = 0;
    for (int i = 0; i < st_steps[k] && !ne && !launched; i++) {
      gg_array *from = i % 2 ? sy : sx, *to = i % 2 ? sx : sy;
      float *f = gg_array_native(from);
      ne = nccl.group_start();
      if (rank > 0 && !ne)
        ne = nccl.send(f + 1, 1, NCCL_FLOAT32, rank - 1, comm, gg_stream_native(st)) ||
             nccl.recv(f, 1, NCCL_FLOAT32, rank - 1, comm, gg_stream_native(st));
      if (rank < n_ranks - 1 && !ne)
        ne = nccl.send(f + st_rows - 2, 1, NCCL_FLOAT32, rank + 1, comm, gg_stream_native(st)) ||
             nccl.recv(f + st_rows - 1, 1, NCCL_FLOAT32, rank + 1, comm, gg_stream_native(st));
      ne = nccl.group_end() || ne;
      const gg_arg a[3] = {gg_arg_array(from), gg_arg_array(to), gg_arg_i64(st_rows)};
      launched = gg_launch(kt, st, a, 3);
    }
    if (gg_graph_capture_end(g) || launched || ne) FAIL("graph (nccl %d)", ne);
    /* one replay from the initial rows, checked; then the timed ones */
    if (gg_graph_launch(g, st) || gg_stream_sync(st) ||
        gg_copy_to_host(sth, st_steps[k] % 2 ? sy : sx, 0, st_rows * 4, NULL))
      FAIL("replay");
    snprintf(label, sizeof label, "%s  kernel + ncclSend/ncclRecv, CUDA graph", tags[3 + k]);
    bad |= st_check(rank, label, sth, ref, st_lo, st_rows);
    if (time_graph(g, st, &s)) FAIL("replay");
    gg_graph_free(g);
    at[3 + k][1] = keep(label, &s);
  }

  /* one GPU, the same total work (rank 0 only) */
  gg_session *one = NULL;
  gg_session_options so1 = {.stats_frames = 1000000};
  if (rank == 0 && !bad && gg_session_open(mod, "single", &so1, &one)) FAIL("session single");
  for (int k = 0; k < 2 && one && !bad; k++) {
    long len = lens[k];
    for (int r = 0; r < n_ranks; r++)
      for (long i = 0; i < len; i++) hx[r * len + i] = x_of(r, i);
    gg_arg a1[2] = {gg_arg_array(xall), gg_arg_array(e)};
    snprintf(name, sizeof name, "one%d_%s", n_ranks, tags[k]);
    memset(he, 0, sizeof he); /* zeros by a copy: a fill is a kernel, which would wait for
                                 the session's, which holds every SM */
    if (gg_copy_from_host(xall, 0, hx, (size_t)n_ranks * len * 4, NULL) ||
        gg_copy_from_host(e, 0, he, len * 4, NULL) || gg_session_command(one, name, &cmd) ||
        time_session(one, cmd, a1, 2, &s) || gg_copy_to_host(he, e, 0, len * 4, NULL))
      FAIL("frame %s", name);
    bad |= check_e(rank, name, he, len, n_ranks);
    snprintf(label, sizeof label, "%s  one GPU, the same work (%d x)", tags[k], n_ranks);
    at[k][2] = keep(label, &s);
    keep_split(one, label);
  }
  if (one && !bad) { /* the corner turn's stage alone: its data all here */
    if (gg_session_command(one, "ct_one", &cmd) || time_session(one, cmd, act, 2, &s))
      FAIL("frame ct_one");
    at[2][2] = keep("ct  one GPU, the stage alone", &s);
    keep_split(one, "ct  one GPU, the stage alone");
  }
  for (int k = 0; k < 3 && one && !bad; k++) { /* the whole array */
    const float *ref = st_reference(st_steps[k], sta, stb);
    const gg_arg a[3] = {gg_arg_array(sx), gg_arg_array(sy), gg_arg_i64(ST_N + 2)};
    snprintf(name, sizeof name, "st1_%d", st_steps[k]);
    if (st_run(one, name, a, sx, sy, 0, ST_N + 2, st_steps[k], sth, &s)) FAIL("frame %s", name);
    bad |= st_check(rank, name, sth, ref, 0, ST_N + 2);
    snprintf(label, sizeof label, "%s  one GPU, the whole array", tags[3 + k]);
    at[3 + k][2] = keep(label, &s);
    keep_split(one, label);
  }
  if (one) {
    gg_session_terminate(one);
    gg_session_free(one);
  }
  bench_stats_free(&s);

  if (!bad && rank == 0) {
    FILE *csv = bench_csv_open(csv_path);
    printf("\nxchg_bench: %d GPUs (%s), one process each, %d frames a row; us per frame as "
           "rank 0's host sees it\n", n_ranks, gg_context_device_name(ctx), iters);
    bench_print_header(stdout, "us");
    for (int i = 0; i < nrows; i++) {
      bench_print_row(stdout, rows[i].label, &rows[i].r);
      if (csv) bench_csv_row(csv, "xchg_bench", rows[i].label, &rows[i].r,
                             gg_context_device_name(ctx));
    }
    for (int k = 0; k < 6; k++)
      if (at[k][0] && at[k][1])
        printf("%s ratio: NCCL graph p50 / gpugen frame p50 = %.2f / %.2f = %.2fx\n", tags[k],
               at[k][1]->r.p50, at[k][0]->r.p50, at[k][1]->r.p50 / at[k][0]->r.p50);
    for (int k = 0; k < 2; k++)
      if (relayed[k] && at[k][1])
        printf("%s ratio: NCCL graph p50 / gpugen relayed frame p50 = %.2f / %.2f = %.2fx\n",
               tags[k], at[k][1]->r.p50, relayed[k]->r.p50, at[k][1]->r.p50 / relayed[k]->r.p50);
    for (int k = 0; k < 6; k++)
      if (at[k][0] && at[k][2])
        printf("%s ratio: one GPU p50 / gpugen frame p50 = %.2f / %.2f = %.2fx\n", tags[k],
               at[k][2]->r.p50, at[k][0]->r.p50, at[k][2]->r.p50 / at[k][0]->r.p50);
    printf("where rank 0's frames went (device times; each part's own p50):\n");
    for (int i = 0; i < nsplits; i++) printf("  %s\n", splits[i]);
    if (csv) fclose(csv);
  }
  if (!bad) { /* every host's view of the frame */
    for (int i = 0; i < nrows; i++)
      if (strstr(rows[i].label, "gpugen frame") || strstr(rows[i].label, "nccl"))
        fprintf(stderr, "rank %d: %-44s p50 %7.2f  p99 %7.2f  p99.99 %7.2f us\n", rank,
                rows[i].label, rows[i].r.p50, rows[i].r.p99, rows[i].r.p9999);
  }
  if (comm) nccl.comm_destroy(comm);
  gg_stream_free(st);
  gg_array_free(sy);
  gg_array_free(sx);
  gg_array_free(e);
  gg_array_free(xall);
  gg_array_free(yc);
  gg_array_free(ac);
  gg_array_free(xc);
  gg_array_free(x);
  gg_module_free(mod);
  gg_team_free(team);
  gg_context_free(ctx);
  return bad;
}

/* ---- the processes (team_procs.h) ---- */

static int rank_main(void *arg) { return run_rank((int)(intptr_t)arg); }

int main(int argc, char **argv) {
  if (argc > 1) n_ranks = atoi(argv[1]);
  if (argc > 2) iters = atoi(argv[2]);
  if (argc > 3) csv_path = argv[3];
  if ((n_ranks != 2 && n_ranks != 4) || iters < 100) {
    fprintf(stderr, "usage: xchg_bench [N: 2 or 4 (2)] [iterations, 100 or more (5000)] [csv]\n");
    return 2;
  }
  team_multicast_off();
  char why[1600];
  if (!gg_nvshmem_available(why, sizeof why)) {
    printf("skip: %s\n", why);
    return 77;
  }
  int code = team_probe(n_ranks);
  if (code) return code;
  if (team_pipes_open(&pipes, n_ranks)) return 1;
  pid_t pids[NMAX];
  int codes[NMAX], bad = 0;
  for (int r = 0; r < n_ranks; r++) pids[r] = team_spawn(rank_main, (void *)(intptr_t)r);
  team_reap(pids, n_ranks, 560, codes);
  for (int r = 0; r < n_ranks; r++)
    if (codes[r]) {
      fprintf(stderr, "xchg_bench: rank %d ended with %d%s\n", r, codes[r],
              codes[r] < 0 ? " (killed: did not end within 560 s)" : "");
      bad = 1;
    }
  return bad;
}
