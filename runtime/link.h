/*
 * link.h - relocatable device code (internal): NVRTC with -rdc=true, then
 * nvJitLink with a static library of device code: libcudadevrt.a for
 * kernels that launch kernels (dynamic parallelism), libnvshmem_device.a
 * for kernels that call NVSHMEM.  CUDA only.
 *
 * nvJitLink is loaded with dlopen like every vendor library: from
 * $CUDA_HOME/lib64 when CUDA_HOME is set, else the toolkit found at build
 * time, else the default search path.  libcudadevrt.a must sit in the same
 * toolkit's lib64 (it is a static archive: it is read, not loaded).
 */
#ifndef GGR_LINK_H
#define GGR_LINK_H

#include "backend.h"

/* Compile `source` for `arch` ("sm_90"; PTX targets are refused: the
 * linker needs a real arch) with -rdc=true and link it with the device
 * runtime into one loadable cubin in res->binary.  The logs of NVRTC and
 * nvJitLink go to res->log. */
gg_status ggr_compile_rdc_with(ggr_compiler *c, const char *arch, const char *name,
                               const char *source, const char *const *options,
                               gg_compile_result *res);

/* Append "<what>:\n<text>" to res->log (NVRTC's log may already be there). */
void ggr_log_append(gg_compile_result *res, const char *what, const char *text);

/* Link the relocatable cubin in res->binary (NVRTC -rdc=true output for
 * `arch`, sm_XX), and a second one when `extra` is not NULL, with the
 * static library at `library` into one loadable cubin, which replaces
 * res->binary.  nvJitLink's log and any failure are appended to res->log;
 * `why` says what needs the library when it is missing
 * (GG_ERR_NO_LIBRARY). */
gg_status ggr_link_library(const char *arch, const void *extra, size_t extra_size,
                           const char *library, const char *why, gg_compile_result *res);

#endif /* GGR_LINK_H */
