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

#endif
