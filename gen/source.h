/* source.h - the kernel source of a module for one target (source.c). */
#ifndef GGI_SOURCE_H
#define GGI_SOURCE_H

#include "ir.h"
#include "strbuf.h"

/* The most generated source per target: compilers take minutes over
 * more, at every start-up. */
#define GGI_MAX_SOURCE ((size_t)32 << 20)

/* The whole kernel source of module m for one target (GGI_TARGET_CUDA or
 * GGI_TARGET_HIP), malloc'ed into *out.  templates_dir NULL: the embedded
 * templates.  Returns 0, or -1 with d->msg set. */
int ggi_render_source(const ggi_module *m, unsigned target, const char *templates_dir,
                      char **out, ggi_diag *d);

/* One kernel's part of the source: its argument struct, its pattern's
 * pieces in its namespace, and its __global__ wrapper - none for a
 * kernel that runs only as a frame's stage (an exchange stage's own
 * kernel, GGI_PAT_PEERS, which frame_render.c renders before its
 * frame).  Returns 0, or -1 with d->msg set. */
int ggi_render_kernel(const ggi_module *m, const ggi_kernel *k, unsigned target,
                      const char *templates_dir, ggi_buf *out, ggi_diag *d);

/* The headers host and device share, include/gg_abi.h then
 * include/gg_protocol.h (always the embedded copies), pasted once at the
 * top of every rendered source, before the prelude, which reads them. */
void ggi_source_shared_headers(ggi_buf *b);

/* The comment every generated file starts with: what it is (`what`),
 * the generator's version, the workload file, and one line per kernel
 * with its choices.  target 0: a host file. */
void ggi_source_header(ggi_buf *b, const ggi_module *m, unsigned target, const char *what);

#endif
