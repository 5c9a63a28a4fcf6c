/*
 * gg_team.h - a frame's GPUs: one process per GPU, joined through NVSHMEM
 * (docs/multi-gpu.md).
 *
 *   rank 0:     gg_team_uid_new(&uid)         then hands the 128 bytes to
 *                                             the others (pipe, file, socket)
 *   every rank: gg_context_open(&ctx, {.device = its GPU})
 *               gg_team_open(ctx, rank, n, &uid, timeout_ms, &team)
 *               gg_team_array_alloc(team, bytes, &a)   symmetric: same size,
 *                                             same order on every rank
 *               gg_module_load(...)           modules whose kernels call
 *                                             NVSHMEM load only now
 *               ... launches, sessions ...
 *               gg_array_free(a) ...          collective, as the alloc
 *               gg_team_free(team)            collective; NVSHMEM ends
 *
 * The process that makes the id must open the team too: NVSHMEM's
 * bootstrap root runs in it.  One team per process, and NVSHMEM starts
 * once per process (a team that was freed, or whose open failed, cannot
 * be opened again there).  The team's context must be a whole device
 * (not an SM partition: NVSHMEM works in the device's primary context).
 *
 * Nothing waits without a bound.  Open, the symmetric allocations and
 * free are collective: every rank must make the same calls in the same
 * order.  Each waits at most the team's timeout_ms for the others; past
 * it the call returns GG_ERR_TIMEOUT, NVSHMEM's own wait is left running
 * on a thread of its own, and the team is broken: every later call but
 * gg_team_free returns GG_ERR_STATE.  A broken team's GPU memory goes
 * with the process.
 *
 * libgg sets, unless the application did, NVSHMEM_DISABLE_NVLS=1 (NVLink
 * multicast can put a shared host's GPUs out of service) and
 * NVSHMEM_REMOTE_TRANSPORT=none (the set-up unpacks no network transport:
 * one node; docs/multi-gpu.md says what a multi-node run needs).
 *
 * Threads: a team's calls come from one thread at a time.
 */
#ifndef GG_TEAM_H
#define GG_TEAM_H

#include "gg.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gg_team gg_team;

/* NVSHMEM's unique id (nvshmemx_uniqueid_t): 128 bytes, plain data. */
typedef struct gg_team_uid {
  unsigned char bytes[128];
} gg_team_uid;

/* A new id for a team whose bootstrap root is this process.
 * GG_ERR_NO_LIBRARY (with the install command) without NVSHMEM. */
gg_status gg_team_uid_new(gg_team_uid *uid);

/* Join the team of `size` ranks (1..GG_TEAM_MAX) as `rank` (0..size-1)
 * on ctx's GPU, within timeout_ms (> 0) of the first rank's arrival.
 * (A team of 1 holds symmetric arrays but runs no frame: frames declare
 * gpus = 2..GG_TEAM_MAX, and a session needs a team of that size.)
 * GG_ERR_INVALID: a bad rank or size, more ranks than this host has GPUs
 * (NVSHMEM here is one node), or a context on an SM partition;
 * GG_ERR_STATE: this process already started NVSHMEM; GG_ERR_TIMEOUT:
 * not every rank arrived. */
enum { GG_TEAM_MAX = 64 };
gg_status gg_team_open(gg_context *ctx, int rank, int size, const gg_team_uid *uid,
                       int timeout_ms, gg_team **out);
void gg_team_free(gg_team *team);

int gg_team_rank(const gg_team *team);   /* -1 for NULL */
int gg_team_size(const gg_team *team);   /* 0 for NULL */

/* `bytes` of device memory at the same offset of NVSHMEM's symmetric
 * heap on every rank, zero-filled, so kernels can address a peer's copy
 * (nvshmem_ptr, put, signal).  Collective.  The array works as any
 * device array of the team's context; gg_array_free of it is collective
 * too. */
gg_status gg_team_array_alloc(gg_team *team, size_t bytes, gg_array **out);

#ifdef __cplusplus
}
#endif
#endif /* GG_TEAM_H */
