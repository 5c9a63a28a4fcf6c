/*
 * host_noise.c - interrupts, stolen time and context switches over a run
 * (host_noise.h).
 */
#define _GNU_SOURCE
#include "host_noise.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* The cpu's column of /proc/interrupts into counts[], by source, in the
 * order of the file; names (and descriptions) into n on the first read.
 * 0 on success. */
static int read_irqs(host_noise *n, uint64_t *counts, int first)
{
  FILE *f = fopen("/proc/interrupts", "r");
  if (!f)
    return -1;
  char line[4096];
  int col = -1, ncols = 0;
  if (fgets(line, sizeof line, f)) { /* "CPU0 CPU1 ...": the columns of online CPUs */
    for (char *t = strtok(line, " \t\n"); t; t = strtok(NULL, " \t\n"), ncols++)
      if (!strncmp(t, "CPU", 3) && atoi(t + 3) == n->cpu)
        col = ncols;
  }
  int k = 0;
  while (col >= 0 && fgets(line, sizeof line, f)) {
    char *colon = strchr(line, ':');
    if (!colon)
      continue;
    *colon = 0;
    char *name = line + strspn(line, " ");
    char *p = colon + 1, *end;
    uint64_t v = 0;
    int c = 0;
    for (; c < ncols; c++) { /* ERR and MIS have one number: not per CPU */
      unsigned long long x = strtoull(p, &end, 10);
      if (end == p)
        break;
      if (c == col)
        v = x;
      p = end;
    }
    if (c < ncols)
      continue;
    int slot = k < HOST_NOISE_SOURCES - 1 ? k : HOST_NOISE_SOURCES - 1; /* the last: "other" */
    if (first) {
      if (k < HOST_NOISE_SOURCES - 1) {
        snprintf(n->src[slot], sizeof n->src[slot], "%s", name);
        p += strspn(p, " \t");
        p[strcspn(p, "\n")] = 0;
        snprintf(n->what[slot], sizeof n->what[slot], "%s", p);
      } else {
        snprintf(n->src[slot], sizeof n->src[slot], "other");
        n->what[slot][0] = 0;
      }
    }
    counts[slot] += v;
    k++;
  }
  fclose(f);
  if (col < 0)
    return -1;
  if (first)
    n->nsrc = k < HOST_NOISE_SOURCES ? k : HOST_NOISE_SOURCES;
  return 0;
}

/* The cpu's line of /proc/stat: the first eight fields. */
static int read_stat(int cpu, uint64_t v[8])
{
  FILE *f = fopen("/proc/stat", "r");
  if (!f)
    return -1;
  char want[32], line[1024];
  snprintf(want, sizeof want, "cpu%d ", cpu);
  int ok = -1;
  while (ok && fgets(line, sizeof line, f))
    if (!strncmp(line, want, strlen(want)))
      ok = sscanf(line + strlen(want), "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &v[0], &v[1], &v[2],
                  &v[3], &v[4], &v[5], &v[6], &v[7]) == 8 ? 0 : -1;
  fclose(f);
  return ok;
}

static void read_rusage(long *vol, long *invol)
{
  struct rusage r;
  *vol = *invol = -1;
  if (!getrusage(RUSAGE_THREAD, &r)) {
    *vol = r.ru_nvcsw;
    *invol = r.ru_nivcsw;
  }
}

void host_noise_begin(host_noise *n, int cpu)
{
  memset(n, 0, sizeof *n);
  n->cpu = cpu;
  if (cpu >= 0) {
    n->have_irq = !read_irqs(n, n->irq0, 1);
    n->have_stat = !read_stat(cpu, n->stat0);
  }
  read_rusage(&n->nvcsw0, &n->nivcsw0);
}

void host_noise_end(host_noise *n)
{
  read_rusage(&n->nvcsw1, &n->nivcsw1);
  if (n->have_irq) /* counted into the sources as first read (names are set only then) */
    n->have_irq = !read_irqs(n, n->irq1, 0);
  if (n->have_stat)
    n->have_stat = !read_stat(n->cpu, n->stat1);
}

void host_noise_print(const host_noise *n, FILE *out, double seconds)
{
  if (seconds <= 0)
    seconds = 1;
  fprintf(out, "host noise over %.1f s: the waiting thread's context switches: %ld involuntary, "
          "%ld voluntary\n", seconds, n->nivcsw1 - n->nivcsw0, n->nvcsw1 - n->nvcsw0);
  if (n->cpu < 0) {
    fprintf(out, "  (not pinned: the CPU's interrupts and stolen time are not counted)\n");
    return;
  }
  if (n->have_stat) { /* USER_HZ ticks, 100 a second on Linux */
    const char *name[8] = {"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"};
    fprintf(out, "  CPU %d (/proc/stat, 10 ms ticks):", n->cpu);
    for (int i = 0; i < 8; i++)
      if (i != 3)
        fprintf(out, " %s %lu", name[i], (unsigned long)(n->stat1[i] - n->stat0[i]));
    fprintf(out, "\n");
  } else {
    fprintf(out, "  CPU %d: /proc/stat unreadable\n", n->cpu);
  }
  if (!n->have_irq) {
    fprintf(out, "  CPU %d: /proc/interrupts unreadable\n", n->cpu);
    return;
  }
  uint64_t total = 0; /* a row that went down (the file's rows moved): counted as 0 */
  for (int i = 0; i < n->nsrc; i++)
    total += n->irq1[i] > n->irq0[i] ? n->irq1[i] - n->irq0[i] : 0;
  fprintf(out, "  CPU %d took %llu interrupts (%.0f a second):", n->cpu,
          (unsigned long long)total, (double)total / seconds);
  /* the sources by count, largest first, those with any */
  int shown[HOST_NOISE_SOURCES] = {0};
  for (int r = 0; r < n->nsrc; r++) {
    int best = -1;
    for (int i = 0; i < n->nsrc; i++)
      if (!shown[i] && n->irq1[i] > n->irq0[i] &&
          (best < 0 || n->irq1[i] - n->irq0[i] > n->irq1[best] - n->irq0[best]))
        best = i;
    if (best < 0)
      break;
    shown[best] = 1;
    fprintf(out, "%s %s %llu (%s)", r ? "," : "", n->src[best],
            (unsigned long long)(n->irq1[best] - n->irq0[best]), n->what[best]);
  }
  fprintf(out, "\n");
}
