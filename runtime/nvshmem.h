/*
 * nvshmem.h - NVSHMEM's host library for modules that call NVSHMEM
 * (internal; nvshmem.c says how it is found and why modules need it).
 */
#ifndef GGR_NVSHMEM_H
#define GGR_NVSHMEM_H

#include "internal.h"

/* Link res->binary (NVRTC -rdc=true output for `arch`, compiled with
 * `include`, "-I<NVSHMEM>/include") with NVSHMEM's device library at
 * `library`, and the bridge nvshmem.c explains, into a loadable cubin. */
gg_status ggr_nvshmem_link(ggr_compiler *c, const char *arch, const char *include,
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
