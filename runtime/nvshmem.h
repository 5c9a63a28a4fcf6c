/*
 * nvshmem.h - NVSHMEM's host library for modules that call NVSHMEM
 * (internal; nvshmem.c says how it is found and why modules need it).
 */
#ifndef GGR_NVSHMEM_H
#define GGR_NVSHMEM_H

#include "internal.h"

/* The bridge's source (nvshmem.c explains it), which the compiler
 * compiles for the module's arch with -rdc=true and "-I<NVSHMEM>/include";
 * then link res->binary (the module's NVRTC -rdc=true output for `arch`)
 * with the compiled bridge and NVSHMEM's device library at `library`
 * into a loadable cubin.  The compile is the caller's (features.c), so
 * that calls go one way: features.c -> nvshmem.c -> link.c -> compile.c. */
const char *ggr_nvshmem_bridge_source(void);
gg_status ggr_nvshmem_link(const char *arch, const gg_compile_result *bridge,
                           const char *library, gg_compile_result *res);

/* Tell NVSHMEM of a module just loaded (CUmodule `native`), so that its
 * device code sees this process's NVSHMEM state.  GG_ERR_STATE when
 * NVSHMEM is not initialized in the process; GG_ERR_NO_LIBRARY when its
 * host library is missing.  `name` is the module's, for messages. */
gg_status ggr_nvshmem_module_init(gg_context *ctx, void *native, const char *name);
/* Before the module is unloaded (a no-op where init never ran). */
void ggr_nvshmem_module_finalize(void *native);

/* Start-up and the symmetric heap (team.c; open_host first where noted).
 * uid: NVSHMEM's 128-byte unique id, made here (opens the host library).
 * host: opens the host library, says whether NVSHMEM is initialized in
 * this process; the calls below need it opened.  init: blocks until
 * every rank arrived, returns NVSHMEM's code.  malloc and free are
 * NVSHMEM's collective calls, as barrier is; all need the device's context current. */
gg_status ggr_nvshmem_uid(void *uid);
gg_status ggr_nvshmem_host(int *started);
int ggr_nvshmem_init(int rank, int nranks, const void *uid, int device);
void ggr_nvshmem_finalize(void);
void *ggr_nvshmem_malloc(size_t bytes);
void ggr_nvshmem_free(void *p);
void ggr_nvshmem_barrier(void);

#endif
