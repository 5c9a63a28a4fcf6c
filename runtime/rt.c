/*
 * rt.c - real-time helpers: pin the calling thread, lock memory, ask for
 * SCHED_FIFO.  Each says plainly why when the system refuses (containers
 * and unprivileged users usually get EPERM for FIFO and mlockall).
 */
#define _GNU_SOURCE /* CPU_SET, pthread_setaffinity_np */
#include "gg_session.h"
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

gg_status gg_rt_pin_cpu(int cpu)
{
  if (cpu < 0 || cpu >= CPU_SETSIZE)
    return ggr_set_error(GG_ERR_INVALID, "pin: no CPU number %d (0 to %d)", cpu,
                         CPU_SETSIZE - 1);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  if (rc)
    return ggr_set_error(GG_ERR_UNSUPPORTED, "pthread_setaffinity_np refused CPU %d: %s", cpu,
                         strerror(rc));
  return GG_OK;
}

gg_status gg_rt_lock_memory(void)
{
  if (mlockall(MCL_CURRENT | MCL_FUTURE))
    return ggr_set_error(GG_ERR_UNSUPPORTED, "mlockall refused: %s (needs CAP_IPC_LOCK or a "
                         "larger RLIMIT_MEMLOCK)", strerror(errno));
  return GG_OK;
}

gg_status gg_rt_fifo(int priority)
{
  struct sched_param sp;
  memset(&sp, 0, sizeof sp);
  sp.sched_priority = priority;
  int rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
  if (rc)
    return ggr_set_error(GG_ERR_UNSUPPORTED, "SCHED_FIFO refused: %s (needs CAP_SYS_NICE or an "
                         "RLIMIT_RTPRIO; the thread keeps its normal policy)", strerror(rc));
  return GG_OK;
}

uint64_t gg_rt_now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
