/* diag.c - filling a ggi_diag. */
#include <stdarg.h>
#include <stdio.h>

#include "ir.h"

int ggi_fail(ggi_diag *d, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->msg, sizeof d->msg, fmt, ap);
  va_end(ap);
  return -1;
}
