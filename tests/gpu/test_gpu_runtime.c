/*
 * The runtime on a real GPU, through hand-written kernels in a
 * gg_module_desc (generated modules are tested in their own areas):
 * saxpy and a workspace reduction against CPU references at awkward
 * sizes, all four memory spaces, copies and mirrors, streams and events,
 * cooperative launch and the refusal of an oversized grid, listing a
 * module's kernels and the not-found message, compile errors
 * naming file:line, out-of-memory, the disk and memory caches, and missing
 * libraries.  Exits 77 where there is no GPU.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gg.h"
#include "internal.h" /* to see whether a module came from the disk cache */
#include "../gg_check.h"
#include "../expect.h"

#define OK(call) do { gg_status st_ = (call); if (st_) { fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call, gg_strerror(st_), gg_error_detail()); failures++; } } while (0)

static const char *cuda_src =
  "#include <cooperative_groups.h>\n"
  "struct gg_args_saxpy { float a; const float *x; float *y; long long n; };\n"
  "extern \"C\" __global__ void gg_saxpy(gg_args_saxpy args) {\n"
  "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
  "  if (i < args.n) args.y[i] = args.a * args.x[i] + args.y[i];\n"
  "}\n"
  "struct gg_args_iota { int *y; long long n; };\n"
  "extern \"C\" __global__ void gg_iota(gg_args_iota args) {\n"
  "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
  "  if (i < args.n) args.y[i] = (int)(3 * i + 1);\n"
  "}\n"
  /* sum of x into out[0]: grid-stride partials per block in the workspace,
   * the last block to finish adds them and resets the counter (the
   * workspace is left zeroed, as the contract asks). */
  "struct gg_args_sum { const float *x; double *out; long long n; void *gg_ws; unsigned gg_seq; };\n"
  "extern \"C\" __global__ void __launch_bounds__(256) gg_sum(gg_args_sum args) {\n"
  "  __shared__ double s[256];\n"
  "  __shared__ bool last;\n"
  "  unsigned *count = (unsigned *)args.gg_ws;\n"
  "  double *part = (double *)((char *)args.gg_ws + 16);\n"
  "  double acc = 0;\n"
  "  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < args.n; i += 256ll * gridDim.x) acc += args.x[i];\n"
  "  s[threadIdx.x] = acc; __syncthreads();\n"
  "  for (int w = 128; w > 0; w >>= 1) { if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w]; __syncthreads(); }\n"
  "  if (threadIdx.x == 0) { part[blockIdx.x] = s[0]; __threadfence(); last = atomicAdd(count, 1u) == gridDim.x - 1; }\n"
  "  __syncthreads();\n"
  "  if (last && threadIdx.x == 0) { __threadfence(); double t = 0;\n"
  "    for (unsigned b = 0; b < gridDim.x; b++) { t += ((volatile double *)part)[b]; part[b] = 0; }\n"
  "    args.out[0] = t; *count = 0; }\n"
  "}\n"
  /* cooperative: each block writes its index, grid sync, block 0 adds them */
  "struct gg_args_coop { long long *out; long long *scratch; };\n"
  "extern \"C\" __global__ void gg_coop(gg_args_coop args) {\n"
  "  namespace cg = cooperative_groups;\n"
  "  cg::grid_group g = cg::this_grid();\n"
  "  if (threadIdx.x == 0) args.scratch[blockIdx.x] = blockIdx.x + 1;\n"
  "  g.sync();\n"
  "  if (blockIdx.x == 0 && threadIdx.x == 0) { long long t = 0;\n"
  "    for (unsigned b = 0; b < gridDim.x; b++) t += args.scratch[b];\n"
  "    args.out[0] = t; args.out[1] = gridDim.x; }\n"
  "}\n";

#define P(name, kind, dt, rank, ext, hidden, off, size) \
  {name, kind, dt, rank, {{0, ext}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_INOUT, hidden, off, size}

static const gg_param_desc saxpy_p[] = {
  P("a", GG_PARAM_SCALAR, GG_F32, 0, -1, 0, 0, 4), P("x", GG_PARAM_VIEW, GG_F32, 1, 3, 0, 8, 8),
  P("y", GG_PARAM_VIEW, GG_F32, 1, 3, 0, 16, 8), P("n", GG_PARAM_EXTENT, GG_I64, 0, -1, 0, 24, 8)};
static const gg_param_desc iota_p[] = {
  P("y", GG_PARAM_VIEW, GG_I32, 1, 1, 0, 0, 8), P("n", GG_PARAM_EXTENT, GG_I64, 0, -1, 0, 8, 8)};
static const gg_param_desc sum_p[] = {
  P("x", GG_PARAM_VIEW, GG_F32, 1, 2, 0, 0, 8), P("out", GG_PARAM_VIEW, GG_F64, 1, -1, 0, 8, 8),
  P("n", GG_PARAM_EXTENT, GG_I64, 0, -1, 0, 16, 8),
  P("gg_ws", GG_PARAM_HIDDEN, GG_PTR, 0, -1, GG_HIDDEN_WORKSPACE, 24, 8),
  P("gg_seq", GG_PARAM_HIDDEN, GG_U32, 0, -1, GG_HIDDEN_SEQ, 32, 4)};
static const gg_param_desc coop_p[] = {
  P("out", GG_PARAM_VIEW, GG_I64, 1, -1, 0, 0, 8), P("scratch", GG_PARAM_VIEW, GG_I64, 1, -1, 0, 8, 8)};

static gg_kernel_desc kernels[4];

static void make_descs(void) {
  gg_kernel_desc k = {0};
  k.rank = 1; k.block_size = 256; k.items_per_thread = 1; k.args_align = 8;
  k.range[0].param = 3;
  k.name = "saxpy"; k.symbol = "gg_saxpy"; k.args_size = 32; k.nparams = 4; k.params = saxpy_p;
  kernels[0] = k;
  k.range[0].param = 1;
  k.name = "iota"; k.symbol = "gg_iota"; k.args_size = 16; k.nparams = 2; k.params = iota_p;
  kernels[1] = k;
  k.range[0].param = 2; k.pattern = GG_PATTERN_REDUCE; k.cap_resident = 1;
  k.ws_fixed = 16; k.ws_per_block = 8;
  k.name = "sum"; k.symbol = "gg_sum"; k.args_size = 40; k.nparams = 5; k.params = sum_p;
  kernels[2] = k;
  memset(&k, 0, sizeof k);
  k.block_size = 128; k.items_per_thread = 1; k.args_align = 8; k.mode = GG_LAUNCH_COOPERATIVE;
  k.grid_rule = GG_GRID_RESIDENT; k.features = GG_FEAT_COOPERATIVE;
  k.name = "coop"; k.symbol = "gg_coop"; k.args_size = 16; k.nparams = 2; k.params = coop_p;
  kernels[3] = k;
}

static const gg_module_desc module = {
  GG_MODULE_ABI, "runtime_test", "runtime_test.lua", "test", NULL, NULL, NULL, NULL, 4, kernels, 0, NULL};
static gg_module_desc mod_desc;

static const long long sizes[] = {1, 31, 1000, 1024, 4097, 1 << 20, 1000003};

static void test_saxpy(gg_context *ctx, gg_kernel *k) {
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    long long n = sizes[s];
    size_t bytes = (size_t)n * sizeof(float);
    float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
    for (long long i = 0; i < n; i++) { x[i] = (float)(i % 97) * 0.5f; y[i] = (float)(i % 13) - 6.0f; }
    gg_array *dx, *dy;
    OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, bytes, &dx));
    OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, bytes, &dy));
    OK(gg_copy_from_host(dx, 0, x, bytes, NULL));
    OK(gg_copy_from_host(dy, 0, y, bytes, NULL));
    gg_arg args[] = {gg_arg_f32(2.0f), gg_arg_array(dx), gg_arg_array(dy), gg_arg_i64(n)};
    OK(gg_launch(k, NULL, args, 4));
    OK(gg_copy_to_host(out, dy, 0, bytes, NULL));
    long long bad = 0;
    for (long long i = 0; i < n; i++) bad += out[i] != 2.0f * x[i] + y[i];
    CHECK(bad == 0);
    /* an extent larger than the arrays is refused before any launch */
    gg_arg big[] = {gg_arg_f32(2.0f), gg_arg_array(dx), gg_arg_array(dy), gg_arg_i64(n + 1)};
    CHECK(gg_launch(k, NULL, big, 4) == GG_ERR_INVALID);
    gg_array_free(dx); gg_array_free(dy);
    free(x); free(y); free(out);
  }
}

static void test_sum(gg_context *ctx, gg_kernel *k) {
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    long long n = sizes[s];
    size_t bytes = (size_t)n * sizeof(float);
    float *x = malloc(bytes);
    double ref = 0;
    for (long long i = 0; i < n; i++) { x[i] = (float)((i * 7919) % 1000) / 1000.0f - 0.3f; ref += x[i]; }
    gg_array *dx, *dout;
    OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, bytes, &dx));
    OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof(double), &dout));
    OK(gg_copy_from_host(dx, 0, x, bytes, NULL));
    gg_arg args[] = {gg_arg_array(dx), gg_arg_array(dout), gg_arg_i64(n)};
    double first = 0;
    for (int rep = 0; rep < 3; rep++) { /* the workspace must be left clean */
      double got = -1;
      OK(gg_launch(k, NULL, args, 3));
      OK(gg_copy_to_host(&got, dout, 0, sizeof got, NULL));
      /* float inputs summed in double: only the summation order differs */
      CHECK(fabs(got - ref) <= 1e-9 * (double)n + 1e-9);
      if (rep == 0) first = got;
      else CHECK(got == first);
    }
    gg_array_free(dx); gg_array_free(dout);
    free(x);
  }
}

/* A copy or fill with no stream has landed when it returns, as seen by a
 * kernel on a non-blocking stream started right after.  cuMemcpy alone
 * returns once a pageable host buffer is staged, before its DMA lands
 * (CUDA's API synchronization behaviour), and a memset or a
 * device-to-device copy is asynchronous: the sum would then read some
 * old bytes.  16M floats, a new value each round: a stale element shows. */
static void test_sync_copies(gg_context *ctx, gg_kernel *sum) {
  const long long n = 1 << 24;
  const size_t bytes = (size_t)n * sizeof(float);
  float *x = malloc(bytes); /* pageable */
  gg_array *dx, *dy, *dout;
  gg_stream *st;
  OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, bytes, &dx));
  OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, bytes, &dy));
  OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof(double), &dout));
  OK(gg_stream_open(ctx, &st));
  int stale = 0;
  for (int round = 0; round < 24; round++) {
    const float v = (float)(round + 1);
    for (long long i = 0; i < n; i++) x[i] = v;
    const int how = round % 3; /* from the host; device to device; fill */
    if (how == 0) OK(gg_copy_from_host(dx, 0, x, bytes, NULL));
    if (how == 1) {
      OK(gg_copy_from_host(dy, 0, x, bytes, NULL));
      OK(gg_fill_zero(dx, NULL));
      OK(gg_copy(dx, 0, dy, 0, bytes, NULL));
    }
    if (how == 2) OK(gg_fill_zero(dx, NULL));
    gg_arg args[] = {gg_arg_array(dx), gg_arg_array(dout), gg_arg_i64(n)};
    OK(gg_launch(sum, st, args, 3));
    OK(gg_stream_sync(st));
    double got = -1;
    OK(gg_copy_to_host(&got, dout, 0, sizeof got, NULL));
    const double want = how == 2 ? 0.0 : (double)v * (double)n;
    if (got != want) {
      if (!stale) fprintf(stderr, "sync copies: round %d (%s): sum %.17g, want %.17g\n", round,
                          how == 0 ? "from the host" : how == 1 ? "device to device" : "fill",
                          got, want);
      stale++;
    }
  }
  CHECK(stale == 0);
  gg_stream_free(st);
  gg_array_free(dx); gg_array_free(dy); gg_array_free(dout);
  free(x);
}

static void test_spaces(gg_context *ctx, gg_kernel *iota) {
  const long long n = 4097;
  const size_t bytes = n * sizeof(int);
  gg_space spaces[] = {GG_SPACE_DEVICE, GG_SPACE_MAPPED, GG_SPACE_MANAGED};
  int *want = malloc(bytes), *got = malloc(bytes);
  for (long long i = 0; i < n; i++) want[i] = (int)(3 * i + 1);
  gg_stream *st;
  OK(gg_stream_open(ctx, &st));
  for (int s = 0; s < 3; s++) {
    gg_array *a, *mirror, *copy;
    OK(gg_array_alloc(ctx, spaces[s], bytes, &a));
    CHECK(gg_array_space(a) == spaces[s] && gg_array_bytes(a) == bytes);
    CHECK((gg_array_host(a) != NULL) == (spaces[s] != GG_SPACE_DEVICE));
    OK(gg_fill_zero(a, NULL));
    gg_arg args[] = {gg_arg_array(a), gg_arg_i64(n)};
    OK(gg_launch(iota, st, args, 2));
    OK(gg_stream_sync(st));
    if (gg_array_host(a)) /* mapped and managed: read in place after the sync */
      CHECK(!memcmp(gg_array_host(a), want, bytes));
    /* explicit copies: array -> array, array -> mirror (async), mirror -> host */
    OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, bytes, &copy));
    OK(gg_copy(copy, 0, a, 0, bytes, NULL));
    OK(gg_array_mirror(copy, &mirror));
    CHECK(gg_array_space(mirror) == GG_SPACE_HOST && gg_array_bytes(mirror) == bytes);
    OK(gg_copy(mirror, 0, copy, 0, bytes, st));
    OK(gg_stream_sync(st));
    CHECK(!memcmp(gg_array_host(mirror), want, bytes));
    /* partial copy with offsets, and an out-of-range one refused */
    memset(got, 0, bytes);
    OK(gg_copy_to_host(got, a, 40, 400, NULL));
    CHECK(!memcmp(got, (char *)want + 40, 400));
    CHECK(gg_copy_to_host(got, a, bytes - 3, 4, NULL) == GG_ERR_INVALID);
    gg_array_free(mirror); gg_array_free(copy); gg_array_free(a);
  }
  /* host arrays are for copies, not kernels */
  gg_array *h;
  OK(gg_array_alloc(ctx, GG_SPACE_HOST, bytes, &h));
  gg_arg args[] = {gg_arg_array(h), gg_arg_i64(n)};
  CHECK(gg_launch(iota, NULL, args, 2) == GG_ERR_INVALID);
  CHECK(strstr(gg_error_detail(), "host array"));
  gg_array_free(h);
  /* events time something */
  gg_event *e0, *e1;
  gg_array *d;
  OK(gg_event_open(ctx, &e0)); OK(gg_event_open(ctx, &e1));
  OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, 64 << 20, &d));
  OK(gg_event_record(e0, st));
  OK(gg_fill_zero(d, st));
  OK(gg_event_record(e1, st));
  float ms = -1;
  OK(gg_event_elapsed_ms(e0, e1, &ms));
  CHECK(ms > 0 && ms < 1000);
  gg_array_free(d); gg_event_free(e0); gg_event_free(e1);
  gg_stream_free(st);
  free(want); free(got);
}

static void test_coop(gg_context *ctx, gg_kernel *k) {
  int resident = 0;
  OK(gg_kernel_max_resident_blocks(k, &resident));
  CHECK(resident >= gg_context_sm_count(ctx));
  gg_array *out, *scratch;
  OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, 2 * sizeof(long long), &out));
  OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)(resident + 1) * sizeof(long long), &scratch));
  gg_arg args[] = {gg_arg_array(out), gg_arg_array(scratch)};
  OK(gg_launch(k, NULL, args, 2));
  long long got[2] = {0, 0};
  OK(gg_copy_to_host(got, out, 0, sizeof got, NULL));
  CHECK(got[1] == resident && got[0] == (long long)resident * (resident + 1) / 2);
  OK(gg_launch_grid(k, NULL, 31, args, 2));
  OK(gg_copy_to_host(got, out, 0, sizeof got, NULL));
  CHECK(got[1] == 31 && got[0] == 31 * 32 / 2);
  gg_status st = gg_launch_grid(k, NULL, resident + 1, args, 2);
  printf("oversized cooperative grid: %s: %s\n", gg_strerror(st), gg_error_detail());
  CHECK(st == GG_ERR_NOT_CORESIDENT);
  char num[32];
  snprintf(num, sizeof num, "%d", resident);
  CHECK(strstr(gg_error_detail(), num) != NULL);
  gg_array_free(out); gg_array_free(scratch);
}

static void test_errors(gg_context *ctx) {
  /* a compile error in a body names the workload's file:line */
  static const char *bad_src =
    "struct gg_args_b { float *y; };\n"
    "extern \"C\" __global__ void gg_b(gg_args_b args) {\n"
    "#line 7 \"broken.lua\"\n"
    "  args.y[0] = not_declared;\n"
    "}\n";
  gg_module_desc bad = {GG_MODULE_ABI, "broken", "broken.lua", "test", bad_src, NULL, NULL, NULL, 0, NULL, 0, NULL};
  gg_module *m = NULL;
  gg_status st = gg_module_load(ctx, &bad, &m);
  printf("compile error: %s:\n%s\n", gg_strerror(st), gg_error_detail());
  CHECK(st == GG_ERR_COMPILE && m == NULL);
  CHECK(strstr(gg_error_detail(), "broken.lua:7"));
  /* out of memory */
  gg_array *a = NULL;
  st = gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)1 << 50, &a);
  printf("1 PiB: %s: %s\n", gg_strerror(st), gg_error_detail());
  CHECK(st == GG_ERR_OUT_OF_MEMORY && a == NULL);
  /* a module without a CUDA source */
  gg_module_desc nosrc = bad;
  nosrc.cuda_source = NULL;
  CHECK(gg_module_load(ctx, &nosrc, &m) == GG_ERR_UNSUPPORTED);
  gg_module_desc oldabi = bad;
  oldabi.abi = GG_MODULE_ABI + 1;
  CHECK(gg_module_load(ctx, &oldabi, &m) == GG_ERR_INVALID);
}

int main(void) {
  char dir[] = "/tmp/gg_gpu_cache_XXXXXX";
  if (!mkdtemp(dir)) return 1;
  setenv("GG_CACHE_DIR", dir, 1);
  gg_context *ctx = gg_check_open(NULL);
  gg_status st;
  printf("device: %s (%s, %d SMs), cache %s\n", gg_context_device_name(ctx), gg_context_arch(ctx),
         gg_context_sm_count(ctx), dir);
  make_descs();
  mod_desc = module;
  mod_desc.cuda_source = cuda_src;
  gg_module *m = NULL, *m2 = NULL;
  OK(gg_module_load(ctx, &mod_desc, &m));
  if (!m) return 1;
  CHECK(!m->from_cache);
  OK(gg_module_load(ctx, &mod_desc, &m2)); /* in-memory: the same module */
  CHECK(m2 == m);
  gg_module_free(m2);
  gg_kernel *saxpy, *iota, *sum, *coop, *none;
  OK(gg_kernel_get(m, "saxpy", &saxpy));
  OK(gg_kernel_get(m, "iota", &iota));
  OK(gg_kernel_get(m, "sum", &sum));
  OK(gg_kernel_get(m, "coop", &coop));
  CHECK(gg_kernel_get(m, "nope", &none) == GG_ERR_NOT_FOUND);
  /* listing the loaded module; a near miss is suggested and the names listed */
  CHECK(gg_module_kernel_count(m) == 4);
  CHECK(gg_module_kernel_name(m, 0) && !strcmp(gg_module_kernel_name(m, 0), "saxpy"));
  CHECK(gg_module_kernel_name(m, 3) && !strcmp(gg_module_kernel_name(m, 3), "coop"));
  CHECK(gg_module_kernel_name(m, 4) == NULL);
  CHECK(gg_module_describe(m) && gg_module_describe(m)->nkernels == 4);
  CHECK(gg_module_persistent_count(m) == 0 && gg_module_persistent_name(m, 0) == NULL);
  CHECK(gg_module_command_count(m, NULL) == -1);
  CHECK(gg_kernel_get(m, "saxpi", &none) == GG_ERR_NOT_FOUND && none == NULL);
  printf("kernel not found: %s\n", gg_error_detail());
  CHECK(strstr(gg_error_detail(), "no kernel named 'saxpi' (did you mean 'saxpy'?)"));
  CHECK(strstr(gg_error_detail(), "its kernels: saxpy, iota, sum, coop"));
  test_saxpy(ctx, saxpy);
  test_sum(ctx, sum);
  test_sync_copies(ctx, sum);
  test_spaces(ctx, iota);
  test_coop(ctx, coop);
  test_errors(ctx);
  OK(gg_device_sync(ctx));
  gg_context_free(ctx);

  /* a second context loads from the disk cache without opening the compiler */
  OK(gg_context_open(&ctx, NULL));
  OK(gg_module_load(ctx, &mod_desc, &m));
  CHECK(m && m->from_cache && ctx->rtc == NULL);
  if (m) {
    OK(gg_kernel_get(m, "saxpy", &saxpy));
    test_saxpy(ctx, saxpy);
  }
  gg_context_free(ctx);

  /* a module not in the cache needs NVRTC: CUDA_HOME pointing nowhere */
  setenv("CUDA_HOME", "/nonexistent/cuda", 1);
  OK(gg_context_open(&ctx, NULL));
  gg_module_desc other = mod_desc;
  other.cuda_source = "extern \"C\" __global__ void gg_other() {}\n";
  other.nkernels = 0;
  st = gg_module_load(ctx, &other, &m2);
  printf("CUDA_HOME=/nonexistent/cuda: %s: %s\n", gg_strerror(st), gg_error_detail());
  CHECK(st == GG_ERR_NO_LIBRARY && strstr(gg_error_detail(), "/nonexistent/cuda/lib64/libnvrtc"));
  gg_context_free(ctx);
  unsetenv("CUDA_HOME");

  /* missing driver library */
  setenv("GG_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
  gg_context_options o = {0};
  o.backend = GG_BACKEND_CUDA;
  st = gg_context_open(&ctx, &o);
  CHECK(st == GG_ERR_NO_LIBRARY && strstr(gg_error_detail(), "/nonexistent/libcuda.so.1"));
  unsetenv("GG_CUDA_LIBRARY");

  char cmd[200];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd)) fprintf(stderr, "could not remove %s\n", dir);
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("gpu runtime: all checks passed\n");
  return failures ? 1 : 0;
}
