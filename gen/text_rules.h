/*
 * text_rules.h - the rules of a body's (or value's, combine's) own text,
 * checked when the workload loads, before any other scan reads it.
 *
 * The text sits inside gpugen's code, so: no #include, no push_macro,
 * pop_macro or _Pragma, no #define or #undef of a gg_ or GG_ name, every
 * comment and literal ended and every (, [ and { closed within the text;
 * and what NVRTC and clang would read differently (a lone carriage
 * return, a backslash with blanks after it, numbers in directives that
 * one compiler takes and the other refuses) is refused at the
 * workload's line instead of compiling on one target only.
 */
#ifndef GGI_TEXT_RULES_H
#define GGI_TEXT_RULES_H

#include <stddef.h>

#include "diag.h"

/* The text's own rules (below): 0, or -1 with *line the file line
 * (base_line is the text's first) and d->msg what is wrong (ggi_fail: the
 * caller places it at *line).  where
 * names the text in the message ("body", "value", "combine"); targets
 * (GGI_TARGET_* bits) are the kernel's: asm is refused where hip is one. */
int ggi_text_check(const char *text, int base_line, const char *where, unsigned targets,
                   int *line, ggi_diag *d);
/* Calls each(ctx, name, len) for every name text #defines, in order
 * (repeats included; line splices and the %: digraph followed as the
 * preprocessor does), so that its snippet can #undef them after it
 * (dict.c). */
void ggi_text_defines(const char *text, void (*each)(void *ctx, const char *name, size_t len),
                     void *ctx);

#endif
