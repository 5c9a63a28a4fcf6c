/*
 * host_noise.h - what interrupted the waiting thread during a run: the
 * interrupts its CPU took (/proc/interrupts, by source), the CPU's time
 * stolen by the hypervisor and spent in IRQ and softirq (/proc/stat), and
 * the thread's own context switches (getrusage RUSAGE_THREAD).  A frame
 * the host saw late was late because its thread was off the CPU: these
 * counts say how often and by whom, beside the soak's tails.
 *
 *   host_noise n; host_noise_begin(&n, cpu);   ... run ...
 *   host_noise_end(&n); host_noise_print(&n, stdout, seconds);
 *
 * cpu: the CPU the thread is pinned to, or -1 (then only the thread's
 * context switches are counted).  Everything read is Linux's; where a
 * file cannot be read the line says so and the counts are left out.
 */
#ifndef BENCH_HOST_NOISE_H
#define BENCH_HOST_NOISE_H

#include <stdint.h>
#include <stdio.h>

#define HOST_NOISE_SOURCES 64 /* interrupt sources followed; more are summed as "other" */

typedef struct host_noise {
  int cpu;
  int have_irq, have_stat;
  int nsrc;
  char src[HOST_NOISE_SOURCES][24]; /* the source's name (LOC, NMI, 45, ...) and what it is */
  char what[HOST_NOISE_SOURCES][40];
  uint64_t irq0[HOST_NOISE_SOURCES], irq1[HOST_NOISE_SOURCES];
  uint64_t stat0[8], stat1[8]; /* user nice system idle iowait irq softirq steal (ticks) */
  long nvcsw0, nivcsw0, nvcsw1, nivcsw1;
} host_noise;

void host_noise_begin(host_noise *n, int cpu);
void host_noise_end(host_noise *n);
void host_noise_print(const host_noise *n, FILE *out, double seconds);

#endif
