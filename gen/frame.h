/* frame.h - frames: chains of stages run inside a persistent kernel as one
 * command (gen/frame.c).
 *
 * The loader (load.c) binds each stage's arguments to the frame's
 * parameters; ggi_frame_schedule() then decides, once, where the frame
 * needs a grid barrier (a stage waits only for earlier stages that write
 * what it reads, or read or write what it writes) and stores the decision
 * and its reason in the IR (ggi_stage.barrier / block_sync / why).  The
 * plan, the rendered device function, `explain` and `list` read it. */
#ifndef GGI_FRAME_H
#define GGI_FRAME_H

#include <stdio.h>
#include "dict.h"
#include "render.h"

/* Bytes at the start of a frame's workspace: the barrier's words, each on
 * its own 128-byte line (CUDA: the arrival count, templates/cuda/frame.cuh;
 * HIP: the count and a generation word, templates/hip/frame.hip). */
#define GGI_FRAME_WS_HEAD 256u
/* A frame with neighbour waits: after the head, one progress word per
 * (pseudo-)block of the virtual grid, each on its own 128-byte line (a
 * block stores its own and polls its two neighbours'; separate lines keep
 * one block's store from bouncing the line its neighbours poll), then
 * the stages' workspaces. */
#define GGI_FRAME_PROGRESS_BYTES 128u
/* Each stage's workspace starts on a 256-byte boundary. */
#define GGI_FRAME_WS_ALIGN 256u
/* A halo exchange's publication (gen/frame.c): slots for the chunks of
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

/* Dependencies and barrier placement (after the stages' specialization).
 * Returns 0, or -1 with d->msg = "file:line: ...". */
int ggi_frame_schedule(const ggi_module *m, ggi_kernel *fr, ggi_diag *d);

/* The plan of frame fr on target: the union of its stages' needs (shared
 * memory: the largest; threads: every stage's bounds; workspace: the
 * barrier words plus each stage's own, for the persistent virtual grid). */
int ggi_frame_plan(const ggi_kernel *fr, unsigned target, ggi_arena *a, ggi_plan *p, ggi_diag *d);

/* Appends `struct gg_args_<frame>` and the device function
 * `bool GG_NS_<frame>::gg_frame(const gg_args_<frame> &, const gg_grid &, const char *mbox)`
 * to out.  The stages' bodies must already be in out. */
int ggi_emit_frame(const ggi_module *m, const ggi_kernel *fr, unsigned target,
                   const char *templates_dir, ggi_buf *out, ggi_diag *d);

/* Bytes of one chunk's slots in the publication of stage w's param j:
 * 2 x its edge width x 8 per 4 bytes of the element. */
unsigned ggi_frame_xchg_chunk_bytes(const ggi_kernel *fr, int w, int j);

/* `gpugen explain` for a frame: stage by stage, where a barrier is and why. */
void ggi_frame_explain(const ggi_module *m, const ggi_kernel *fr, FILE *out);

/* Number of grid barriers, and "stage names" for `gpugen list`. */
void ggi_frame_summary(const ggi_kernel *fr, ggi_buf *b);

#endif
