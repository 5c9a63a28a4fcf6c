/*
 * diag.h - how gen reports an error: one message in a ggi_diag, written
 * by the stage that found it and printed once by main.c.
 *
 * Every error is "file:line: what is wrong and what is allowed" (or
 * "file: ..." when no line is known), on one line, what the workload
 * wrote echoed with control characters escaped.  Only the functions here
 * write d->msg: the place is formatted and the text escaped in diag.c.
 *
 *   - A stage that knows the place returns ggi_fail_at(d, file, line, ...).
 *   - A stage that does not (a template, a plan row, a scanner that knows
 *     the line but not the file) returns ggi_fail(d, ...); its caller,
 *     which knows where, places that message with ggi_fail_at(d2, file,
 *     line, "kernel '%s': %s", name, d->msg).
 *   - The loader's readers fail through ggi_load_fail (loader.h), which
 *     calls ggi_fail_at and unwinds the Lua call.
 *
 * A message may be formatted from the diag's own d->msg: both functions
 * format into a copy before they write d->msg.
 */
#ifndef GGI_DIAG_H
#define GGI_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* The one error of a stage. */
typedef struct ggi_diag {
  char msg[1024];
} ggi_diag;

/* d->msg from a format, escaped, with no place: for a stage that does
 * not know where the mistake is (its caller places the message) or a
 * mistake that has no place in a workload file (an output folder, a
 * template).  Returns -1, so `return ggi_fail(d, ...)`. */
int ggi_fail(ggi_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ggi_vfail(ggi_diag *d, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* The one way every stage reports a mistake in a workload file:
 * d->msg = "file:line: message" ("file: message" when line <= 0), on one
 * line, control characters escaped (names and paths come from the file).
 * file NULL reads "?".  Returns -1. */
int ggi_fail_at(ggi_diag *d, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int ggi_vfail_at(ggi_diag *d, const char *file, int line, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* s with control bytes (and malformed UTF-8, and C1 controls) escaped as
 * \n, \t, \xHH, for messages that echo what a workload wrote: written to
 * f, or copied into dst (truncated to size, always terminated). */
void ggi_print_clean(FILE *f, const char *s);
void ggi_clean(char *dst, size_t size, const char *src);

#endif
