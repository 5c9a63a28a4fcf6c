/* frame.h - frames: chains of stages that a persistent kernel runs as one
 * command.  ("Frame" here is the workload's word for the chain, as users
 * write `frame "name" { stages = ... }`; one round trip of a session -
 * the host posting a command and waiting for its acknowledgement - is a
 * "command" or "round trip" in gen and docs, though libgg's API keeps
 * calling it a frame: gg_session.h.)
 *
 * A frame goes through the plan stage in three steps and is rendered in
 * a fourth, each in its own file:
 *   schedule  frame_schedule.c (with frame_deps.c, frame_exchange.c):
 *             where a stage waits for earlier ones and why, decided once
 *             and stored in the IR (ggi_stage, ggi_frame);
 *   plan      frame_plan.c: the union of its stages' plans, plus the
 *             frame's workspace (its barrier words, progress words and
 *             publications);
 *   render    frame_render.c: the device function, from
 *             templates/common/frame_function.cuh and its pieces;
 *   report    report_frame.c: `gpugen explain` and `gpugen list`.
 * The loader (load_persistent.c) binds each stage's arguments to the
 * frame's parameters before any of them. */
#ifndef GGI_FRAME_H
#define GGI_FRAME_H

#include <stdio.h>
#include "ir.h"
#include "plan.h"
#include "strbuf.h"

/* A frame's workspace (the barrier words, the progress words of
 * neighbour waits, the stages' own) is laid out by include/gg_abi.h:
 * GG_FRAME_WS_HEAD, GG_FRAME_PROGRESS_BYTES, GG_FRAME_WS_ALIGN. */
/* A halo exchange's publication (frame_exchange.c): slots for the chunks of
 * GGI_FRAME_XCHG_STEPS grid-stride steps per (pseudo-)block, as long as
 * they take at most GGI_FRAME_XCHG_BYTES; a frame whose ranges need more
 * steps waits for neighbours instead.  Why so few steps: a thread that
 * reads a neighbour's element waits for its tagged word before its next
 * loads issue (the poll's loop branches on it), so the edge warps pay two
 * trips to L2 per step where the others pay one.  On the H100
 * (frame_bench, 3-point stencil on 132 blocks of 256): one more stage
 * cost 0.62 us in one step (n = 32K; a neighbour wait 1.3, a kernel
 * chained with PDL 0.96), but 19 us in 31 steps (n = 1M; the grid
 * barrier's stage 8.2).  Against one neighbour wait per stage (about four
 * trips) the exchange wins up to two or three steps. */
#define GGI_FRAME_XCHG_STEPS 2
#define GGI_FRAME_XCHG_BYTES 16384u

/* The kernel stage s of frame fr runs. */
static inline const ggi_kernel *ggi_stage_kernel(const ggi_kernel *fr, int s)
{
  return ggi_frame_stage(fr->frame, s);
}

/* The schedule: dependencies and barrier placement (after the stages'
 * specialization and plans).  Returns 0, or -1 with d->msg = "file:line: ...". */
int ggi_frame_schedule(const ggi_module *m, ggi_kernel *fr, ggi_diag *d);

/* The threads per block every stage of frame fr runs with on target, from
 * the stages' plans: at least min (0: any), at most max (0: any), and
 * which stage each bound comes from (-1: none).  Returns 0, or -1 when a
 * stage has no plan for target (stage_out: which). */
typedef struct ggi_thread_bounds {
  int min, max, min_from, max_from;
} ggi_thread_bounds;
int ggi_frame_threads(const ggi_kernel *fr, unsigned target, ggi_thread_bounds *b, int *stage_out);

/* The plan of frame fr on target: the union of its stages' needs (shared
 * memory: the largest; threads: every stage's bounds; workspace: the
 * barrier words plus each stage's own, for the persistent virtual grid). */
int ggi_frame_plan(const ggi_kernel *fr, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d);

/* Render: appends `struct gg_args_<frame>` and the device function
 * `bool GG_NS_<frame>::gg_frame(const gg_args_<frame> &, const gg_grid &, const char *mbox)`
 * to out, from the templates (templates_dir, or the embedded ones).  The
 * stages' bodies must already be in out. */
int ggi_render_frame(const ggi_module *m, const ggi_kernel *fr, unsigned target,
                     const char *templates_dir, ggi_buf *out, ggi_diag *d);

/* Bytes of one chunk's slots in the publication of stage w's param j:
 * 2 x its edge width x 8 per 4 bytes of the element. */
unsigned ggi_frame_xchg_chunk_bytes(const ggi_kernel *fr, int w, int j);

/* Report: `gpugen explain` for a frame: stage by stage, where a barrier
 * is and why. */
void ggi_frame_explain(const ggi_module *m, const ggi_kernel *fr, FILE *out);

/* Report: number of grid barriers, and "stage names" for `gpugen list`. */
void ggi_frame_summary(const ggi_kernel *fr, ggi_buf *b);

#endif
