/* frame_schedule.h - the schedule's own pieces (internal to
 * frame_schedule.c, frame_deps.c and frame_exchange.c; the rest of gen
 * reads the schedule's decisions from the IR, frame.h).
 *
 * Stages are numbered in frame order; r < s is an earlier stage, p a
 * frame parameter (a view when it matters). */
#ifndef GGI_FRAME_SCHEDULE_H
#define GGI_FRAME_SCHEDULE_H

#include "frame.h"

static inline int ggi_access_writes(gg_access a) { return a != GG_ACCESS_IN; }
static inline int ggi_access_reads(gg_access a)
{
  return a == GG_ACCESS_IN || a == GG_ACCESS_INOUT;
}

/* The kernel stage s of frame fr runs. */
static inline const ggi_kernel *ggi_stage_kernel(const ggi_kernel *fr, int s)
{
  return &fr->frame->kernels[fr->frame->stages[s].kernel_index];
}

/* ---- frame_deps.c: the patterns, as the schedule sees them ----
 * The schedule's only questions about a stage's pattern (the pattern
 * table's frame column, when there is one). */

/* The vector of k's grid-stride mapping as a stage; 0: it maps no index
 * to a thread that way (fused: a reduction running a for stage). */
int ggi_stage_vector(const ggi_kernel *k, int fused);
/* k takes chunks of consecutive indices per grid-stride step (rank-1 for). */
int ggi_stage_chunked(const ggi_kernel *k);
/* k ends with a reduction's store(), which leaves a note of its value. */
int ggi_stage_notes(const ggi_kernel *k);

/* ---- frame_deps.c: the proofs ---- */

/* What stage s does to frame view p: bit 1 reads, bit 2 writes. */
int ggi_frame_use(const ggi_kernel *fr, int s, int p);

/* Whether stages r < s conflict through frame view p: s reads what r
 * writes, writes what r reads, or both write it.  *vs and *vr: the verbs
 * of s and of r, for explain. */
int ggi_frame_conflict(const ggi_kernel *fr, int r, int s, int p, const char **vs,
                       const char **vr);

/* Stages r and s map every index of one range to the same thread (the
 * grid-stride loop of templates/common/for.cuh, or a fused fold's). */
int ggi_frame_same_mapping(const ggi_kernel *fr, int r, int s);

/* s's dependency on r through view p stays in each thread. */
int ggi_frame_same_thread(const ggi_kernel *fr, int r, int s, int p);

/* ... stays between neighbouring (pseudo-)blocks; *halo: the largest
 * halo of the two stages' uses of p. */
int ggi_frame_same_neighbours(const ggi_kernel *fr, int r, int s, int p, int *halo);

/* Stage s, a reduction, may run the for stage s - 1 inside its fold. */
int ggi_frame_fusable(const ggi_kernel *fr, int s);

/* Where stage s depends on earlier stages, nearest first of each kind
 * (-1: none): across the grid (dep), within threads (local), within
 * league items (item), between neighbours (near); only stages from fence
 * on count as local, item or near; with fuse, stage s - 1 counts as
 * local (a fused stage). */
typedef struct ggi_deps {
  int dep, dep_view, local, local_view, item, item_view, near, near_view;
} ggi_deps;
ggi_deps ggi_frame_find_deps(const ggi_kernel *fr, int s, int fence, int fuse);

/* ---- frame_exchange.c: the halo exchange ----
 * After the barriers: which halo reads come from publications, the
 * publications' slots, and which neighbour waits become HALO (or
 * ORDERED) stages.  fence_of[s]: the first stage s may depend on without
 * a barrier of its own (s itself when it has one).  Returns 0, or -1
 * with d->msg set. */
int ggi_frame_exchange(const ggi_module *m, ggi_kernel *fr, const int *fence_of, ggi_diag *d);

#endif
