/*
 * gg_abi.h - the offsets, sizes and limits that gpugen, its templates and
 * libgg share, defined once.  The runtime includes it (through
 * gg_module.h), gpugen's C includes it, and gpugen pastes this very text
 * at the top of every rendered source, before the prelude (it is embedded
 * into gpugen at build time, as gg_protocol.h is), so the templates read
 * the same numbers.  It must stay valid C and valid CUDA/HIP device code:
 * plain #defines, no includes.  The persistent loop's mailbox has its own
 * header, gg_protocol.h, pasted next to this one.
 *
 * A generated kernel's workspace (gg_ws: zero-filled device memory the
 * runtime allocates with the size the descriptor gives) is laid out as
 * follows, offsets in bytes.
 *
 * A reduction (templates/common/reduce_workspace.cuh, reduce_atomic.cuh,
 * reduce_tail_*.cuh; gen/reduce_plan.c sizes it):
 *   0    u32 ticket: blocks done with their partial (the last one finishes)
 *   4    u32 init state of the shared accumulator (reduce_atomic.cuh)
 *   8    u32 grid barrier word (strategy grid_sync without cooperative groups)
 *   16   the accumulator, up to 64 bytes (strategy global_atomic)
 *   128  one partial per block
 *
 * A frame (a chain of stages run as one command of a persistent kernel;
 * templates/cuda/frame.cuh, templates/hip/frame.hip; gen/frame.c plans it):
 *   0    u64 barrier arrivals, monotone (its own 128-byte line)
 *   128  u64 barrier generation (HIP's barrier; unused by CUDA's)
 *   256  with neighbour waits: one u64 progress word per (pseudo-)block,
 *        GG_FRAME_PROGRESS_BYTES apart (a line each, so one block's store
 *        does not bounce the line its neighbours poll)
 *   then each stage's own workspace, GG_FRAME_WS_ALIGN-aligned.
 *
 * A frame on several GPUs (`gpus = N`) has, besides, a symmetric
 * workspace: NVSHMEM's symmetric heap, the same offsets on every GPU
 * (the session allocates it, zero-filled: gg_persist_params.sym).  Each
 * exchange stage has its own area there, GG_FRAME_WS_ALIGN-aligned, at
 * the offset the frame's schedule gives it (gen/frame_schedule.c);
 * an allreduce's area (templates/common/allreduce.cuh):
 *   0    u64 signal: peers add 1 to it when their view has landed here
 *   128  u64 runs of the stage so far (this GPU's, read by no peer)
 *   256  two buffers, used by run parity, each N x count elements: the
 *        slot of GPU p at p x count
 */
#ifndef GG_ABI_H
#define GG_ABI_H

/* Limits */
#define GG_BLOCK_THREADS_MAX 1024 /* threads of one hardware block, CUDA and HIP */
#define GG_COMMANDS_MAX 16        /* commands (workloads) of one persistent kernel */
#define GG_GROUPS_MAX 15          /* pseudo-blocks of one block: CUDA's named barriers 1..15 */

/* The reduction workspace */
#define GG_REDUCE_WS_TICKET_OFF 0u
#define GG_REDUCE_WS_STATE_OFF 4u
#define GG_REDUCE_WS_BARRIER_OFF 8u
#define GG_REDUCE_WS_ACC_OFF 16u
#define GG_REDUCE_WS_PARTIALS_OFF 128u /* also the fixed part's size */

/* The frame workspace */
#define GG_FRAME_COUNT_OFF 0u
#define GG_FRAME_GEN_OFF 128u
#define GG_FRAME_WS_HEAD 256u        /* the barrier words' bytes */
#define GG_FRAME_PROGRESS_BYTES 128u /* between two blocks' progress words */
#define GG_FRAME_WS_ALIGN 256u       /* each stage's workspace starts on it */

/* An exchange stage's area of the symmetric workspace */
#define GG_XCHG_ITEMS_MAX 32768 /* elements of a view an allreduce stage exchanges */
/* ... and a broadcast, allgather or alltoall stage moves: 2 MiB of f32, a
 * corner turn of 64 x 4096 complex values */
#define GG_XCHG_MOVE_ITEMS_MAX 524288
/* An allreduce's view is cut in chunks of at most this many bytes; chunk
 * c belongs to pseudo-block c mod P on every GPU, which sends it to every
 * peer, waits for the peers' chunk c and combines it: no wait on any
 * other block (one warp moved 128 KiB to a peer in ~90 us on the H200,
 * one block's warps in ~65). */
#define GG_XCHG_CHUNK_BYTES 4096u
#define GG_XCHG_CHUNKS_MAX (GG_XCHG_MOVE_ITEMS_MAX * 8u / GG_XCHG_CHUNK_BYTES)
/* Each 4-byte word of a view travels with a 4-byte flag (the run) beside
 * it: a slot of the buffers takes twice the view's bytes. */
#define GG_XCHG_LL_FACTOR 2u
#define GG_XCHG_RUNS_OFF 0u /* a runs word per chunk, local */
#define GG_XCHG_BUFS_OFF (GG_XCHG_RUNS_OFF + 8u * GG_XCHG_CHUNKS_MAX)

#endif /* GG_ABI_H */
