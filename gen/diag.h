/*
 * diag.h - how gen reports an error: one message in a ggi_diag, written
 * by the stage that found it and printed once by main.c.
 *
 * Every error is "file:line: what is wrong and what is allowed" (or
 * "file: ..." when no line is known), on one line.  Stages below the
 * loader's Lua layer return -1 with d->msg set (`return ggi_fail_at(d,
 * ...)`); the loader's readers fail through ggi_load_fail (loader.h),
 * which fills the same ggi_diag and unwinds the Lua call.  Scanners that
 * know a line but not the file (body_check.h, text_rules.h) hand back a
 * line and a message for their caller to place.
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

/* Set d->msg from a format; returns -1, so `return ggi_fail(d, ...)`.
 * For messages that already carry their place, or have none. */
int ggi_fail(ggi_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The one way every stage reports a mistake in a workload file:
 * d->msg = "file:line: message" ("file: message" when line <= 0), on one
 * line, control characters escaped (names and paths come from the file).
 * file NULL reads "?".  Returns -1. */
int ggi_fail_at(ggi_diag *d, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int ggi_vfail_at(ggi_diag *d, const char *file, int line, const char *fmt, va_list ap);

/* s with control bytes (and malformed UTF-8, and C1 controls) escaped as
 * \n, \t, \xHH, for messages that echo what a workload wrote: written to
 * f, or copied into dst (truncated to size, always terminated). */
void ggi_print_clean(FILE *f, const char *s);
void ggi_clean(char *dst, size_t size, const char *src);

#endif
