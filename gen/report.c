/*
 * report.c - `gpugen list` (one line per kernel) and `gpugen explain`
 * (why each choice was made), read from the IR and the stored plans.
 */
#include <stdio.h>
#include <string.h>

#include "patterns.h"
#include "frame.h"
#include "plan.h"
#include "report.h"
#include "dict.h"
#include "vocab.h"

static void targets_str(ggi_buf *b, unsigned t)
{
  ggi_buf_printf(b, "%s%s%s", (t & GGI_TARGET_CUDA) ? "cuda" : "",
                 (t & GGI_TARGET_CUDA) && (t & GGI_TARGET_HIP) ? "," : "",
                 (t & GGI_TARGET_HIP) ? "hip" : "");
}

int ggi_list(const ggi_module *m, FILE *out, ggi_diag *d)
{
  ggi_buf b = {0};
  for (int i = 0; i < m->nkernels; i++) {
    const ggi_kernel *k = &m->kernels[i];
    if (ggi_pattern_is(k, GGI_PAT_CHAIN)) {
      ggi_buf_printf(&b, "frame       %-20s %-12s %-12s ", k->name, "frame", "persistent");
      ggi_frame_summary(k, &b);
      ggi_buf_puts(&b, "\n");
      continue;
    }
    ggi_buf_printf(&b, "kernel      %-20s %-12s %-12s %-14s block %-5d ", k->name,
                   ggi_pattern_name(k->pattern),
                   ggi_launch_name(k->launch),
                   ggi_has_reduction(k) ? ggi_strategy_name(k->spec.strategy) : "-", k->spec.block);
    targets_str(&b, k->targets);
    ggi_buf_puts(&b, "\n");
  }
  for (int i = 0; i < m->npersistent; i++) {
    const ggi_persistent *p = &m->persistent[i];
    ggi_persistent_shape shape;
    const ggi_persistent_shape *sp = ggi_shape_of(p, ggi_desc_target(p->targets));
    if (!sp) {
      ggi_buf_free(&b);
      return ggi_fail_at(d, m->file, p->line, "persistent \"%s\" has no plan", p->name);
    }
    shape = *sp;
    ggi_buf_printf(&b, "persistent  %-20s %-12s %-12s %-14s block %-5d ", p->name, "persistent",
                   ggi_arrangement_name(p->arrangement),
                   p->buffering == 1 ? "single" : p->buffering == 2 ? "double" : "ring",
                   shape.block);
    targets_str(&b, p->targets);
    ggi_buf_printf(&b, "  commands:");
    for (int c = 0; c < p->ncommands; c++) ggi_buf_printf(&b, " %s", p->commands[c]);
    ggi_buf_puts(&b, "\n");
  }
  int rc = ggi_buf_ok(&b) && b.p ? (fputs(b.p, out) < 0 ? -1 : 0) : (ggi_buf_ok(&b) ? 0 : -1);
  if (rc != 0) ggi_fail_at(d, m->file, 0, "cannot write the listing");
  ggi_buf_free(&b);
  return rc;
}

/* A for kernel's staged views (plan.c, plan_staging): which and how many
 * steps, then every other view and why it is not. */
static void explain_staging(const ggi_kernel *k, FILE *out)
{
  fprintf(out, "staged loads:");
  for (int i = 0, n = 0; i < k->nparams; i++)
    if (k->params[i].staged) fprintf(out, "%s %s", n++ ? "," : "", k->params[i].name);
  if (k->stage_steps > 0)
    fprintf(out, ", %d grid-stride steps a thread loaded before their bodies run\n",
            k->stage_steps);
  else
    fprintf(out, " none\n");
  for (int i = 0; i < k->nparams; i++)
    if (k->params[i].stage_why)
      fprintf(out, "  not staged: %s (%s)\n", k->params[i].name, k->params[i].stage_why);
}

static const char *grid_rule_text(const ggi_kernel *k, const ggi_plan *p)
{
  switch (p->grid_rule) {
  case GG_GRID_COVER: return "cover: ceil(work / (block * items)) blocks";
  case GG_GRID_LEAGUE:
    return ggi_pattern_of(k->pattern)->league_text;
  case GG_GRID_FIXED: return "fixed";
  default: return "resident: as many blocks as are co-resident on the device";
  }
}

int ggi_explain(const ggi_module *m, const char *kernel, FILE *out, ggi_diag *d)
{
  const ggi_kernel *k = NULL;
  for (int i = 0; i < m->nkernels; i++)
    if (strcmp(m->kernels[i].name, kernel) == 0) k = &m->kernels[i];
  if (!k) {
    for (int i = 0; i < m->npersistent; i++) {
      const ggi_persistent *p = &m->persistent[i];
      if (strcmp(p->name, kernel) != 0) continue;
      ggi_persistent_shape shape;
      const ggi_persistent_shape *sp = ggi_shape_of(p, ggi_desc_target(p->targets));
      if (!sp) return ggi_fail_at(d, m->file, p->line, "persistent \"%s\" has no plan", p->name);
      shape = *sp;
      fprintf(out, "persistent %s (%s:%d): symbol gg_persist_%s\n"
                   "  layout %s, block %d, blocks %d%s, groups %d of %d threads, %d mailbox slot(s)\n"
                   "  commands:",
              p->name, m->file ? m->file : "?", p->line, p->name, ggi_arrangement_name(p->arrangement),
              shape.block, shape.blocks, shape.blocks == 0 ? " (all co-resident)" : "",
              shape.groups, shape.group_threads, p->buffering);
      for (int c = 0; c < p->ncommands; c++) fprintf(out, " %s", p->commands[c]);
      fprintf(out, "\n");
      for (int i = 0; i < shape.nwhy; i++) fprintf(out, "  why: %s\n", shape.why[i]);
      fprintf(out, "  buffering %d: %s\n", p->buffering,
              p->buffering == 1 ? "single: the host waits for each command's acknowledgement before "
                                  "posting the next"
              : p->buffering == 2 ? "double: the host fills one slot while the kernel runs the other"
                                  : "ring: the host may post this many commands ahead of the kernel");
      fprintf(out, "  shared memory: %u bytes per block (%u per pseudo-block)\n",
              (unsigned)shape.shared_bytes, (unsigned)shape.group_smem);
      for (int c = 0; c < p->ncommands; c++) {
        const gg_persistent_command *pc = &shape.cmd[c];
        fprintf(out, "  %s: workspace %u bytes + %u per pseudo-block of the virtual grid",
                p->commands[c], (unsigned)pc->ws_fixed, (unsigned)pc->ws_per_block);
        if (pc->min_threads || pc->max_threads)
          fprintf(out, ", %d..%d threads per pseudo-block", pc->min_threads, pc->max_threads);
        fprintf(out, "\n");
        const ggi_kernel *ck = &m->kernels[p->command_index[c]];
        if (ggi_pattern_is(ck, GGI_PAT_CHAIN)) {
          ggi_buf fs = {0};
          ggi_frame_summary(ck, &fs);
          fprintf(out, "    frame: %s (| grid barrier, ~ neighbour wait or halo exchange, + fused with the for stage before it)\n", fs.p ? fs.p : "");
          ggi_buf_free(&fs);
        }
      }
      return 0;
    }
    ggi_buf names = {0};
    for (int i = 0; i < m->nkernels; i++) ggi_buf_printf(&names, "%s%s", i ? ", " : "", m->kernels[i].name);
    for (int i = 0; i < m->npersistent; i++)
      ggi_buf_printf(&names, "%s%s", i || m->nkernels ? ", " : "", m->persistent[i].name);
    ggi_fail_at(d, m->file, 0, "no kernel \"%s\" (kernels: %s)", kernel, names.p ? names.p : "none");
    ggi_buf_free(&names);
    return -1;
  }
  const ggi_plan *pl = ggi_plan_of(k, ggi_desc_target(k->targets));
  if (!pl) return ggi_fail_at(d, m->file, k->line, "kernel \"%s\" has no plan", k->name);
  const ggi_abi lay = pl->args;
  const ggi_pattern_row *row = ggi_pattern_of(k->pattern);
  fprintf(out, "%s %s (%s:%d): symbol gg_%s%s, %s, %s launch, targets ",
          row->kind, k->name, m->file ? m->file : "?", k->line, row->symbol_prefix, k->name,
          ggi_pattern_name(k->pattern),
          k->launch == GG_LAUNCH_COOPERATIVE   ? "cooperative"
          : k->launch == GG_LAUNCH_PERSISTENT ? "persistent (through a session)"
                                              : "classic");
  ggi_buf t = {0};
  targets_str(&t, k->targets);
  fprintf(out, "%s\n", t.p ? t.p : "none");
  ggi_buf_free(&t);
  fprintf(out, "arguments (struct gg_args_%s, %u bytes, align %u), in %s order:\n", k->name,
          lay.size, lay.align,
          row->start_call);
  int argi = 0;
  for (int i = 0; i < lay.n; i++) {
    const ggi_field *f = &lay.f[i];
    char idx[16];
    if (f->kind == GG_PARAM_HIDDEN) snprintf(idx, sizeof idx, "  -");
    else snprintf(idx, sizeof idx, "%3d", argi++);
    fprintf(out, "  %s  %-12s %-24s offset %3u  %s%s\n", idx, f->name,
            ggi_field_ctype(k, f, m->arena), f->offset,
            f->kind == GG_PARAM_HIDDEN ? "hidden, filled by the runtime"
            : f->kind == GG_PARAM_EXTENT ? "run-time extent"
            : f->kind == GG_PARAM_STRIDE ? "element stride"
            : f->kind == GG_PARAM_VIEW ? "view, "
                                       : "scalar",
            f->kind == GG_PARAM_VIEW ? ggi_access_name(k->params[f->param].access) : "");
  }
  if (row->explain) {
    row->explain(m, k, out);
    return 0;
  }
  fprintf(out, "specialization: block %d, items %d, vector %d", k->spec.block, k->spec.items,
          k->spec.vector);
  if (ggi_has_reduction(k)) fprintf(out, ", strategy %s", ggi_strategy_name(k->spec.strategy));
  fprintf(out, "%s\n", k->spec.cas_emulation ? ", CAS emulation" : "");
  for (int i = 0; i < k->spec.n_why && i < 8; i++) fprintf(out, "  why: %s\n", k->spec.why[i]);
  if (row->props & GGI_PAT_HALO) explain_staging(k, out);
  if (pl->nparts == 0) fprintf(out, "template: %s\n", pl->template_path);
  for (int i = 0; i < pl->nparts; i++)
    fprintf(out, "%s%s", i == 0 ? "templates: " : " + ", pl->template_parts[i]);
  if (pl->nparts > 0) fprintf(out, "\n");
  fprintf(out, "grid: %s", grid_rule_text(k, pl));
  if (pl->grid_rule == GG_GRID_FIXED) fprintf(out, " (%lld blocks)", (long long)pl->grid_fixed);
  if (pl->league_blocks > 1) fprintf(out, " (%lld per item)", (long long)pl->league_blocks);
  fprintf(out, "%s\n", pl->cap_resident && pl->grid_rule != GG_GRID_RESIDENT
                            ? ", capped at the co-resident blocks" : "");
  if (pl->small_block > 0)
    fprintf(out, "small work: up to %lld elements run %d-thread blocks\n",
            (long long)pl->small_work, pl->small_block);
  fprintf(out, "shared memory: %u bytes per block\n", (unsigned)pl->shared_bytes);
  fprintf(out, "workspace: %u bytes + %u per block\n", (unsigned)pl->ws_fixed,
          (unsigned)pl->ws_per_block);
  ggi_buf fb = {0};
  ggi_put_features(&fb, pl->features);
  fprintf(out, "features: %s\n", fb.p ? fb.p : "0");
  ggi_buf_free(&fb);
  return 0;
}

