/*
 * report_frame.c - what `gpugen list` and `gpugen explain` say about a
 * frame: the schedule's decisions stage by stage (frame_schedule.c) and
 * the plan's figures (frame_plan.c), read from the IR.
 */
#include "frame.h"
#include "names.h"
#include "patterns.h"
#include "variants.h"

#include <stdio.h>

void ggi_frame_summary(const ggi_kernel *fr, ggi_buf *b)
{
  ggi_buf_printf(b, "%d grid barrier(s)  stages:", fr->frame->nbarriers);
  for (int s = 0; s < fr->frame->nstages; s++) {
    const ggi_stage *st = &fr->frame->stages[s];
    ggi_buf_printf(b, " %s%s",
                   st->barrier                                                          ? "| "
                   : st->block_sync == GGI_SYNC_NEIGHBOURS || st->block_sync == GGI_SYNC_HALO ? "~ "
                   : st->fused                                                          ? "+ "
                                                                                        : "",
                   ggi_stage_kernel(fr, s)->name);
  }
}

/* tile = "auto" on a stage's gemm, block = "auto" on its ffts
 * (gen/variants.c): the frame's variant frames, or the frame a variant is
 * one of. */
static void variants(const ggi_module *m, const ggi_kernel *fr, FILE *out)
{
  if (fr->variant_of) {
    const char *of = m->kernels[fr->variant_of - 1].name;
    if (fr->variant_threads)
      fprintf(out, "variant: of frame %s, its fft stages on %d threads (block = \"auto\"); a "
                   "command of the %d-thread variants of the persistent kernels that run %s, "
                   "for gg_session_tune to measure against it (docs/tuning.md)\n", of,
              fr->variant_threads, fr->variant_threads, of);
    else
      fprintf(out, "variant: of frame %s, a stage on a tile variant of its kernel (tile = "
                   "\"auto\"); a command wherever %s is one, for gg_session_tune to measure "
                   "against it (docs/tuning.md)\n", of, of);
    return;
  }
  const int me = (int)(fr - m->kernels);
  int n = 0, threads = 0; /* the frame's variants, and of those its thread-count ones */
  for (int i = ggi_next_variant(m->kernels, m->nkernels, me, 0); i >= 0;
       i = ggi_next_variant(m->kernels, m->nkernels, me, i + 1)) {
    fprintf(out, "%s %s", n++ ? "," : "variants (a stage's tile or fft block = \"auto\"; for "
                                      "gg_session_tune):", m->kernels[i].name);
    threads += m->kernels[i].variant_threads != 0;
  }
  if (n) fprintf(out, "\n");
  int auto_ffts = 0, other_counts = 0; /* its auto fft stages, and their variants */
  for (int s = 0; s < fr->frame->nstages; s++) {
    const int ki = fr->frame->stages[s].kernel_index;
    if (fr->frame->stages[s].own || !m->kernels[ki].fft_block_auto) continue;
    auto_ffts++;
    for (int v = ggi_next_variant(m->kernels, m->nkernels, ki, 0); v >= 0;
         v = ggi_next_variant(m->kernels, m->nkernels, ki, v + 1))
      other_counts += m->kernels[v].variant_threads != 0;
  }
  if (auto_ffts && !threads)
    fprintf(out, "no thread-count variants: its fft stages have block = \"auto\", but %s\n",
            fr->frame->gpus > 1 ? "it runs on several GPUs (the tuner leaves teams out)"
            : !other_counts     ? "cuFFTDx has no other count of whole warps for their size"
                                : "its other stages allow none of their other counts (a "
                                  "team's team_size, a gemm's tile, a written block, a scan's "
                                  "tile)");
}

void ggi_frame_explain(const ggi_module *m, const ggi_kernel *fr, FILE *out)
{
  const ggi_frame *f = fr->frame;
  fprintf(out, "frame %s (%s:%d): %d stage(s), %d grid barrier(s); a command of a persistent "
               "kernel, one handshake per frame\n",
          fr->name, m->file ? m->file : "?", fr->line, f->nstages, f->nbarriers);
  variants(m, fr, out);
  if (f->gpus > 1)
    fprintf(out, "gpus: %d, one process each (NVSHMEM PEs 0..%d), each running this frame on "
                 "its GPU; %llu bytes of symmetric memory for its exchanges\n",
            f->gpus, f->gpus - 1, (unsigned long long)f->sym_bytes);
  fprintf(out, "parameters:");
  for (int p = 0; p < fr->nparams; p++)
    fprintf(out, " %s%s%s%s", fr->params[p].name, fr->params[p].kind == GG_PARAM_VIEW ? " (" : "",
            fr->params[p].kind == GG_PARAM_VIEW ? ggi_access_name(fr->params[p].access) : "",
            fr->params[p].kind == GG_PARAM_VIEW ? ")" : "");
  fprintf(out, "\nstages:\n");
  for (int s = 0; s < f->nstages; s++) {
    const ggi_stage *st = &f->stages[s];
    const ggi_kernel *k = ggi_stage_kernel(fr, s);
    fprintf(out, "  %d %s (%s:%d)\n", s, k->name, m->file ? m->file : "?", st->line);
    if (st->barrier) fprintf(out, "      grid barrier before it: %s\n", st->why);
    else if (st->block_sync == GGI_SYNC_ITEMS || st->block_sync == GGI_SYNC_ORDERED)
      fprintf(out, "      block barrier before it: %s\n", st->why);
    else if (st->block_sync == GGI_SYNC_NEIGHBOURS)
      fprintf(out, "      neighbour wait before it: %s\n", st->why);
    else if (st->block_sync == GGI_SYNC_HALO)
      fprintf(out, "      halo exchange before it: %s\n", st->why);
    else if (st->fused)
      fprintf(out, "      %s\n", st->why);
    else fprintf(out, "      no barrier: %s\n", st->why);
    for (int j = 0; j < k->nparams; j++) {
      const ggi_xchg *x = &st->xchg[j];
      if (x->pub_h > 0)
        fprintf(out, "      publishes %s's chunk edges (%d indices at each end; slots for %d "
                     "grid-stride step(s) per pseudo-block, %u bytes a chunk)\n",
                fr->params[st->bind[j]].name,
                x->pub_h, x->pub_chunks, ggi_frame_xchg_chunk_bytes(fr, s, j));
      if (x->src >= 0)
        fprintf(out, "      reads %s's neighbour elements from stage %d's publication\n",
                fr->params[st->bind[j]].name, x->src);
    }
    const ggi_pattern_row *row = ggi_pattern_of(k->pattern);
    if (row->explain_peers) row->explain_peers(k, out);
    if (st->block_sync == GGI_SYNC_SHARED)
      fprintf(out, "      block barrier before it: it reuses the block's shared memory of an "
                   "earlier stage\n");
    fprintf(out, "      binds:");
    for (int j = 0; j < k->nparams; j++) {
      if (st->constant[j]) fprintf(out, " %s=%s", k->params[j].name, st->constant[j]);
      else fprintf(out, " %s=%s", k->params[j].name, fr->params[st->bind[j]].name);
    }
    for (int j = 0; j < k->nextents; j++) {
      if (st->ext[j].name) fprintf(out, " %s=%s", k->extents[j], st->ext[j].name);
      else fprintf(out, " %s=%lld", k->extents[j], (long long)st->ext[j].value);
    }
    fprintf(out, "\n");
  }
  if (f->result >= 0)
    fprintf(out, "result: %s (%s, %u bytes) returns in the acknowledgement (gg_session_result); "
                 "ack %s\n", fr->params[f->result].name, ggi_dtype_name(fr->params[f->result].dtype),
            ggi_dtype_size(fr->params[f->result].dtype), f->ack_why);
  if (f->result >= 0 && f->ack_noted)
    fprintf(out, "result: stage %d's reduction is its only writer and leaves a note of %s in "
                 "shared memory: the ack takes the value from there (no read back from memory) "
                 "when that block acknowledges the frame\n", f->ack_noted - 1,
            fr->params[f->result].name);
  const ggi_plan *pp = ggi_plan_of(fr, ggi_desc_target(fr->targets));
  const ggi_plan p = pp ? *pp : (ggi_plan){0};
  int halo_stages = 0;
  for (int s = 0; s < f->nstages; s++) halo_stages += f->stages[s].block_sync == GGI_SYNC_HALO;
  if (f->nneighbours > 0)
    fprintf(out, "neighbour waits: %d per frame%s; chunks sized for %s\n", f->nneighbours,
            halo_stages ? " (those before a halo exchange only when the frame cannot exchange)" : "",
            f->threads_why);
  if (f->npublished > 0)
    fprintf(out, "halo exchange: %d publication(s), used in a frame when there are several "
                 "pseudo-blocks and every published range takes no more grid-stride steps than "
                 "its slots hold; else every stage above reads memory and waits for its "
                 "neighbours\n", f->npublished);
  if (pp)
    fprintf(out, "workspace: %u bytes + %u per pseudo-block of the persistent kernel's virtual "
                 "grid (barrier words, %s%sthen each stage's own)\nshared memory: %u bytes per "
                 "pseudo-block (the largest stage's)\n",
            (unsigned)p.ws_fixed, (unsigned)p.ws_per_block,
            f->nneighbours > 0 ? "a progress word per pseudo-block, " : "",
            f->npublished > 0 ? "the publications' slots, " : "", (unsigned)p.shared_bytes);
}