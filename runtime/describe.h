/*
 * describe.h - messages for a name that a module does not have, built from
 * its descriptor alone (no device), so they can be tested without a GPU.
 */
#ifndef GGR_DESCRIBE_H
#define GGR_DESCRIBE_H

#include <stddef.h>

#include "gg_module.h"

/* "module M has no kernel named 'x' (did you mean 'y'?); its kernels: a, b"
 * (or, for the name of a persistent kernel, how to run it instead). */
void ggr_missing_kernel(const gg_module_desc *d, const char *name, char *buf, size_t size);
/* "module M has no persistent kernel 'x'; its persistent kernels: p, q" */
void ggr_missing_persistent(const gg_module_desc *d, const char *name, char *buf, size_t size);
/* "persistent 'p' has no command 'x'; its commands: a, b" */
void ggr_missing_command(const gg_module_desc *d, const gg_persistent_desc *pd, const char *name,
                         char *buf, size_t size);

#endif
