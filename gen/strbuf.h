/*
 * strbuf.h - a growable string for building sources and messages.
 *
 * Appends never fail loudly: an allocation failure sets `oom` and later
 * appends do nothing, so a renderer can append freely and check once at
 * the end (ggi_buf_ok).
 */
#ifndef GGI_STRBUF_H
#define GGI_STRBUF_H

#include <stddef.h>

typedef struct ggi_buf {
  char *p;      /* NUL-terminated when len > 0 or after ggi_buf_take */
  size_t len, cap;
  int oom;
} ggi_buf;

void ggi_buf_putn(ggi_buf *b, const char *s, size_t n);
void ggi_buf_puts(ggi_buf *b, const char *s);
void ggi_buf_printf(ggi_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;
/* Text from outside (a path, a name) as the contents of a C string
 * literal that is also safe inside a comment: \ " and control or
 * non-ASCII bytes escaped (octal), no trigraph (a ? next to a ? is \?)
 * and no comment end (the / of a * / is \057).  Used for every such text
 * that reaches generated code: comments, #line names, string literals. */
void ggi_buf_put_cstr(ggi_buf *b, const char *s);
int ggi_buf_ok(const ggi_buf *b);     /* 1 unless an allocation failed */
char *ggi_buf_take(ggi_buf *b);       /* the malloc'ed string; b is emptied */
void ggi_buf_free(ggi_buf *b);

#endif
