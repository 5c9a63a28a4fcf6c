/*
 * Graphs (gg_graph_*) on a real GPU, through hand-written kernels: a
 * captured saxpy + workspace sum runs nothing until launched, each replay
 * does exactly one pass (checked against a CPU reference after N replays,
 * at sizes that are and are not powers of two), replays read the arrays'
 * current contents, and a capture of a kernel that needs gg_seq is refused
 * with its name while the stream stays usable.  Bad arguments are refused
 * before any GPU is needed.  Exits 77 where there is no GPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "../gg_check.h"
#include "../expect.h"

#define OK(call) do { gg_status st_ = (call); if (st_) { fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call, gg_strerror(st_), gg_error_detail()); failures++; } } while (0)

static const char *cuda_src =
  "struct gg_args_saxpy { float a; const float *x; float *y; long long n; };\n"
  "extern \"C\" __global__ void gg_saxpy(gg_args_saxpy args) {\n"
  "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
  "  if (i < args.n) args.y[i] = args.a * args.x[i] + args.y[i];\n"
  "}\n"
  /* sum of y into out[0] (double): partials in the workspace, the last
   * block adds them and leaves the workspace zeroed, as the contract asks
   * (that is what makes a frozen workspace address safe to replay) */
  "struct gg_args_sum { const float *y; double *out; long long n; void *gg_ws; };\n"
  "extern \"C\" __global__ void __launch_bounds__(256) gg_sum(gg_args_sum args) {\n"
  "  __shared__ double s[256];\n"
  "  __shared__ bool last;\n"
  "  unsigned *count = (unsigned *)args.gg_ws;\n"
  "  double *part = (double *)((char *)args.gg_ws + 16);\n"
  "  double acc = 0;\n"
  "  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < args.n; i += 256ll * gridDim.x) acc += args.y[i];\n"
  "  s[threadIdx.x] = acc; __syncthreads();\n"
  "  for (int w = 128; w > 0; w >>= 1) { if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w]; __syncthreads(); }\n"
  "  if (threadIdx.x == 0) { part[blockIdx.x] = s[0]; __threadfence(); last = atomicAdd(count, 1u) == gridDim.x - 1; }\n"
  "  __syncthreads();\n"
  "  if (last && threadIdx.x == 0) { __threadfence(); double t = 0;\n"
  "    for (unsigned b = 0; b < gridDim.x; b++) { t += ((volatile double *)part)[b]; part[b] = 0; }\n"
  "    args.out[0] = t; *count = 0; }\n"
  "}\n"
  /* stands for a scan: it needs a fresh gg_seq at every launch */
  "struct gg_args_stamp { unsigned *out; unsigned gg_seq; };\n"
  "extern \"C\" __global__ void gg_stamp(gg_args_stamp args) { args.out[0] = args.gg_seq; }\n";

#define P(name, kind, dt, rank, ext, hidden, off, size) \
  {name, kind, dt, rank, {{0, ext}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_INOUT, hidden, off, size}

static const gg_param_desc saxpy_p[] = {
  P("a", GG_PARAM_SCALAR, GG_F32, 0, -1, 0, 0, 4), P("x", GG_PARAM_VIEW, GG_F32, 1, 3, 0, 8, 8),
  P("y", GG_PARAM_VIEW, GG_F32, 1, 3, 0, 16, 8), P("n", GG_PARAM_EXTENT, GG_I64, 0, -1, 0, 24, 8)};
static const gg_param_desc sum_p[] = {
  P("y", GG_PARAM_VIEW, GG_F32, 1, 2, 0, 0, 8), P("out", GG_PARAM_VIEW, GG_F64, 1, -1, 0, 8, 8),
  P("n", GG_PARAM_EXTENT, GG_I64, 0, -1, 0, 16, 8),
  P("gg_ws", GG_PARAM_HIDDEN, GG_PTR, 0, -1, GG_HIDDEN_WORKSPACE, 24, 8)};
static const gg_param_desc stamp_p[] = {
  P("out", GG_PARAM_VIEW, GG_U32, 1, -1, 0, 0, 8),
  P("gg_seq", GG_PARAM_HIDDEN, GG_U32, 0, -1, GG_HIDDEN_SEQ, 8, 4)};

static gg_kernel_desc kernels[3];

static void make_descs(void) {
  gg_kernel_desc k = {0};
  k.rank = 1; k.block_size = 256; k.items_per_thread = 1; k.args_align = 8;
  k.range[0].param = 3;
  k.name = "saxpy"; k.symbol = "gg_saxpy"; k.args_size = 32; k.nparams = 4; k.params = saxpy_p;
  kernels[0] = k;
  k.range[0].param = 2; k.pattern = GG_PATTERN_REDUCE; k.cap_resident = 1;
  k.ws_fixed = 16; k.ws_per_block = 8;
  k.name = "sum"; k.symbol = "gg_sum"; k.args_size = 32; k.nparams = 4; k.params = sum_p;
  kernels[1] = k;
  memset(&k, 0, sizeof k);
  k.block_size = 32; k.items_per_thread = 1; k.args_align = 8; k.pattern = GG_PATTERN_SCAN;
  k.grid_rule = GG_GRID_FIXED; k.grid_fixed = 1;
  k.name = "stamp"; k.symbol = "gg_stamp"; k.args_size = 16; k.nparams = 2; k.params = stamp_p;
  kernels[2] = k;
}

static gg_module_desc mod_desc = {GG_MODULE_ABI, "graph_test", "graph_test.lua", "test", NULL, NULL,
                                  NULL, NULL, 3, kernels, 0, NULL};

/* Capture saxpy twice then sum, replay `reps` times; y gains 2*reps*a*x
 * (exact: small multiples of 0.5) and out the sum of the final y. */
static void test_replay(gg_context *ctx, gg_stream *s, gg_kernel *saxpy, gg_kernel *sum,
                        long long n, int reps) {
  size_t bytes = (size_t)n * sizeof(float);
  float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
  gg_array *dx = NULL, *dy = NULL, *dsum = NULL;
  gg_graph *g = NULL;
  for (long long i = 0; i < n; i++) { x[i] = (float)(i % 7) * 0.5f; y[i] = (float)(i % 13) - 6.0f; }
  OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, bytes, &dx));
  OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, bytes, &dy));
  OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof(double), &dsum));
  if (failures) goto done;
  OK(gg_copy_from_host(dx, 0, x, bytes, NULL));
  OK(gg_copy_from_host(dy, 0, y, bytes, NULL));
  OK(gg_fill_zero(dsum, NULL));

  const float a = 2.0f;
  gg_arg sa[] = {gg_arg_f32(a), gg_arg_array(dx), gg_arg_array(dy), gg_arg_i64(n)};
  gg_arg ua[] = {gg_arg_array(dy), gg_arg_array(dsum), gg_arg_i64(n)};
  OK(gg_graph_capture_begin(s, &g));
  if (!g) goto done;
  OK(gg_launch(saxpy, s, sa, 4));
  OK(gg_launch(saxpy, s, sa, 4));
  OK(gg_launch(sum, s, ua, 3));
  OK(gg_graph_capture_end(g));

  /* captured, not run: y is untouched */
  OK(gg_copy_to_host(out, dy, 0, bytes, NULL));
  long long bad = 0;
  for (long long i = 0; i < n; i++) bad += out[i] != y[i];
  CHECK(bad == 0);

  for (int r = 0; r < reps; r++) OK(gg_graph_launch(g, s));
  OK(gg_stream_sync(s));
  OK(gg_copy_to_host(out, dy, 0, bytes, NULL));
  double ref_sum = 0, got_sum = -1;
  bad = 0;
  for (long long i = 0; i < n; i++) {
    float ref = y[i];
    for (int k = 0; k < 2 * reps; k++) ref = a * x[i] + ref;
    bad += out[i] != ref;
    ref_sum += ref;
  }
  OK(gg_copy_to_host(&got_sum, dsum, 0, sizeof got_sum, NULL));
  CHECK(bad == 0);
  CHECK(got_sum == ref_sum);
  if (bad || got_sum != ref_sum)
    fprintf(stderr, "n = %lld, %d replays: %lld wrong y, sum %.17g expected %.17g\n", n, reps, bad,
            got_sum, ref_sum);

  /* replays read the arrays' contents now: x = 0 leaves y, re-sums it */
  OK(gg_fill_zero(dx, NULL));
  OK(gg_fill_zero(dsum, NULL));
  OK(gg_graph_launch(g, NULL)); /* the default stream works too */
  OK(gg_device_sync(ctx));
  OK(gg_copy_to_host(&got_sum, dsum, 0, sizeof got_sum, NULL));
  CHECK(got_sum == ref_sum);
done:
  gg_graph_free(g);
  gg_array_free(dx); gg_array_free(dy); gg_array_free(dsum);
  free(x); free(y); free(out);
}

/* A kernel that needs gg_seq is refused by name; the stream works after. */
static void test_refusal(gg_context *ctx, gg_stream *s, gg_kernel *stamp) {
  gg_array *o = NULL;
  gg_graph *g = NULL;
  unsigned seq1 = 0, seq2 = 0;
  OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, sizeof(unsigned), &o));
  if (!o) return;
  gg_arg args[] = {gg_arg_array(o)};
  OK(gg_graph_capture_begin(s, &g));
  OK(gg_launch(stamp, s, args, 1));
  CHECK(gg_graph_capture_end(g) == GG_ERR_UNSUPPORTED);
  CHECK(strstr(gg_error_detail(), "stamp") && strstr(gg_error_detail(), "gg_seq"));
  CHECK(gg_graph_launch(g, s) == GG_ERR_STATE);
  CHECK(gg_graph_capture_end(g) == GG_ERR_STATE);
  gg_graph_free(g);
  /* out of capture mode: launches run again, each with a new gg_seq */
  OK(gg_launch(stamp, s, args, 1));
  OK(gg_stream_sync(s));
  OK(gg_copy_to_host(&seq1, o, 0, sizeof seq1, NULL));
  OK(gg_launch(stamp, s, args, 1));
  OK(gg_stream_sync(s));
  OK(gg_copy_to_host(&seq2, o, 0, sizeof seq2, NULL));
  CHECK(seq1 != 0 && seq2 == seq1 + 1);

  /* freeing a graph mid-capture ends the capture and drops it */
  g = NULL;
  OK(gg_graph_capture_begin(s, &g));
  gg_graph_free(g);
  OK(gg_launch(stamp, s, args, 1));
  OK(gg_stream_sync(s));
  gg_array_free(o);
}

int main(void) {
  gg_context *ctx = NULL;
  gg_graph *g = (gg_graph *)&failures; /* must be cleared on refusal */
  /* refused before any GPU is needed */
  CHECK(gg_graph_capture_begin(NULL, &g) == GG_ERR_INVALID && g == NULL);
  CHECK(strstr(gg_error_detail(), "default stream") != NULL);
  CHECK(gg_graph_capture_end(NULL) == GG_ERR_INVALID);
  CHECK(gg_graph_launch(NULL, NULL) == GG_ERR_INVALID);
  gg_graph_free(NULL);

  if (failures)
    return 1;
  ctx = gg_check_open(NULL);
  if (gg_context_backend(ctx) != GG_BACKEND_CUDA) {
    gg_context_free(ctx);
    gg_check_skip("not a CUDA device: the test kernels are CUDA source");
  }
  make_descs();
  mod_desc.cuda_source = cuda_src;
  gg_module *mod = NULL;
  gg_kernel *saxpy = NULL, *sum = NULL, *stamp = NULL;
  gg_stream *s = NULL;
  OK(gg_module_load(ctx, &mod_desc, &mod));
  if (mod) {
    OK(gg_kernel_get(mod, "saxpy", &saxpy));
    OK(gg_kernel_get(mod, "sum", &sum));
    OK(gg_kernel_get(mod, "stamp", &stamp));
  }
  OK(gg_stream_open(ctx, &s));
  if (!failures) {
    static const long long sizes[] = {1, 1000, 1024, 4097, 1 << 20, 1000003};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) test_replay(ctx, s, saxpy, sum, sizes[i], 5);
    test_replay(ctx, s, saxpy, sum, 777, 100);
    test_refusal(ctx, s, stamp);
  }
  gg_stream_free(s);
  gg_module_free(mod);
  gg_context_free(ctx);
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("graphs: capture, replay, refusal: all checks passed\n");
  return 0;
}
