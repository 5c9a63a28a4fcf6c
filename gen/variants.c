/*
 * variants.c - gemm tile = "auto" (variants.h): the kernel keeps the
 * plan's tile, and each other candidate tile of gemm_plan.c
 * (ggi_gemm_tile_candidates) becomes a kernel of its own,
 * "<name>_tile<tm>x<tn>x<tk>", with that tile written in, marked a
 * variant of it (variant_of, in the module's descriptor).  Every
 * persistent kernel that has the kernel as a command gets its variants as
 * commands too, so gg_session_tune can measure them there and choose.
 * A frame with such a kernel as a stage gets a variant frame for each of
 * the stage's variants - the same stages, that one running the variant -
 * named "<frame>_tile<tm>x<tn>x<tk>" ("<frame>_s<stage>_tile..." when
 * several of its stages have variants; stages counted from 1, as
 * messages do), marked a variant of the frame: it is a command wherever
 * the frame is.  A variant has the block of its kernel, so it runs on
 * the same persistent kernels.  Frames on several GPUs get none.
 */
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "fft_sizes.h"
#include "frame.h"
#include "names.h"
#include "plan.h"
#include "variants.h"

#define VARIANTS_MAX 3 /* besides the plan's tile: ggi_gemm_tile_candidates gives at most 4 */

/* Is `name` among kernels ks[0 .. nk) or persistent kernels ps[0 .. np)? */
static int taken(const ggi_kernel *ks, int nk, const ggi_persistent *ps, int np, const char *name)
{
  for (int i = 0; i < nk; i++)
    if (strcmp(ks[i].name, name) == 0) return ks[i].line > 0 ? ks[i].line : 1;
  for (int i = 0; i < np; i++)
    if (strcmp(ps[i].name, name) == 0) return ps[i].line > 0 ? ps[i].line : 1;
  return 0;
}

/* A copy of kernel ks[bi] appended at ks[*nk], named after it with
 * `suffix` and marked its variant; NULL with d->msg when the name is too
 * long or taken.  `what` names the knob in messages. */
static ggi_kernel *new_variant(ggi_module *m, ggi_kernel *ks, int *nk, int bi, const char *suffix,
                               const char *what, ggi_diag *d)
{
  char name[160], who[100];
  snprintf(name, sizeof name, "%s%s", ks[bi].name, suffix);
  if (ks[bi].frame)
    snprintf(who, sizeof who, "frame \"%s\"", ks[bi].name);
  else
    snprintf(who, sizeof who, "kernel \"%s\"", ks[bi].name);
  if (strlen(name) > GGI_NAME_MAX) {
    ggi_fail_at(d, m->file, ks[bi].line, "%s: %s names its variants like %s, longer than a "
                "name may be (%d characters): shorten the %s's name", who, what, name,
                GGI_NAME_MAX, ks[bi].frame ? "frame" : "kernel");
    return NULL;
  }
  const int other = taken(ks, *nk, m->persistent, m->npersistent, name);
  if (other) {
    ggi_fail_at(d, m->file, ks[bi].line, "%s: %s makes a variant called %s, a name already "
                "taken (line %d, or made by another \"auto\"): rename that declaration, or "
                "this %s", who, what, name, other, ks[bi].frame ? "frame" : "kernel");
    return NULL;
  }
  ggi_kernel *k = &ks[*nk];
  *k = ks[bi];
  k->name = ggi_strdup(m->arena, name);
  if (!k->name) {
    ggi_fail_at(d, m->file, ks[bi].line, "out of memory");
    return NULL;
  }
  k->variant_of = bi + 1;
  (*nk)++;
  return k;
}

/* The tile variants of gemm ks[bi] appended at ks[*nk]. */
static int add_variants(ggi_module *m, ggi_kernel *ks, int *nk, int bi, ggi_diag *d)
{
  int tiles[VARIANTS_MAX + 1][3];
  const int n = ggi_gemm_tile_candidates(&ks[bi], tiles, VARIANTS_MAX + 1);
  for (int v = 1; v < n; v++) { /* tiles[0] is the plan's: the kernel itself */
    char suffix[48];
    snprintf(suffix, sizeof suffix, "_tile%dx%dx%d", tiles[v][0], tiles[v][1], tiles[v][2]);
    ggi_kernel *k = new_variant(m, ks, nk, bi, suffix, "tile = \"auto\"", d);
    if (!k) return -1;
    memcpy(k->gemm_tile, tiles[v], sizeof k->gemm_tile);
    k->gemm_tile_auto = 0;
  }
  return 0;
}

/* The thread counts an fft with block = "auto" has variants for: each
 * other count cuFFTDx has for its size that is whole warps (a persistent
 * kernel's block is) and fits a block, ascending; the plan's own count
 * (ggi_fft_auto_threads) is the kernel itself. */
static int thread_counts(const ggi_kernel *k, int out[GGI_FFT_MAX_EPTS])
{
  int threads[GGI_FFT_MAX_EPTS], c = 0;
  const int n = ggi_fft_kernel_threads(k, threads);
  const int own = n > 0 ? ggi_fft_auto_threads(threads, n) : 0;
  for (int t = 32; t <= GG_BLOCK_THREADS_MAX; t += 32)
    for (int i = 0; i < n; i++)
      if (threads[i] == t && t != own) out[c++] = t;
  return c;
}

/* The thread-count variants of fft ks[bi] appended at ks[*nk]: block
 * written in.  Unlike a tile variant, one is not a command where the fft
 * is (that kernel's block is another): ggi_expand_thread_variants gives
 * each a persistent kernel of its own. */
static int add_thread_variants(ggi_module *m, ggi_kernel *ks, int *nk, int bi, ggi_diag *d)
{
  int counts[GGI_FFT_MAX_EPTS];
  const int n = thread_counts(&ks[bi], counts);
  for (int v = 0; v < n; v++) {
    char suffix[24];
    snprintf(suffix, sizeof suffix, "_threads%d", counts[v]);
    ggi_kernel *k = new_variant(m, ks, nk, bi, suffix, "block = \"auto\"", d);
    if (!k) return -1;
    k->block = k->variant_threads = counts[v];
    k->fft_block_auto = 0;
  }
  return 0;
}

/* Stage s of a frame runs a kernel with tile = "auto".  A frame on
 * several GPUs gets no variants: gg_session_tune leaves team kernels out
 * (a team cannot tune alone), and its exchange stages' own kernels are
 * the frame's. */
static int auto_stage(const ggi_kernel *ks, const ggi_kernel *fr, int s)
{
  const int ki = fr->frame->stages[s].kernel_index;
  return fr->frame->gpus <= 1 && ki >= 0 && ks[ki].gemm_tile_auto;
}

static int auto_stages(const ggi_kernel *ks, const ggi_kernel *fr)
{
  int n = 0;
  for (int s = 0; fr->frame && s < fr->frame->nstages; s++) n += auto_stage(ks, fr, s);
  return n;
}

int ggi_next_variant(const ggi_kernel *ks, int nk, int base, int from)
{
  for (int v = from; v < nk; v++)
    if (ks[v].variant_of == base + 1) return v;
  return -1;
}

/* The variants of frame `fr` (index fi) appended at ks[*nk]: one for
 * each tile variant of each of its stages' kernels (already at ks[0 ..
 * *nk), marked variant_of). */
static int add_frame_variants(ggi_module *m, ggi_kernel *ks, int *nk, int fi, ggi_diag *d)
{
  const int end = *nk;
  int several = 0; /* stages whose kernel has variants (an auto tile may have none) */
  for (int s = 0; s < ks[fi].frame->nstages; s++)
    several += auto_stage(ks, &ks[fi], s) &&
               ggi_next_variant(ks, end, ks[fi].frame->stages[s].kernel_index, 0) >= 0;
  several = several > 1;
  for (int s = 0; s < ks[fi].frame->nstages; s++) {
    if (!auto_stage(ks, &ks[fi], s)) continue;
    const int base = ks[fi].frame->stages[s].kernel_index;
    for (int v = ggi_next_variant(ks, end, base, 0); v >= 0;
         v = ggi_next_variant(ks, end, base, v + 1)) {
      char name[200], stage[16] = "";
      const char *tile = strstr(ks[v].name + strlen(ks[base].name), "_tile");
      if (several) snprintf(stage, sizeof stage, "_s%d", s + 1);
      snprintf(name, sizeof name, "%s%s%s", ks[fi].name, stage, tile ? tile : "_tile");
      if (strlen(name) > GGI_NAME_MAX)
        return ggi_fail_at(d, m->file, ks[fi].line, "frame \"%s\": its stage %d's tile = "
                           "\"auto\" names the frame's variants like %s, longer than a name may "
                           "be (%d characters): shorten the frame's name", ks[fi].name, s + 1,
                           name, GGI_NAME_MAX);
      const int other = taken(ks, *nk, m->persistent, m->npersistent, name);
      if (other)
        return ggi_fail_at(d, m->file, ks[fi].line, "frame \"%s\": its stage %d's tile = "
                           "\"auto\" makes a variant frame called %s, a name already taken "
                           "(line %d: declared there, or made by another tile = \"auto\"): "
                           "rename the frame or the other", ks[fi].name, s + 1, name, other);
      ggi_frame *f = ggi_alloc(m->arena, sizeof *f);
      const char *own = ggi_strdup(m->arena, name);
      if (!f || !own) return ggi_fail_at(d, m->file, ks[fi].line, "out of memory");
      ggi_kernel *k = &ks[(*nk)++];
      *k = ks[fi];
      k->name = own;
      *f = *ks[fi].frame;
      f->stages[s].kernel_index = v;
      k->frame = f;
      k->variant_of = fi + 1;
    }
  }
  return 0;
}

/* Persistent kernel p's commands with each command's variants after it. */
static int add_commands(ggi_module *m, ggi_persistent *p, ggi_diag *d)
{
  const char *names[GG_COMMANDS_MAX];
  int index[GG_COMMANDS_MAX], n = 0;
  for (int c = 0; c < p->ncommands; c++) {
    const int ci = p->command_index[c];
    for (int ki = ci; ki >= 0; /* the command, then its tile variants */
         ki = ggi_next_variant(m->kernels, m->nkernels, ci, ki == ci ? 0 : ki + 1)) {
      if (m->kernels[ki].variant_threads) continue; /* another block: a kernel of its own */
      if (n == GG_COMMANDS_MAX)
        return ggi_fail_at(d, m->file, p->line, "persistent \"%s\": with the tile variants of "
                           "its gemm commands (tile = \"auto\") it would have more than %d "
                           "commands: give some gemm a tile, or split the commands over two "
                           "persistent kernels", p->name, GG_COMMANDS_MAX);
      names[n] = m->kernels[ki].name;
      index[n++] = ki;
    }
  }
  memcpy(p->commands, names, sizeof names[0] * (size_t)n);
  memcpy(p->command_index, index, sizeof index[0] * (size_t)n);
  p->ncommands = n;
  return 0;
}

int ggi_expand_variants(ggi_module *m, ggi_diag *d)
{
  int autos = 0, fft_autos = 0;
  for (int i = 0; i < m->nkernels; i++) {
    autos += m->kernels[i].gemm_tile_auto + auto_stages(m->kernels, &m->kernels[i]);
    fft_autos += m->kernels[i].fft_block_auto;
  }
  if (!autos && !fft_autos) return 0;
  ggi_kernel *ks = ggi_alloc(m->arena, sizeof *ks * (size_t)(m->nkernels + autos * VARIANTS_MAX +
                                                              fft_autos * GGI_FFT_MAX_EPTS));
  if (!ks) return ggi_fail_at(d, m->file, 0, "out of memory");
  memcpy(ks, m->kernels, sizeof *ks * (size_t)m->nkernels);
  int nk = m->nkernels;
  for (int i = 0; i < m->nkernels; i++)
    if (ks[i].gemm_tile_auto && add_variants(m, ks, &nk, i, d) != 0) return -1;
  for (int i = 0; i < m->nkernels; i++)
    if (ks[i].fft_block_auto && add_thread_variants(m, ks, &nk, i, d) != 0) return -1;
  /* then the frames' (after every kernel they may run: a frame is
     specialized after its stages) */
  for (int i = 0; i < m->nkernels; i++)
    if (auto_stages(ks, &ks[i]) && add_frame_variants(m, ks, &nk, i, d) != 0) return -1;
  m->kernels = ks;
  m->nkernels = nk;
  for (int i = 0; i < nk; i++) /* frames index the module's kernels */
    if (ks[i].frame) ks[i].frame->kernels = ks;
  for (int i = 0; i < m->npersistent; i++)
    if (add_commands(m, &m->persistent[i], d) != 0) return -1;
  return ggi_check_generated_names(m, 0, d); /* the variants' identifiers too */
}

/* ---- thread-count variants of frames and persistent kernels ---- */

/* The variant of kernel `base` that runs on t threads (its own count: the
 * kernel itself), or -1. */
static int at_threads(const ggi_module *m, int base, int t)
{
  if (m->kernels[base].spec.block == t) return base;
  for (int v = ggi_next_variant(m->kernels, m->nkernels, base, 0); v >= 0;
       v = ggi_next_variant(m->kernels, m->nkernels, base, v + 1))
    if (m->kernels[v].variant_threads == t) return v;
  return -1;
}

/* Stage s of frame fr runs an fft with block = "auto". */
static int fft_auto_stage(const ggi_module *m, const ggi_kernel *fr, int s)
{
  const int ki = fr->frame->stages[s].kernel_index;
  return fr->frame->gpus <= 1 && !fr->frame->stages[s].own && ki >= 0 &&
         m->kernels[ki].fft_block_auto;
}

/* Does frame fr run on t threads a block on each of its targets, by its
 * stages' plans (ggi_frame_threads)?  A stage that fixes the threads
 * otherwise (a team's team_size, a gemm's tile, a written fft block, a
 * scan's tile) leaves the frame no variant at t. */
static int frame_fits(const ggi_kernel *fr, unsigned targets, int t)
{
  for (unsigned tg = GGI_TARGET_CUDA; tg <= GGI_TARGET_HIP; tg <<= 1) {
    ggi_thread_bounds b;
    int missing;
    if (!(targets & tg)) continue;
    if (ggi_frame_threads(fr, tg, &b, &missing) != 0 || b.min > t || (b.max > 0 && b.max < t))
      return 0;
  }
  return 1;
}

/* Frame ks[fi]'s variant on t threads appended at ks[*nk] when it fits:
 * each fft-auto stage on its variant of t threads. */
static int add_frame_at(ggi_module *m, ggi_kernel *ks, int *nk, int fi, int t, ggi_diag *d)
{
  ggi_frame *f = ggi_alloc(m->arena, sizeof *f);
  if (!f) return ggi_fail_at(d, m->file, ks[fi].line, "out of memory");
  *f = *ks[fi].frame;
  for (int s = 0; s < f->nstages; s++) {
    if (!fft_auto_stage(m, &ks[fi], s)) continue;
    const int v = at_threads(m, f->stages[s].kernel_index, t);
    if (v < 0) return 0; /* that stage's fft has no count t */
    f->stages[s].kernel_index = v;
  }
  ggi_kernel probe = ks[fi];
  probe.frame = f;
  if (!frame_fits(&probe, ks[fi].targets, t)) return 0;
  char suffix[24];
  snprintf(suffix, sizeof suffix, "_threads%d", t);
  ggi_kernel *k = new_variant(m, ks, nk, fi, suffix, "its stages' fft block = \"auto\"", d);
  if (!k) return -1;
  k->frame = f;
  k->variant_threads = t;
  return 0;
}

/* The counts of kernel or frame k's thread-count variants, added to set[]
 * (ascending, no repeats; *n of them). */
static void add_counts(const ggi_kernel *ks, int nk, int ki, int *set, int *n)
{
  for (int v = ggi_next_variant(ks, nk, ki, 0); v >= 0; v = ggi_next_variant(ks, nk, ki, v + 1)) {
    const int t = ks[v].variant_threads;
    int at = 0;
    if (!t) continue;
    while (at < *n && set[at] < t) at++;
    if (at < *n && set[at] == t) continue;
    memmove(set + at + 1, set + at, sizeof *set * (size_t)(*n - at));
    set[at] = t;
    (*n)++;
  }
}

/* Persistent kernel pi's variant on t threads appended at ps[*np]: its
 * commands that have a variant on t threads, as those variants; none when
 * no command has. */
static int add_persistent_at(ggi_module *m, ggi_persistent *ps, int *np, int pi, int t,
                             ggi_diag *d)
{
  const ggi_persistent *p = &ps[pi];
  ggi_persistent q = *p;
  q.ncommands = 0;
  for (int c = 0; c < p->ncommands; c++) {
    const int ci = p->command_index[c];
    if (m->kernels[ci].variant_of) continue; /* a tile variant: its base's variant stands */
    for (int v = ggi_next_variant(m->kernels, m->nkernels, ci, 0); v >= 0;
         v = ggi_next_variant(m->kernels, m->nkernels, ci, v + 1))
      if (m->kernels[v].variant_threads == t) {
        q.commands[q.ncommands] = m->kernels[v].name;
        q.command_index[q.ncommands++] = v;
      }
  }
  if (!q.ncommands) return 0;
  char name[160];
  snprintf(name, sizeof name, "%s_threads%d", p->name, t);
  if (strlen(name) > GGI_NAME_MAX)
    return ggi_fail_at(d, m->file, p->line, "persistent \"%s\": the fft block = \"auto\" of "
                       "its commands names its variants like %s, longer than a name may be (%d "
                       "characters): shorten the persistent kernel's name", p->name, name,
                       GGI_NAME_MAX);
  const int other = taken(m->kernels, m->nkernels, ps, *np, name);
  if (other)
    return ggi_fail_at(d, m->file, p->line, "persistent \"%s\": the fft block = \"auto\" of "
                       "its commands makes a variant called %s, a name already taken (line "
                       "%d): rename that declaration, or this persistent kernel", p->name, name,
                       other);
  q.name = ggi_strdup(m->arena, name);
  if (!q.name) return ggi_fail_at(d, m->file, p->line, "out of memory");
  q.block = t;
  q.variant_of = pi + 1;
  q.shape[0] = q.shape[1] = NULL;
  ps[(*np)++] = q;
  return 0;
}

int ggi_expand_thread_variants(ggi_module *m, ggi_diag *d)
{
  int frames = 0;
  for (int i = 0; i < m->nkernels; i++)
    for (int s = 0; m->kernels[i].frame && s < m->kernels[i].frame->nstages; s++)
      frames += fft_auto_stage(m, &m->kernels[i], s) && !m->kernels[i].variant_of;
  int any = 0;
  for (int i = 0; i < m->nkernels; i++)
    any |= m->kernels[i].variant_threads != 0;
  if (!any) return 0;
  ggi_kernel *ks = ggi_alloc(m->arena, sizeof *ks * (size_t)(m->nkernels + frames * GGI_FFT_MAX_EPTS));
  /* a persistent kernel's variants: at most one per count of whole warps */
  ggi_persistent *ps = ggi_alloc(m->arena, sizeof *ps * (size_t)m->npersistent *
                                           (1 + GG_BLOCK_THREADS_MAX / 32));
  if (!ks || (!ps && m->npersistent)) return ggi_fail_at(d, m->file, 0, "out of memory");
  memcpy(ks, m->kernels, sizeof *ks * (size_t)m->nkernels);
  int nk = m->nkernels;
  for (int i = 0; i < m->nkernels; i++) { /* a frame's variants: one per count of its first fft-auto stage */
    if (!ks[i].frame || ks[i].variant_of) continue;
    int first = -1, counts[GGI_FFT_MAX_EPTS], n = 0;
    for (int s = 0; first < 0 && s < ks[i].frame->nstages; s++)
      if (fft_auto_stage(m, &ks[i], s)) first = ks[i].frame->stages[s].kernel_index;
    if (first < 0) continue;
    add_counts(m->kernels, m->nkernels, first, counts, &n);
    for (int c = 0; c < n; c++) /* counts[] leaves out the stage's own count */
      if (add_frame_at(m, ks, &nk, i, counts[c], d) != 0)
        return -1;
  }
  const int added = nk - m->nkernels;
  m->kernels = ks;
  m->nkernels = nk;
  for (int i = 0; i < nk; i++)
    if (ks[i].frame) ks[i].frame->kernels = ks;
  if (m->npersistent) memcpy(ps, m->persistent, sizeof *ps * (size_t)m->npersistent);
  int np = m->npersistent;
  for (int i = 0; i < m->npersistent; i++) {
    int counts[GG_BLOCK_THREADS_MAX / 32], n = 0;
    for (int c = 0; c < ps[i].ncommands; c++)
      add_counts(ks, nk, ps[i].command_index[c], counts, &n);
    for (int c = 0; c < n; c++)
      if (add_persistent_at(m, ps, &np, i, counts[c], d) != 0) return -1;
  }
  const int more = np - m->npersistent;
  m->persistent = ps;
  m->npersistent = np;
  if (ggi_check_generated_names(m, 0, d) != 0) /* the new frames' and kernels' identifiers */
    return -1;
  return added + more > 0;
}
