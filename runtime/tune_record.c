/*
 * tune_record.c - the tuning record's text (tune.h): written by
 * gg_session_tune after measuring, read back instead of measuring.  A
 * record comes from a file, so everything in it is checked before it is
 * believed; anything odd makes it "ignored", and the caller measures.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

#define MAGIC "gpugen tune record 1"
#define FIGURE_MAX 1e12 /* ns: a frame of 1000 s is no figure of a frame loop */

int ggr_tune_pick(const gg_tune_row *rows, int n)
{
  int best = -1;
  for (int i = 0; i < n; i++)
    if (rows[i].state == GG_TUNE_MEASURED && (best < 0 || rows[i].p50_ns < rows[best].p50_ns))
      best = i;
  return best;
}

/* Figures are whole nanoseconds in the record: digits only, the same in
 * every locale (a "%.1f" wrote 4812,5 under de_DE, which the C locale's
 * parser refused). */
static unsigned long long whole_ns(double ns)
{
  return ns > 0 && ns < FIGURE_MAX ? (unsigned long long)(ns + 0.5) : 0;
}

size_t ggr_tune_record_format(const gg_tune_row *rows, int n, int choice, char *buf,
                              size_t size)
{
  size_t len = 0;
  int w = snprintf(buf, size, "%s\nrows %d\n", MAGIC, n);
  for (int i = 0; w >= 0 && (size_t)w < size - len && i <= n; i++) {
    len += (size_t)w;
    if (i == n)
      w = snprintf(buf + len, size - len, "choice %d\n", choice);
    else
      w = snprintf(buf + len, size - len, "row %d %d %d %llu %llu\n", i, rows[i].blocks,
                   (int)rows[i].state, whole_ns(rows[i].p50_ns), whole_ns(rows[i].mean_ns));
  }
  if (w < 0 || (size_t)w >= size - len)
    return 0;
  return len + (size_t)w;
}

static int refuse(char *why, size_t size, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, size, fmt, ap);
  va_end(ap);
  return -1;
}

/* A whole decimal integer in [lo, hi] from *p (digits only, no sign, no
 * leading zero), then one space or the line's end. */
static int read_int(char **p, long lo, long hi, long *out)
{
  char *end;
  if (**p < '0' || **p > '9' || ((*p)[0] == '0' && (*p)[1] >= '0' && (*p)[1] <= '9'))
    return -1;
  long v = strtol(*p, &end, 10);
  if (end == *p || v < lo || v > hi || (*end != ' ' && *end != '\0'))
    return -1;
  *p = *end == ' ' ? end + 1 : end;
  *out = v;
  return 0;
}

/* A figure: whole nanoseconds, 1 to 12 digits with no leading zero
 * (or "0"), so nothing but digits and never past FIGURE_MAX. */
static int read_figure(char **p, double *out)
{
  const char *c = *p;
  unsigned long long v = 0;
  int n = 0;
  for (; c[n] >= '0' && c[n] <= '9'; n++)
    v = v * 10 + (unsigned long long)(c[n] - '0');
  if (n == 0 || n > 12 || (n > 1 && c[0] == '0') || (c[n] != ' ' && c[n] != '\0'))
    return -1;
  *p += c[n] == ' ' ? n + 1 : n;
  *out = (double)v;
  return 0;
}

/* Row i of the record: "row i blocks state p50 mean". */
static int parse_row(char *line, gg_tune_row *r, int i, char *why, size_t size)
{
  long idx, blocks, state;
  char *p = line + 4;
  if (strncmp(line, "row ", 4) || read_int(&p, 0, GG_TUNE_ROWS - 1, &idx) ||
      read_int(&p, 1, 1 << 24, &blocks) || read_int(&p, 0, GG_TUNE_NOT_REACHED, &state) ||
      read_figure(&p, &r->p50_ns) || read_figure(&p, &r->mean_ns) || *p)
    return refuse(why, size, "row %d does not parse", i);
  if (idx != i || blocks != r->blocks)
    return refuse(why, size, "row %d is not the candidate of the key (%s %s, %d blocks)", i,
                  r->kernel ? r->kernel : "?", r->command ? r->command : "?", r->blocks);
  r->state = (gg_tune_state)state;
  if (r->state == GG_TUNE_MEASURED && !(r->p50_ns > 0 && r->mean_ns > 0))
    return refuse(why, size, "row %d: a measured frame of 0 ns", i);
  if (r->state != GG_TUNE_MEASURED)
    r->p50_ns = r->mean_ns = 0;
  return 0;
}

int ggr_tune_record_parse(const char *buf, size_t len, gg_tune_row *rows, int n, int *choice,
                          char *why, size_t why_size)
{
  char local[GGR_TUNE_RECORD_MAX];
  if (!buf || len == 0 || len >= sizeof local || memchr(buf, '\0', len))
    return refuse(why, why_size, "%zu bytes, not a record's text", len);
  memcpy(local, buf, len);
  local[len] = '\0';
  if (local[len - 1] != '\n' || strstr(local, "\n\n"))
    return refuse(why, why_size, "its lines are not a record's (an empty one, or no end)");
  char *save = NULL, *line = strtok_r(local, "\n", &save);
  if (!line || strcmp(line, MAGIC))
    return refuse(why, why_size, "not a record of this libgg (\"%s\" expected first)", MAGIC);
  long nrows;
  char *p;
  line = strtok_r(NULL, "\n", &save);
  if (!line || strncmp(line, "rows ", 5) || (p = line + 5, read_int(&p, 0, GG_TUNE_ROWS, &nrows)) ||
      *p)
    return refuse(why, why_size, "no \"rows N\" line");
  if (nrows != n)
    return refuse(why, why_size, "%ld rows, the key has %d candidates", nrows, n);
  for (int i = 0; i < n; i++) {
    line = strtok_r(NULL, "\n", &save);
    if (!line)
      return refuse(why, why_size, "row %d is missing", i);
    if (parse_row(line, &rows[i], i, why, why_size))
      return -1;
  }
  long c;
  line = strtok_r(NULL, "\n", &save);
  if (!line || strncmp(line, "choice ", 7) || (p = line + 7, read_int(&p, 0, GG_TUNE_ROWS, &c)) ||
      *p)
    return refuse(why, why_size, "no \"choice K\" line after the rows");
  if (strtok_r(NULL, "\n", &save))
    return refuse(why, why_size, "text after the choice");
  if (c != ggr_tune_pick(rows, n))
    return refuse(why, why_size, "its choice %ld is not the measured row of lowest p50", c);
  *choice = (int)c;
  return 0;
}
