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
 *   - not starting with gg_ in any letter case (generated names);
 *   - no "__" (reserved in C and C++), not ending in "_t" (the C
 *     library's type names: int64_t, size_t, ...);
 *   - not all capitals when longer than one character (the C library's
 *     and C programs' macros: NULL, EOF, INT_MAX, ...);
 *   - not starting with hip or cuda followed by a capital or _ (the HIP
 *     and CUDA APIs, many of them macros);
 *   - not a keyword of C, C++ or CUDA, not a macro or type the compilers
 *     or the C library define in lowercase (linux, errno, stdin, ...),
 *     not a name the generated code declares around a body (args, g,
 *     team_rank, ...).
 *
 * And per module: every generated identifier is made once (no two
 * declarations may give the same one, letter case folded where the
 * generator capitalizes) and is not a name of libgg's headers or of the
 * templates.
 */
#ifndef GGI_NAMES_H
#define GGI_NAMES_H

#include <stddef.h>
#include <stdio.h>

#include "ir.h"

/* NULL when s is a usable name, else why not (a phrase that reads after
 * `"s" `, e.g. "is a keyword of C, C++ or CUDA"). */
const char *ggi_name_problem(const char *s);

/* Every identifier generated for module m is made once and is none of
 * libgg's or the templates' names.  Returns 0, or -1 with
 * d->msg = "file:line: ...". */
int ggi_check_generated_names(const ggi_module *m, int module_line, ggi_diag *d);

/* s with control bytes escaped (\n, \t, \xHH), for messages that echo
 * what a workload wrote; written to f. */
void ggi_print_clean(FILE *f, const char *s);

#endif
