/* strbuf.c - see strbuf.h. */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grow(ggi_buf *b, size_t extra)
{
  if (b->oom) return 0;
  if (b->len + extra + 1 <= b->cap) return 1;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  char *p = realloc(b->p, cap);
  if (!p) { b->oom = 1; return 0; }
  b->p = p;
  b->cap = cap;
  return 1;
}

void ggi_buf_putn(ggi_buf *b, const char *s, size_t n)
{
  if (!grow(b, n)) return;
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = 0;
}

void ggi_buf_puts(ggi_buf *b, const char *s) { ggi_buf_putn(b, s, strlen(s)); }

void ggi_buf_printf(ggi_buf *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || !grow(b, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void ggi_buf_put_cstr(ggi_buf *b, const char *s)
{
  for (const char *p = s; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (c == '"' || c == '\\') ggi_buf_printf(b, "\\%c", c);
    else if (c == '?' && (p[1] == '?' || (p > s && p[-1] == '?'))) ggi_buf_puts(b, "\\?");
    else if (c == '/' && p > s && p[-1] == '*') ggi_buf_puts(b, "\\057");
    else if (c == '\n') ggi_buf_puts(b, "\\n");
    else if (c == '\t') ggi_buf_puts(b, "\\t");
    else if (c < 32 || c >= 127) ggi_buf_printf(b, "\\%03o", c);
    else ggi_buf_putn(b, p, 1);
  }
}

int ggi_buf_ok(const ggi_buf *b) { return !b->oom; }

char *ggi_buf_take(ggi_buf *b)
{
  char *p = b->p;
  if (!p) p = calloc(1, 1);
  b->p = NULL;
  b->len = b->cap = 0;
  return p;
}

void ggi_buf_free(ggi_buf *b)
{
  free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
  b->oom = 0;
}
