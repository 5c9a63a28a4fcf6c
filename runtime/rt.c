/*
 * rt.c - real-time helpers: pin the calling thread, lock memory, ask for
 * SCHED_FIFO.  Each says plainly why when the system refuses (containers
 * and unprivileged users usually get EPERM for FIFO and mlockall).
 */
#define _GNU_SOURCE /* CPU_SET, pthread_setaffinity_np */
#include "gg_session.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static gg_status say(char *msg, size_t n, gg_status st, const char *fmt, const char *what, int err)
{
  if (msg && n)
    snprintf(msg, n, fmt, what, err ? strerror(err) : "ok");
  return st;
}

gg_status gg_rt_pin_cpu(int cpu, char *msg, size_t msg_size)
{
  if (cpu < 0 || cpu >= CPU_SETSIZE)
    return say(msg, msg_size, GG_ERR_INVALID, "%s: %s", "pin: no such CPU number", EINVAL);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  if (rc)
    return say(msg, msg_size, GG_ERR_UNSUPPORTED, "%s refused: %s",
               "pthread_setaffinity_np", rc);
  return say(msg, msg_size, GG_OK, "%s: %s", "pinned", 0);
}

gg_status gg_rt_lock_memory(char *msg, size_t msg_size)
{
  if (mlockall(MCL_CURRENT | MCL_FUTURE))
    return say(msg, msg_size, GG_ERR_UNSUPPORTED,
               "%s refused: %s (needs CAP_IPC_LOCK or a larger RLIMIT_MEMLOCK)", "mlockall",
               errno);
  return say(msg, msg_size, GG_OK, "%s: %s", "memory locked", 0);
}

gg_status gg_rt_fifo(int priority, char *msg, size_t msg_size)
{
  struct sched_param sp;
  memset(&sp, 0, sizeof sp);
  sp.sched_priority = priority;
  int rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
  if (rc)
    return say(msg, msg_size, GG_ERR_UNSUPPORTED,
               "%s refused: %s (needs CAP_SYS_NICE or an RLIMIT_RTPRIO; the thread keeps "
               "its normal policy)",
               "SCHED_FIFO", rc);
  return say(msg, msg_size, GG_OK, "%s: %s", "SCHED_FIFO", 0);
}

uint64_t gg_rt_now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
