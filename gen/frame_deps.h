/* frame_deps.h - the schedule's proofs (frame_deps.c), which
 * frame_schedule.c and frame_exchange.c ask; the rest of gen reads the
 * schedule's decisions from the IR (frame.h).
 *
 * Stages are numbered in frame order; r < s is an earlier stage, p a
 * frame parameter (a view when it matters). */
#ifndef GGI_FRAME_DEPS_H
#define GGI_FRAME_DEPS_H

#include "frame.h"

static inline int ggi_access_writes(gg_access a) { return a != GG_ACCESS_IN; }
static inline int ggi_access_reads(gg_access a)
{
  return a == GG_ACCESS_IN || a == GG_ACCESS_INOUT;
}

/* ---- the patterns, as the schedule sees them ----
 * The schedule's only questions about a stage's pattern, answered from
 * the pattern's row (patterns.h). */

/* The vector of k's grid-stride mapping as a stage; 0: it maps no index
 * to a thread that way (fused: a reduction running a for stage). */
int ggi_stage_vector(const ggi_kernel *k, int fused);
/* k takes chunks of consecutive indices per grid-stride step (rank-1 for). */
int ggi_stage_chunked(const ggi_kernel *k);
/* k ends with a reduction's store(), which leaves a note of its value. */
int ggi_stage_notes(const ggi_kernel *k);

/* ---- the proofs ---- */

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

#endif
