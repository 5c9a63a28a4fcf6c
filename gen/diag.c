/* diag.c - filling a ggi_diag: the one place that formats "file:line: ". */
#include <stdarg.h>
#include <stdio.h>

#include "ir.h"
#include "names.h"

int ggi_fail(ggi_diag *d, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->msg, sizeof d->msg, fmt, ap);
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
