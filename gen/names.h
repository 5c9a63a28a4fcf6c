/*
 * names.h - which names a workload may declare, and the check that the
 * identifiers generated from them never collide.
 *
 * A declared name reaches generated code as written: as a field of the
 * host argument struct and a parameter of the typed launcher (C and C++),
 * as a local variable or view macro around the body (CUDA and HIP), and
 * inside generated identifiers (gg_<module>_args_<kernel>,
 * GG_<MODULE>_<KERNEL>_<PARAM>, ...).  The rules (docs/language.md, "Names"):
 *
 *   - a letter, then letters, digits and _; at most 64 characters;
 *   - not gg, not starting with gg_, in any letter case (generated names);
 *   - no "__" (reserved in C and C++), not ending in "_t" (the C
 *     library's type names: int64_t, size_t, ...);
 *   - not all capitals when longer than one character (the C library's
 *     and C programs' macros: NULL, EOF, INT_MAX, ...);
 *   - not starting with hip or cuda followed by a capital or _ (the HIP
 *     and CUDA APIs, many of them macros);
 *   - not a keyword of C, C++ or CUDA, not offsetof (the generated
 *     header uses it; every other macro of the C library, errno, st_mtime,
 *     h_addr, ..., the header shields its names from: emit.c), not a name
 *     the generated code declares around a body (args, g, team_rank, ...).
 *
 * A module name (it names the output files) is also not the name of a C,
 * POSIX or libgg header.  And per module: every generated identifier is made once (no two
 * declarations may give the same one, letter case folded where the
 * generator capitalizes) and is not a name of libgg's headers or of the
 * templates.
 */
#ifndef GGI_NAMES_H
#define GGI_NAMES_H

#define GGI_NAME_MAX 64 /* characters of a declared name */

#include <stddef.h>
#include <stdio.h>

#include "ir.h"

/* What a kernel source declares at file scope from a declared name, for
 * a kernel or frame K: its entry point gg_<K> (a frame has none), its
 * argument struct gg_args_<K> and the namespace GG_NS_<K>; for a
 * persistent kernel P: its entry point gg_persist_<P> and the macro
 * GG_MIN_BLOCKS_gg_persist_<P> the runtime may define.  Everything else
 * rendered for K lives inside GG_NS_<K> under fixed gg_ names (gg_body,
 * the for pattern's gg_at, the fft's gg_fft_back, ...), which no workload
 * name and no other kernel's names can reach: so only the names above
 * (and the C module's) need ggi_check_generated_names. */
#define GGI_NS_PREFIX "GG_NS_"

/* NULL when s is a usable name, else why not (a phrase that reads after
 * `"s" `, e.g. "is a keyword of C, C++ or CUDA"). */
const char *ggi_name_problem(const char *s);

/* The same for a module name, which also names the output files: not
 * the name of a C, POSIX or libgg header (NAME.h would hide it). */
const char *ggi_module_name_problem(const char *s);

/* What a kernel, frame, persistent kernel or command named `name` adds
 * to the module's generated identifiers: "_name", or "" when the name is
 * the module's own (module "inner", kernel "inner": GG_INNER_Y and
 * gg_inner_launch, not GG_INNER_INNER_Y and gg_inner_launch_inner).
 * Returns out, which holds at least GGI_NAME_PART_MAX bytes.  The one
 * rule for every generated name that joins the module with one of its
 * declarations, in the header writer and in the collision check. */
#define GGI_NAME_PART_MAX 128
const char *ggi_name_part(const char *module, const char *name, char *out);

/* The <ARG> part of GG_<MODULE>[_<KERNEL>]_<ARG> for the launch argument
 * `name` of kernel k (a parameter, a run-time extent or a stride V_sD):
 * upper-cased, unless another argument of k differs from it only in
 * letter case (a batch extent "b" next to a view "B"): then both keep
 * their case as written, so the two constants stay apart.  Returns out,
 * which holds at least GGI_NAME_PART_MAX bytes.  The one rule, for the
 * header writer and the collision check. */
const char *ggi_arg_id(const ggi_kernel *k, const char *name, char *out);

/* Every identifier generated for module m is made once and is none of
 * libgg's or the templates' names.  Returns 0, or -1 with
 * d->msg = "file:line: ...". */
int ggi_check_generated_names(const ggi_module *m, int module_line, ggi_diag *d);

#endif
