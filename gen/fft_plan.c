/*
 * fft_plan.c - the plan of an fft kernel (plan.h): the cuFFTDx block FFT it
 * instantiates (size, type, direction, precision, elements per thread),
 * its shared memory and the grid: one block per batch item (league =
 * batch), striding over the batch on any virtual grid.
 *
 * One FFT per block.  cuFFTDx's FFTsPerBlock puts several FFTs in a block
 * along threadIdx.y, and its code reads threadIdx.x / .y itself; gpugen's
 * blocks are one-dimensional (a persistent kernel's stages share them), so
 * a block runs its batch items one after another instead.  The thread count
 * (N / elements per thread) is decided here from cuFFTDx's database
 * (fft_sizes.c); fft.cuh checks that cuFFTDx agrees.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft_sizes.h"
#include "lex.h"
#include "patterns.h"
#include "plan.h"

static const ggi_fft_size *find(int n)
{
  for (int i = 0; i < ggi_fft_nsizes; i++)
    if (ggi_fft_sizes[i].n == n) return &ggi_fft_sizes[i];
  return NULL;
}

int ggi_fft_threads(int n, int f64, int out[GGI_FFT_MAX_EPTS])
{
  const ggi_fft_size *s = find(n);
  int c = 0;
  const unsigned char *ept = s ? (f64 ? s->f64 : s->f32) : NULL;
  while (ept && c < GGI_FFT_MAX_EPTS && ept[c]) {
    out[c] = n / ept[c];
    c++;
  }
  return c;
}

static const ggi_param *view(const ggi_kernel *k, int which)
{
  for (int i = 0; i < k->nparams; i++)
    if (strcmp(k->params[i].name, k->fft_view[which]) == 0) return &k->params[i];
  return NULL;
}

int ggi_fft_kernel_threads(const ggi_kernel *k, int out[GGI_FFT_MAX_EPTS])
{
  const ggi_param *in = view(k, 0);
  return in ? ggi_fft_threads(k->fft_size, in->dtype == GG_F64, out) : 0;
}

void ggi_fft_nearest(int n, int f64, int *below, int *above)
{
  *below = *above = 0;
  for (int i = 0; i < ggi_fft_nsizes; i++) {
    const ggi_fft_size *s = &ggi_fft_sizes[i];
    if (!(f64 ? s->f64 : s->f32)[0]) continue;
    if (s->n < n) *below = s->n;
    if (s->n > n && !*above) *above = s->n;
  }
}

/* The most threads of whole warps up to 256 cuFFTDx has for the size;
 * without one, the fewest whole warps above 256, and where the size has
 * no whole-warp count at all, the most threads.  cuFFTDx's defaults
 * assume several FFTs share a block; gpugen's block runs one at a time,
 * so more threads per FFT is more of the block at work.  Measured on the
 * H100 (bench/mathdx_bench, a batch of 64 c2c f32 FFTs as a frame, p50):
 * 1024 points on 32 / 128 / 256 / 512 threads 19.9 / 9.3 / 7.5 / 8.1 us,
 * 256 points on 32 / 64 / 128 threads 12.4 / 10.0 / 7.7 us.  Whole warps
 * also let a persistent kernel (block a multiple of 32) run the FFT as a
 * command or a frame stage. */
int ggi_fft_auto_threads(const int *threads, int n)
{
  int upto = 0, above = 0, most = threads[0];
  for (int i = 0; i < n; i++) {
    const int t = threads[i];
    if (t > most) most = t;
    if (t % 32) continue;
    if (t <= 256 && t > upto) upto = t;
    if (t > 256 && (!above || t < above)) above = t;
  }
  return upto ? upto : above ? above : most;
}

/* Item b of the view is the b-th run of an item's values, in natural
 * order: layout right, or a rank-1 left view (one real FFT, no batch:
 * left and right are one layout). */
static int contiguous(const ggi_param *p)
{
  return p->layout == GG_LAYOUT_RIGHT || (p->layout == GG_LAYOUT_LEFT && p->rank == 1);
}

/* Contiguous views: c2c through registers (its register layout is
 * natural order with a stride of the FFT's threads, in and out, so a warp
 * moves 32 consecutive complex values with one 8- or 16-byte access per
 * thread, fft.cuh); r2c and c2r pack real data into registers their own
 * way, which cuFFTDx's shared-memory API takes care of, so they go
 * through shared memory, copied as flat runs of reals (coalesced).  Both
 * were measured on the H100 (bench/fft_chain_bench).  Any other layout
 * (left: items interleaved, split re / im planes; stride: cuFFT's
 * istride / idist, padding): an item is no run, so every type goes
 * through shared memory, each element read and written at its view's own
 * address - one code for every type, and every load done before the
 * transform and every store after it, so in place stays correct. */
int ggi_fft_path(const ggi_kernel *k)
{
  const ggi_param *in = view(k, 0), *out = view(k, 1);
  if (!in || !out || !contiguous(in) || !contiguous(out)) return GGI_FFT_VIEWS;
  return k->fft_type == 0 ? GGI_FFT_REGISTERS : GGI_FFT_SHARED;
}

static int put_int(ggi_plan *p, ggi_arena *a, const char *key, long long v)
{
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", v);
  return ggi_plan_set(p, a, key, buf);
}

/* The views path's element gg_i (its part gg_c: 0 re, 1 im) of item
 * gg_item of view v, as a call of v's view macro - the addressing every
 * pattern's body uses (dict.c), so fft.cuh holds no layout rule of its
 * own: FFT_<side>_AT = V(gg_item, gg_i, gg_c), without gg_item when the
 * view has no batch extent, without gg_c when it is real; _ELEMS: the
 * item's elements (len reals), _PARTS: the reals of one. */
static int put_element(ggi_plan *p, ggi_arena *a, const char *side, const ggi_param *v, int cplx,
                       long long len)
{
  const int batch = v->rank == (cplx ? 3 : 2), parts = cplx ? 2 : 1;
  char key[32], at[128]; /* a name is at most 64 characters (names.c) */
  snprintf(at, sizeof at, "%s(%sgg_i%s)", v->name, batch ? "gg_item, " : "", cplx ? ", gg_c" : "");
  snprintf(key, sizeof key, "FFT_%s_AT", side);
  int rc = ggi_plan_set(p, a, ggi_strdup(a, key), at);
  snprintf(key, sizeof key, "FFT_%s_ELEMS", side);
  rc |= put_int(p, a, ggi_strdup(a, key), len / parts);
  snprintf(key, sizeof key, "FFT_%s_PARTS", side);
  return rc | put_int(p, a, ggi_strdup(a, key), parts);
}

int ggi_fft_plan(const ggi_kernel *k, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d)
{
  const ggi_param *in = view(k, 0), *out = view(k, 1);
  if (!in || !out) return ggi_fail(d, "fft views missing (a gpugen bug)");
  if (target != GGI_TARGET_CUDA) return ggi_fail(d, "pattern \"fft\" is CUDA only (cuFFTDx)");
  const int n = k->fft_size, threads = k->spec.block, half = n / 2 + 1;
  const unsigned real = (unsigned)ggi_dtype_size(in->dtype);
  /* Shared memory: the FFT's input and output live there (cuFFTDx's
   * shared-memory API: coalesced loads and stores whatever its register
   * layout), and cuFFTDx exchanges through the same bytes.  N complex
   * values hold the input and the output of every type (N/2+1 complex or
   * N reals for r2c / c2r) and, checked over its whole database by
   * scripts/fft-sizes.py, cuFFTDx's exchange; fft.cuh asserts it again. */
  const unsigned smem = (unsigned)n * 2u * real;
  const long long in_len = k->fft_type == 1 ? n : 2LL * (k->fft_type == 2 ? half : n);
  const long long out_len = k->fft_type == 2 ? n : 2LL * (k->fft_type == 1 ? half : n);
  p->grid_rule = GG_GRID_LEAGUE; /* one block per batch item */
  p->shared_bytes = smem;
  /* cuFFTDx's block_dim is the block: exactly that many threads, the whole
     hardware block (it reads threadIdx.x and synchronizes with
     __syncthreads) */
  p->min_threads = p->max_threads = threads;
  p->whole_block = 1;
  p->features |= GG_FEAT_MATHDX;
  int rc = 0;
  rc |= put_int(p, a, "FFT_N", n);
  rc |= put_int(p, a, "FFT_EPT", n / threads);
  rc |= put_int(p, a, "FFT_SMEM", smem);
  rc |= put_int(p, a, "FFT_IN_LEN", in_len);   /* reals per batch item */
  rc |= put_int(p, a, "FFT_OUT_LEN", out_len);
  rc |= put_int(p, a, "FFT_PATH", ggi_fft_path(k)); /* GGI_FFT_REGISTERS, _SHARED, _VIEWS */
  rc |= put_element(p, a, "IN", in, k->fft_type != 1, in_len);
  rc |= put_element(p, a, "OUT", out, k->fft_type != 2, out_len);
  rc |= ggi_plan_set(p, a, "FFT_TYPE", ggi_fft_type_names[k->fft_type]);
  rc |= ggi_plan_set(p, a, "FFT_DIR", ggi_fft_dir_names[k->fft_inverse]);
  rc |= ggi_plan_set(p, a, "FFT_T", ggi_dtype_ctype(in->dtype));
  rc |= ggi_plan_set(p, a, "FFT_IN", in->name);
  rc |= ggi_plan_set(p, a, "FFT_OUT", out->name);
  rc |= put_int(p, a, "FFT_POST", k->body != NULL);
  /* a round trip's way back: the opposite direction (else the same
     transform again, never run: fft.cuh's second descriptor stays valid
     for r2c and c2r) */
  rc |= put_int(p, a, "FFT_ROUNDTRIP", k->fft_between != NULL);
  rc |= ggi_plan_set(p, a, "FFT_BACK_DIR", ggi_fft_dir_names[k->fft_inverse ^ (k->fft_between != NULL)]);
  if (rc) return ggi_fail(d, "out of memory");
  /* fft.cuh (the transform and the item loop), then the body: plain, or
     with the post statements' contributions combined (one block per item
     but no more than are co-resident) */
  return ggi_contribute_pieces(k, a, p, d, "common/fft.cuh", "common/fft_tail.cuh",
                               "common/fft_reduce_tail.cuh");
}

/* As a frame stage, an fft touches only its item's slice of a batch view
 * (fft.cuh), unless its post or between statements name the view too
 * (the row's item_only, read by the frame schedule). */
int ggi_fft_own_item(const ggi_kernel *k, const ggi_param *view)
{
  return !ggi_text_may_name(k->body, view->name) && !ggi_text_may_name(k->fft_between, view->name);
}
