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
 * checked first (ggi_text_check): no #include, no push_macro,
 * pop_macro or _Pragma, no #define or #undef of a gg_ or GG_ name, every
 * comment and literal ended and every (, [ and { closed within the text,
 * which sits inside gpugen's code.
 */
#ifndef GGI_BODY_CHECK_H
#define GGI_BODY_CHECK_H

#include <stddef.h>

#include "ir.h"

/* Kernel kn's body and values.  Returns 0, or -1 with *line set to the
 * file line of the mistake and msg to what is wrong and what to write. */
int ggi_body_check(const ggi_kernel *kn, int *line, char *msg, size_t size);

/* Whether kernel kn's body touches view `view` only at its own thread's
 * element: every occurrence of the name is the call view(i0, ...) whose
 * indices are exactly the range's index names in order (as many as the
 * view's rank, which must be the range's), never under & (no pointer to
 * a neighbour) and never the bare name (the pointer itself); no index
 * name is redeclared (float i, auto [i, j], a lambda's (long i)); the
 * body has no preprocessor directive or _Pragma (a macro could hide any
 * of that) and names nothing of gpugen's own (gg_...).
 * Conservative: 1 only when proven from the text; gen/frame_deps.c uses it to
 * drop barriers between stages of a frame.  For a reduce, every value
 * expression must pass. */
int ggi_body_own_index(const ggi_kernel *kn, const ggi_param *view);
/* The same for every param of kn at once, from one scan per text: the
 * table ggi_specialize keeps in kn->own_index (in arena a; NULL when kn
 * has no params or memory ran out). */
const char *ggi_body_own_index_table(const ggi_kernel *kn, ggi_arena *a);
/* For a view that passed ggi_body_own_index: whether the body may read
 * it (a use other than V(i, ...) = ...); 0 when it only assigns it or
 * never names it. */
int ggi_body_reads_own(const ggi_kernel *kn, const ggi_param *view);
/* A team kernel touches `view` only at its own league item,
 * V(league_rank, ...) (body_check.c says how strictly). */
int ggi_body_own_item(const ggi_kernel *kn, const ggi_param *view);
/* A for kernel touches `view` only through calls V(...) of its macro
 * (which checks a declared halo at run time), never its pointer or an
 * element's address (body_check.c says how strictly). */
int ggi_body_calls_only(const ggi_kernel *kn, const ggi_param *view);

/* The first call name(...) in s with other than want arguments: their
 * count, *lines the newlines before it; -1 when there is none. */
int ggi_call_arity(const char *s, const char *name, int want, int *lines);
/* Whether identifier `name` appears in text s (outside comments and
 * literals); and whether s may name it - it appears, or a directive or
 * an opaque spelling could make it up: 0 proves it never does. */
int ggi_text_names(const char *s, const char *name);
int ggi_text_may_name(const char *s, const char *name);

/* The text's own rules (body_check.c says which): 0, or -1 with *line the
 * file line (base_line is the text's first) and msg what is wrong.  where
 * names the text in the message ("body", "value", "combine"); targets
 * (GGI_TARGET_* bits) are the kernel's: asm is refused where hip is one. */
int ggi_text_check(const char *text, int base_line, const char *where, unsigned targets,
                   int *line, char *msg, size_t size);
/* Calls each(ctx, name, len) for every name text #defines, in order
 * (repeats included; line splices and the %: digraph followed as the
 * preprocessor does), so that its snippet can #undef them after it
 * (dict.c). */
void ggi_text_defines(const char *text, void (*each)(void *ctx, const char *name, size_t len),
                     void *ctx);

#endif
