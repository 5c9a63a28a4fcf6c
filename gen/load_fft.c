/*
 * load_fft.c - the fields of pattern "fft" (a cuFFTDx block FFT per batch
 * item): size, direction, type, the views input / output and block, each
 * checked with "file:line:" on the first mistake.
 *
 * There is no complex element type: a complex array is a view whose last
 * extent is 2 (re, im interleaved, the layout of cuFFT's cufftComplex and
 * of C99's float complex), so X(b, i, 0) is the real part of element i.
 * The views may have any layout: right (contiguous), left (batch fastest:
 * items interleaved, re and im in two planes) or stride (run-time strides,
 * cuFFT's istride / idist and padded items).
 */
#include <stdio.h>
#include <string.h>

#include <lua.h>

#include "body_check.h"
#include "lex.h"
#include "fft_sizes.h"
#include "loader.h"
#include "vocab.h"

const char *const ggi_fft_type_names[] = {"c2c", "r2c", "c2r", NULL};
const char *const ggi_fft_dir_names[] = {"forward", "inverse", NULL};

enum { FFT_C2C, FFT_R2C, FFT_C2R };

/* size = N: an integer; whether cuFFTDx has it is checked once the
 * precision (the views' type) is known. */
static void read_size(ggi_decl *k, ggi_kernel *kn)
{
  lua_State *L = k->c->L;
  int line = ggi_field_line(k, "size");
  int t = ggi_push_field(k, "size"), isint = 0;
  /* a number only: lua_tointegerx would also take the string "8" */
  lua_Integer v = t == LUA_TNUMBER ? lua_tointegerx(L, -1, &isint) : 0;
  lua_pop(L, 1);
  if (t == LUA_TNIL)
    ggi_decl_fail(k, k->line, "field 'size' is missing; give the FFT's length N (an integer, "
                  "static: cuFFTDx compiles it in)");
  if (!isint || v < 2 || v > 16384)
    ggi_decl_fail(k, line, "field 'size' must be an integer 2..16384 (the FFT's length N, static: "
                  "cuFFTDx compiles it in; f64 up to 8192)");
  kn->fft_size = (int)v;
}

/* direction: forward by default; r2c is a forward FFT, c2r an inverse one. */
static void read_direction(ggi_decl *k, ggi_kernel *kn)
{
  int d = ggi_opt_enum(k, "direction", ggi_fft_dir_names, -1);
  int want = kn->fft_type == FFT_C2R;
  if (d >= 0 && kn->fft_type != FFT_C2C && d != want)
    ggi_decl_fail(k, ggi_field_line(k, "direction"), "field 'direction' is \"%s\" but type \"%s\" "
                  "is always %s: write direction = \"%s\" or leave it out",
                  ggi_fft_dir_names[d], ggi_fft_type_names[kn->fft_type],
                  want ? "an inverse FFT (complex to real)" : "a forward FFT (real to complex)",
                  ggi_fft_dir_names[want]);
  kn->fft_inverse = d >= 0 ? d : want;
}

/* The view behind field f (input / output), with its access checked. */
static const ggi_param *find_view(ggi_decl *k, ggi_kernel *kn, int which)
{
  const char *f = which ? "output" : "input";
  int line = ggi_field_line(k, f);
  const char *name = ggi_opt_string(k, f);
  if (!name)
    ggi_decl_fail(k, k->line, "field '%s' is missing; name the view holding the FFT's %s", f, f);
  const ggi_param *p = ggi_find_param(kn, name);
  if (!p || p->kind != GG_PARAM_VIEW)
    ggi_decl_fail(k, line, "field '%s' must name a view parameter; \"%s\" is %s", f, name,
                  p ? "a scalar" : "not a parameter");
  kn->fft_view[which] = name;
  return p;
}

static void check_access(ggi_decl *k, const ggi_param *in, const ggi_param *out)
{
  if (in == out) {
    if (in->access != GG_ACCESS_INOUT)
      ggi_decl_fail(k, in->line, "view \"%s\" is the input and the output (in place): give it "
                    "access = \"inout\", got \"%s\"", in->name, ggi_access_names[in->access]);
    return;
  }
  if (in->access != GG_ACCESS_IN)
    ggi_decl_fail(k, in->line, "view \"%s\" is the FFT's input, only read: give it access = "
                  "\"in\", got \"%s\"", in->name, ggi_access_names[in->access]);
  if (out->access != GG_ACCESS_OUT && out->access != GG_ACCESS_INOUT)
    ggi_decl_fail(k, out->line, "view \"%s\" is the FFT's output: give it access = \"out\", got "
                  "\"%s\"", out->name, ggi_access_names[out->access]);
}

/* A view's shape: complex [len][2] or real [len], with an optional batch
 * extent in front; any layout (the plan picks the data path from it). */
static void check_shape(ggi_decl *k, const ggi_param *p, const char *role, int cplx, int len)
{
  const int base = cplx ? 2 : 1;
  /* the last `base` extents, when the view has that many (a scalar or a
     too-short view has not: no pointer before ext[0]) */
  const ggi_extent *e = p->rank >= base ? &p->ext[p->rank - base] : NULL;
  int ok = e && (p->rank == base || p->rank == base + 1) &&
           !e[0].name && e[0].value == len && (!cplx || (!e[1].name && e[1].value == 2));
  if (ok) return;
  char got[160];
  ggi_extents_text(p, got, sizeof got);
  if (p->layout != GG_LAYOUT_RIGHT) {
    size_t used = strlen(got);
    snprintf(got + used, sizeof got - used, " (layout \"%s\")", ggi_layout_names[p->layout]);
  }
  if (cplx)
    ggi_decl_fail(k, p->line, "view \"%s\": the %s here is %d complex values: %s[%d][2] "
                  "(re, im pairs) or %s[batch][%d][2], in any layout, got %s%s", p->name, role,
                  len, ggi_dtype_name(p->dtype), len, ggi_dtype_name(p->dtype), len,
                  ggi_dtype_name(p->dtype), got);
  ggi_decl_fail(k, p->line, "view \"%s\": the %s here is %d real values: %s[%d] or "
                "%s[batch][%d], in any layout, got %s%s", p->name, role, len,
                ggi_dtype_name(p->dtype), len, ggi_dtype_name(p->dtype), len,
                ggi_dtype_name(p->dtype), got);
}

/* The batch: the views' first extent when they have one (the same for
 * both), else one FFT. */
static void read_batch(ggi_decl *k, ggi_kernel *kn, const ggi_param *in, const ggi_param *out)
{
  int bin = in->rank == (kn->fft_type == FFT_R2C ? 2 : 3);
  int bout = out->rank == (kn->fft_type == FFT_C2R ? 2 : 3);
  if (bin != bout)
    ggi_decl_fail(k, out->line, "view \"%s\" %s a batch extent but \"%s\" %s: give both one (the "
                  "same) or neither", out->name, bout ? "has" : "has no", in->name,
                  bin ? "has" : "has none");
  kn->league = (ggi_extent){NULL, 1};
  if (!bin) return;
  if (!ggi_same_extent(in->ext[0], out->ext[0])) {
    char a[64], b[64];
    ggi_decl_fail(k, out->line, "view \"%s\": batch extent [%s] differs from \"%s\"'s [%s]; the "
                  "input and the output have one batch", out->name,
                  ggi_extent_text(out->ext[0], a, sizeof a), in->name,
                  ggi_extent_text(in->ext[0], b, sizeof b));
  }
  kn->league = in->ext[0];
}

/* Is N a size cuFFTDx has in this precision (on every arch)? */
static void check_size(ggi_decl *k, const ggi_kernel *kn, gg_dtype t)
{
  int threads[GGI_FFT_MAX_EPTS], below, above;
  if (ggi_fft_threads(kn->fft_size, t == GG_F64, threads) > 0) return;
  ggi_fft_nearest(kn->fft_size, t == GG_F64, &below, &above);
  char near[96] = "";
  if (below && above) snprintf(near, sizeof near, "sizes it has are %d and %d", below, above);
  else snprintf(near, sizeof near, "size it has is %d", below ? below : above);
  ggi_decl_fail(k, ggi_field_line(k, "size"), "field 'size': cuFFTDx has no %s block FFT of %d "
                "points on every arch; the nearest %s (all of 2..64, then "
                "products of small primes up to %s: docs/language.md lists them)",
                ggi_dtype_name(t), kn->fft_size, near, t == GG_F64 ? "8192" : "16384");
}

/* block = the threads of one FFT: N / elements per thread, one of the
 * values cuFFTDx has for this size. */
static void read_block(ggi_decl *k, ggi_kernel *kn, gg_dtype t)
{
  int64_t b;
  int bt = ggi_push_field(k, "block");
  lua_pop(k->c->L, 1);
  if (bt == LUA_TSTRING) {
    const char *v = ggi_opt_string(k, "block");
    if (strcmp(v, "auto") != 0)
      ggi_decl_fail(k, ggi_field_line(k, "block"), "field 'block' is \"%s\": give the threads of "
                    "one FFT (an integer) or \"auto\" (the plan's count, and a kernel for each "
                    "other count of whole warps cuFFTDx has, which gg_session_tune measures)", v);
    kn->fft_block_auto = 1;
    return;
  }
  if (!ggi_opt_int(k, "block", &b)) return;
  int threads[GGI_FFT_MAX_EPTS];
  int n = ggi_fft_threads(kn->fft_size, t == GG_F64, threads);
  char list[128] = "";
  for (int i = 0; i < n; i++)
    if (threads[i] == b) {
      kn->block = (int)b;
      return;
    }
  for (int t = 1, any = 0; t <= kn->fft_size; t++) /* ascending */
    for (int i = 0; i < n; i++)
      if (threads[i] == t) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%d", any++ ? ", " : "", t);
      }
  ggi_decl_fail(k, ggi_field_line(k, "block"), "field 'block' is the threads of one FFT (N / "
                "elements per thread); for a %d-point %s FFT cuFFTDx has %s, got %lld",
                kn->fft_size, ggi_dtype_name(t), list, (long long)b);
}

/* between = "statements": a round trip, the fast convolution of a
 * matched filter: the transform, the statements on each element of its
 * result (in the thread that holds it: item, i, re, im as in post), then
 * the opposite transform back to the output - one pass over memory
 * instead of an FFT, a pointwise kernel and an inverse FFT.  c2c only:
 * the real types' two sides differ in length. */
static void read_between(ggi_decl *k, ggi_kernel *kn)
{
  kn->fft_between = ggi_opt_string(k, "between");
  kn->fft_between_line = ggi_text_line(k, "between");
  if (kn->fft_between && kn->fft_type != FFT_C2C)
    ggi_decl_fail(k, ggi_field_line(k, "between"), "field 'between' makes a round trip (the "
                  "transform, the statements, the opposite transform) of a c2c FFT; type \"%s\" "
                  "has sides of different lengths: write an r2c and a c2r kernel, the statements "
                  "as the first one's post, in one frame", ggi_fft_type_names[kn->fft_type]);
}

/* post = "statements": cuFFT's store callback.  They run once for each
 * element of the output, in the thread that holds it, after the
 * transform and before the store: item (long long, the batch item), i
 * (int, the element, natural order), re and im (references to its
 * value; a real output's im is a scratch 0) are theirs to read and
 * change, every view and scalar of the kernel theirs to read, and with
 * into they may contribute(v0, ...) to a reduction like a team body. */
static void read_post(ggi_decl *k, ggi_kernel *kn)
{
  static const char *const names[] = {"item", "i", "re", "im", NULL};
  kn->body = ggi_opt_string(k, "post");
  kn->body_line = ggi_text_line(k, "post");
  read_between(k, kn);
  ggi_read_contributions(k, kn);
  if (!kn->body && !kn->fft_between) {
    if (kn->into)
      ggi_decl_fail(k, ggi_field_line(k, "into"), "field 'into': an fft reduces what its post "
                    "(or between) statements contribute(v); give post = \"... contribute(re * re "
                    "+ im * im); ...\" or leave into out");
    return;
  }
  if (kn->into && !ggi_text_names(kn->body, "contribute") &&
      !ggi_text_names(kn->fft_between, "contribute"))
    ggi_decl_fail(k, kn->body_line ? kn->body_line : kn->fft_between_line, "fields 'post' and "
                  "'between' never call contribute(), so into \"%s\" would only get the "
                  "identity: contribute(v) the values to reduce, or leave into out", kn->into);
  ggi_check_element_names(k, kn, names, "an fft's post and between statements see item, i, re "
                          "and im (the batch item, the element and its value)");
  char out[160];
  snprintf(out, sizeof out, "the FFT's output%s", strcmp(kn->fft_view[1], kn->fft_view[0]) == 0
                                                      ? " (and input, in place)" : "");
  ggi_check_element_statements(k, kn, kn->body, kn->body_line, "post", kn->fft_view[1], out);
  ggi_check_element_statements(k, kn, kn->fft_between, kn->fft_between_line, "between",
                               kn->fft_view[1], out);
  /* the between statements get the checks ggi_convert_kernel gives the
     body (post): no write to an in view, as many indices as the rank */
  ggi_kernel between = *kn;
  between.body = kn->fft_between;
  between.body_line = kn->fft_between_line;
  ggi_diag why;
  int at;
  if (kn->fft_between && ggi_body_check(&between, &at, &why)) ggi_decl_fail(k, at, "%s", why.msg);
}

void ggi_read_fft(ggi_decl *k, ggi_kernel *kn)
{
  if (kn->targets & GGI_TARGET_HIP)
    ggi_decl_fail(k, k->line, "pattern \"fft\" is CUDA only (it is a cuFFTDx block FFT, which "
                  "has no HIP port): declare module { targets = { \"cuda\" } }");
  read_size(k, kn);
  kn->fft_type = ggi_opt_enum(k, "type", ggi_fft_type_names, FFT_C2C);
  read_direction(k, kn);
  const ggi_param *in = find_view(k, kn, 0), *out = find_view(k, kn, 1);
  if (in == out && kn->fft_type != FFT_C2C)
    ggi_decl_fail(k, ggi_field_line(k, "output"), "fields 'input' and 'output' name the same view "
                  "\"%s\": only a c2c FFT runs in place (the real and complex sides of %s have "
                  "different lengths); give the output its own view", in->name,
                  ggi_fft_type_names[kn->fft_type]);
  check_access(k, in, out);
  gg_dtype t = in->dtype;
  if (t != GG_F32 && t != GG_F64)
    ggi_decl_fail(k, in->line, "view \"%s\": fft takes f32 or f64 data, got %s", in->name,
                  ggi_dtype_name(t));
  if (out->dtype != t)
    ggi_decl_fail(k, out->line, "view \"%s\" is %s but \"%s\" is %s: the input and the output "
                  "have one precision", out->name, ggi_dtype_name(out->dtype), in->name,
                  ggi_dtype_name(t));
  const int n = kn->fft_size, half = n / 2 + 1;
  check_shape(k, in, "input", kn->fft_type != FFT_R2C, kn->fft_type == FFT_C2R ? half : n);
  check_shape(k, out, "output", kn->fft_type != FFT_C2R, kn->fft_type == FFT_R2C ? half : n);
  read_batch(k, kn, in, out);
  check_size(k, kn, t);
  read_block(k, kn, t);
  read_post(k, kn);
}
