/*
 * body_check.h - mistakes in a kernel's declaration and text that the
 * loader can name at the workload's file:line, before a GPU compiler
 * reports them in its own words (or not at all).
 *
 *   - a body (or value) that writes a view declared access = "in":
 *     V(...) followed by an assignment (=, +=, ..., <<=, >>=) or by ++ / --,
 *     or preceded by ++ / --, or &V(...) as the first argument of an
 *     atomic function (atomicAdd, atomicCAS_system, ...);
 *   - a view indexed with a number of indices other than its rank,
 *     V(i, j) on a rank-1 view, or indexed in two calls, V(i)(j).
 *
 * Views reach a body as function-like macros (V(i0, ...)), so the body
 * scan follows the preprocessor: it skips comments, string and character
 * literals (raw strings too) and pp-numbers, and counts a call's indices
 * as the macro does, by the commas outside any nested parentheses.  A
 * body that #defines or #undefs a view's name is not checked for that
 * name after that line; text inside #if/#ifdef/#ifndef groups (which may
 * never be compiled: #if 0) and the arguments of function-like macros the
 * body #defines (which may be stringified or pasted, not expanded) are
 * not checked; after a declaration of a local named like a view (float
 * x[4], auto &x), which the view's macro then indexes, writes to that
 * name are not checked.  Identifiers include '$' and UTF-8 letters, as clang's do.
 * Anything the scan reports is an error the compiler would also report,
 * so no body that compiles is refused - but for the text's own rules,
 * checked first (text_rules.h).
 */
#ifndef GGI_BODY_CHECK_H
#define GGI_BODY_CHECK_H

#include <stddef.h>

#include "ir.h"

/* Kernel kn's body and values.  Returns 0, or -1 with *line set to the
 * file line of the mistake and d->msg to what is wrong and what to write
 * (ggi_fail: the caller places it at *line). */
int ggi_body_check(const ggi_kernel *kn, int *line, ggi_diag *d);

#endif
