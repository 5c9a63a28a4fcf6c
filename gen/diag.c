/* diag.c - filling a ggi_diag: the one place that formats "file:line: ",
 * and the escaping of what a workload wrote before a message echoes it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"

int ggi_vfail(ggi_diag *d, const char *fmt, va_list ap)
{
  char raw[sizeof d->msg];
  vsnprintf(raw, sizeof raw, fmt, ap);
  ggi_clean(d->msg, sizeof d->msg, raw);
  return -1;
}

int ggi_fail(ggi_diag *d, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ggi_vfail(d, fmt, ap);
  va_end(ap);
  return -1;
}

int ggi_vfail_at(ggi_diag *d, const char *file, int line, const char *fmt, va_list ap)
{
  char raw[sizeof d->msg];
  if (!file) file = "?";
  int n = line > 0 ? snprintf(raw, sizeof raw, "%s:%d: ", file, line)
                   : snprintf(raw, sizeof raw, "%s: ", file);
  if (n >= 0 && (size_t)n < sizeof raw) vsnprintf(raw + n, sizeof raw - (size_t)n, fmt, ap);
  ggi_clean(d->msg, sizeof d->msg, raw);
  return -1;
}

int ggi_fail_at(ggi_diag *d, const char *file, int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ggi_vfail_at(d, file, line, fmt, ap);
  va_end(ap);
  return -1;
}

/* Length of the well-formed UTF-8 character at p, or 0 when there is
 * none or it is a C1 control (U+0080..U+009F: terminals act on those). */
static size_t utf8_len(const unsigned char *p)
{
  size_t n = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
           : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
  for (size_t i = 1; i < n; i++)
    if ((p[i] & 0xc0) != 0x80) return 0;
  if (n == 2 && p[0] == 0xc2 && p[1] <= 0x9f) return 0;
  return n;
}

/* One piece of s at p: its clean text into out (NUL-terminated, at most
 * 9 bytes); returns the number of bytes of s it stands for. */
static size_t clean_piece(const unsigned char *p, char *out)
{
  size_t n = *p >= 0x80 ? utf8_len(p) : 1;
  if (*p == '\n') strcpy(out, "\\n");
  else if (*p == '\t') strcpy(out, "\\t");
  else if (*p < 32 || *p == 127 || n == 0) snprintf(out, 9, "\\x%02x", *p);
  else memcpy(out, p, n), out[n] = 0;
  return n ? n : 1;
}

void ggi_print_clean(FILE *f, const char *s)
{
  char piece[9];
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    p += clean_piece(p, piece);
    fputs(piece, f);
  }
}

void ggi_clean(char *dst, size_t size, const char *src)
{
  char piece[9];
  size_t at = 0;
  for (const unsigned char *p = (const unsigned char *)src; *p;) {
    p += clean_piece(p, piece);
    size_t n = strlen(piece);
    if (at + n + 1 > size) break;
    memcpy(dst + at, piece, n);
    at += n;
  }
  if (size) dst[at] = 0;
}
