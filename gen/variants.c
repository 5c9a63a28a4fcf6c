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
#include "names.h"
#include "plan.h"
#include "variants.h"

#define VARIANTS_MAX 3 /* besides the plan's tile: ggi_gemm_tile_candidates gives at most 4 */

static int taken(const ggi_module *m, const ggi_kernel *ks, int nk, const char *name)
{
  for (int i = 0; i < nk; i++)
    if (strcmp(ks[i].name, name) == 0) return 1;
  for (int i = 0; i < m->npersistent; i++)
    if (strcmp(m->persistent[i].name, name) == 0) return 1;
  return 0;
}

/* The variants of kernel `base` (index bi) appended at ks[*nk]. */
static int add_variants(ggi_module *m, ggi_kernel *ks, int *nk, int bi, ggi_diag *d)
{
  int tiles[VARIANTS_MAX + 1][3];
  const int n = ggi_gemm_tile_candidates(&ks[bi], tiles, VARIANTS_MAX + 1);
  for (int v = 1; v < n; v++) { /* tiles[0] is the plan's: the kernel itself */
    char name[160];
    snprintf(name, sizeof name, "%s_tile%dx%dx%d", ks[bi].name, tiles[v][0], tiles[v][1],
             tiles[v][2]);
    if (strlen(name) > GGI_NAME_MAX)
      return ggi_fail_at(d, m->file, ks[bi].line, "kernel '%s': tile = \"auto\" names its "
                         "variants like %s, longer than a name may be (%d characters): "
                         "shorten the kernel's name", ks[bi].name, name, GGI_NAME_MAX);
    if (taken(m, ks, *nk, name))
      return ggi_fail_at(d, m->file, ks[bi].line, "kernel '%s': tile = \"auto\" makes a "
                         "variant called %s, which is already declared: rename that",
                         ks[bi].name, name);
    ggi_kernel *k = &ks[(*nk)++];
    *k = ks[bi];
    k->name = ggi_strdup(m->arena, name);
    if (!k->name) return ggi_fail_at(d, m->file, ks[bi].line, "out of memory");
    memcpy(k->gemm_tile, tiles[v], sizeof k->gemm_tile);
    k->gemm_tile_auto = 0;
    k->variant_of = bi + 1;
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
      if (taken(m, ks, *nk, name))
        return ggi_fail_at(d, m->file, ks[fi].line, "frame \"%s\": its stage %d's tile = "
                           "\"auto\" makes a variant frame called %s, a name already taken "
                           "(declared, or made by another tile = \"auto\"): rename the frame or "
                           "the other", ks[fi].name, s + 1, name);
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
    for (int ki = ci; ki >= 0; /* the command, then its variants */
         ki = ggi_next_variant(m->kernels, m->nkernels, ci, ki == ci ? 0 : ki + 1)) {
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
  int autos = 0;
  for (int i = 0; i < m->nkernels; i++)
    autos += m->kernels[i].gemm_tile_auto + auto_stages(m->kernels, &m->kernels[i]);
  if (!autos) return 0;
  ggi_kernel *ks = ggi_alloc(m->arena, sizeof *ks * (size_t)(m->nkernels + autos * VARIANTS_MAX));
  if (!ks) return ggi_fail_at(d, m->file, 0, "out of memory");
  memcpy(ks, m->kernels, sizeof *ks * (size_t)m->nkernels);
  int nk = m->nkernels;
  for (int i = 0; i < m->nkernels; i++)
    if (ks[i].gemm_tile_auto && add_variants(m, ks, &nk, i, d) != 0) return -1;
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
