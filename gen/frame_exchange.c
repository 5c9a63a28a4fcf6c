/*
 * frame_exchange.c - the schedule's halo exchange: which halo reads of a
 * frame's stages take their neighbours' elements from a publication in
 * tagged words instead of memory, the publications' slots, and which
 * neighbour waits that turns into block barriers.  ggi_frame_schedule()
 * calls it after placing the barriers.
 */
#include "frame_deps.h"
#include "frame_exchange.h"
#include "plan.h"

#include <string.h>

/* ---- halo exchange in tagged words ----
 * A neighbour wait costs four trips to L2 on the critical path (the
 * block's stores drained by a release, the flag's store, the neighbours'
 * polls, then the reload of their data).  Where a stage s reads frame
 * view p within a halo, and the latest stage w since the last grid
 * barrier that writes p does so at its own index on the same mapping
 * (so w is a neighbour dependency of s), w also publishes the first and
 * last H indices of each chunk it runs, value and frame tag in one
 * 64-bit word each (templates/global/halo_exchange.cuh), and s takes the
 * elements of its neighbour chunks from there: the poll returns the data
 * itself.  What the publication holds is what memory holds after w (it
 * is read back in the thread that owns the index, the only one that
 * writes it), so it also serves readers after other writers before w.
 * s then needs its neighbour wait only where a cross-block hazard is
 * left; between two stages r < s that are neighbours through view p:
 *   (a) s reads p's halo and r writes p: carried when every halo read of
 *       p by s comes from a publication;
 *   (b) s writes p and r read p's halo: carried when r read it from a
 *       publication (it then read no other block's memory of p; what it
 *       read of its own chunk, the block barrier orders);
 * anything else between them stays in a thread or in a block.  A stage
 * whose every such dependency is carried becomes GGI_SYNC_HALO: a block
 * barrier while the frame exchanges halos, its neighbour wait otherwise.
 * The slots of a publication are sized here once (GGI_FRAME_XCHG_STEPS
 * steps' chunks per (pseudo-)block, frame.h says why so few); whether a
 * frame's ranges fit them is known only at
 * run time, so the frame checks it once at its start for every
 * publication (gg_xchg_fits) and, when one does not fit, publishes
 * nothing, reads memory and waits for neighbours as before. */

/* Does stage s read frame view p beyond its own index (a halo view)?
 * With from_memory, only such reads that come from no publication count. */
static int halo_reads(const ggi_kernel *fr, int s, int p, int from_memory)
{
  const ggi_kernel *k = ggi_stage_kernel(fr, s);
  const ggi_stage *st = &fr->frame->stages[s];
  for (int j = 0; j < k->nparams; j++)
    if (st->bind[j] == p && k->params[j].kind == GG_PARAM_VIEW && k->params[j].halo > 0 &&
        !ggi_body_own_index(k, &k->params[j]) && (!from_memory || st->xchg[j].src < 0))
      return 1;
  return 0;
}

/* The param of stage w that writes frame view p and may publish it
 * (plan.c: own index, contiguous), or -1: none, or another param writes p
 * in a way a publication cannot follow. */
static int publisher_param(const ggi_kernel *fr, int w, int p)
{
  const ggi_kernel *k = ggi_stage_kernel(fr, w);
  int found = -1;
  for (int j = 0; j < k->nparams; j++) {
    if (fr->frame->stages[w].bind[j] != p || k->params[j].kind != GG_PARAM_VIEW ||
        !ggi_access_writes(k->params[j].access))
      continue;
    if (k->params[j].exchange != GGI_XCHG_PUBLISH) return -1;
    if (found < 0) found = j;
  }
  return found;
}

/* Stage s's halo reads: each from the publication of the latest writer
 * since s's fence, where it can publish. */
static void find_sources(const ggi_kernel *fr, int s, int fence)
{
  const ggi_kernel *k = ggi_stage_kernel(fr, s);
  ggi_stage *st = &fr->frame->stages[s];
  for (int j = 0; j < k->nparams; j++) {
    const ggi_param *kp = &k->params[j];
    const int p = st->bind[j];
    if (p < 0 || kp->exchange != GGI_XCHG_READ || ggi_body_own_index(k, kp)) continue;
    int w = s - 1;
    while (w >= fence && !(ggi_frame_use(fr, w, p) & 2)) w--;
    /* a stage fused into a reduction runs in the fold's loop: no chunks */
    if (w < fence || !ggi_frame_same_mapping(fr, w, s) || fr->frame->stages[w + 1].fused) continue;
    const int wj = publisher_param(fr, w, p);
    if (wj < 0) continue;
    st->xchg[j].src = w;
    st->xchg[j].src_param = wj;
    ggi_xchg *pub = &fr->frame->stages[w].xchg[wj];
    if (kp->halo > pub->pub_h) pub->pub_h = kp->halo;
  }
}

/* Slots for each publication: GGI_FRAME_XCHG_STEPS chunks per
 * (pseudo-)block, fewer where they would take more than
 * GGI_FRAME_XCHG_BYTES; one whose chunk edges do not fit that even once
 * is dropped with its readers. */
static void size_publications(const ggi_kernel *fr)
{
  ggi_frame *f = fr->frame;
  f->npublished = 0;
  for (int w = 0; w < f->nstages; w++) {
    const ggi_kernel *k = ggi_stage_kernel(fr, w);
    for (int j = 0; j < k->nparams; j++) {
      ggi_xchg *pub = &f->stages[w].xchg[j];
      if (pub->pub_h == 0) continue;
      pub->pub_chunks = (int)(GGI_FRAME_XCHG_BYTES / ggi_frame_xchg_chunk_bytes(fr, w, j));
      if (pub->pub_chunks > GGI_FRAME_XCHG_STEPS) pub->pub_chunks = GGI_FRAME_XCHG_STEPS;
      if (pub->pub_chunks > 0) {
        f->npublished++;
        continue;
      }
      pub->pub_h = 0;
      for (int s = w + 1; s < f->nstages; s++)
        for (int i = 0; i < ggi_stage_kernel(fr, s)->nparams; i++)
          if (f->stages[s].xchg[i].src == w && f->stages[s].xchg[i].src_param == j)
            f->stages[s].xchg[i].src = f->stages[s].xchg[i].src_param = -1;
    }
  }
}

/* Are all of neighbour-wait stage s's dependencies on stages from
 * `from` on carried by publications ((a) and (b) above)?  0: no; 1: yes;
 * 2: there is none to carry - its dependencies on its neighbours all lie
 * before `from`, which an earlier neighbour wait (or the grid barrier)
 * already ordered, and those since stay in each thread. */
static int exchange_carries(const ggi_kernel *fr, int s, int from)
{
  int carried = 0;
  for (int r = from; r < s; r++)
    for (int p = 0; p < fr->nparams; p++) {
      const char *vs, *vr;
      int halo;
      if (!ggi_frame_conflict(fr, r, s, p, &vs, &vr) || ggi_frame_same_thread(fr, r, s, p)) continue;
      if (!ggi_frame_same_neighbours(fr, r, s, p, &halo)) return 0;
      if ((ggi_frame_use(fr, r, p) & 2) && halo_reads(fr, s, p, 0)) {
        if (halo_reads(fr, s, p, 1)) return 0;
        carried = 1;
      }
      if ((ggi_frame_use(fr, s, p) & 2) && halo_reads(fr, r, p, 0)) {
        if (halo_reads(fr, r, p, 1)) return 0;
        carried = 1;
      }
    }
  return carried ? 1 : 2;
}

unsigned ggi_frame_xchg_chunk_bytes(const ggi_kernel *fr, int w, int j)
{
  const ggi_param *kp = &ggi_stage_kernel(fr, w)->params[j];
  return 2u * (unsigned)fr->frame->stages[w].xchg[j].pub_h * 8u *
         ((ggi_dtype_size(kp->dtype) + 3u) / 4u);
}

/* The exchange's part of the plan, after the barriers: which halo reads
 * come from publications, the publications' slots, and which neighbour
 * waits become HALO stages.  fence_of[s]: the first stage s may depend
 * on without a barrier of its own (s itself when it has one). */
int ggi_frame_exchange(const ggi_module *m, ggi_kernel *fr, const int *fence_of, ggi_diag *d)
{
  ggi_frame *f = fr->frame;
  for (int s = 0; s < f->nstages; s++) {
    const int n = ggi_stage_kernel(fr, s)->nparams;
    f->stages[s].xchg = ggi_alloc(m->arena, sizeof(ggi_xchg) * (size_t)(n > 0 ? n : 1));
    if (!f->stages[s].xchg) return ggi_fail_at(d, m->file, fr->line, "out of memory");
    for (int j = 0; j < n; j++) f->stages[s].xchg[j].src = f->stages[s].xchg[j].src_param = -1;
  }
  for (int s = 0; s < f->nstages; s++) find_sources(fr, s, fence_of[s]);
  size_publications(fr);
  for (int s = 0; s < f->nstages; s++) { /* the stage kernels' sources take part */
    if (f->stages[s].own) continue; /* an exchange stage's kernel has no halo views */
    ggi_kernel *k = &m->kernels[f->stages[s].kernel_index];
    for (int j = 0; j < k->nparams; j++) {
      if (f->stages[s].xchg[j].src >= 0) k->params[j].exchanged |= GGI_XCHG_READ;
      if (f->stages[s].xchg[j].pub_h > 0) k->params[j].exchanged |= GGI_XCHG_PUBLISH;
    }
  }
  int waited = 0; /* the latest stage that always waits for its neighbours (or 0) */
  for (int s = 0; s < f->nstages; s++) {
    ggi_stage *st = &f->stages[s];
    if (st->block_sync != GGI_SYNC_NEIGHBOURS) continue;
    /* a neighbour wait before stage t leaves the neighbours done with
       every stage before t; a grid barrier, everybody */
    const int from = waited > fence_of[s] ? waited : fence_of[s];
    const int carries = exchange_carries(fr, s, from);
    if (carries == 0) {
      waited = s;
      continue;
    }
    if (carries == 2) { /* a block barrier, exchange or not */
      st->block_sync = GGI_SYNC_ORDERED;
      f->nneighbours--;
      ggi_buf b = {0};
      ggi_buf_printf(&b, "%s; but those neighbour dependencies are on stages before %d, which "
                         "the %s before stage %d ordered, and its dependencies on the stages "
                         "since stay in each thread: a block barrier suffices", st->why, from,
                     from == fence_of[s] ? "grid barrier" : "neighbour wait", from);
      st->why = b.p ? ggi_strdup(m->arena, b.p) : NULL;
      ggi_buf_free(&b);
      if (!st->why) return ggi_fail_at(d, m->file, fr->line, "out of memory");
      continue;
    }
    st->block_sync = GGI_SYNC_HALO;
    ggi_buf b = {0};
    ggi_buf_printf(&b, "%s; the halo elements it reads of its neighbours' chunks, and those "
                       "earlier stages read of what it writes, travel in tagged words (halo "
                       "exchange): a block barrier suffices (the neighbour wait when the "
                       "frame's ranges outgrow the slots)", st->why);
    st->why = b.p ? ggi_strdup(m->arena, b.p) : NULL;
    ggi_buf_free(&b);
    if (!st->why) return ggi_fail_at(d, m->file, fr->line, "out of memory");
  }
  return 0;
}
