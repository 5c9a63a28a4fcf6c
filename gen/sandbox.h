/* sandbox.h - the Lua state a workload file runs in, and the limits on it. */
#ifndef GGI_SANDBOX_H
#define GGI_SANDBOX_H

#include <stddef.h>
#include <lua.h>

#include "ir.h"

/* The limits on one load (running the file and validating what it
 * declared) besides its time (load.h: GGI_TIME_LIMIT, which the loader
 * passes in).  Every file ends within them, accepted or refused. */
#define GGI_MEM_CAP ((size_t)64 << 20)      /* bytes of Lua heap */
#define GGI_MEM_CAP_TEXT "64 MiB"
#define GGI_MAX_STEPS 20000000L             /* VM instructions; real files use < 1e5 */
#define GGI_MAX_SORT (1 << 20)              /* elements table.sort takes in one call */

/* One sandboxed Lua state.  The loader embeds it in its own context and
 * reaches that context from Lua with ggi_sandbox_owner(L). */
typedef struct ggi_sandbox {
  const char *path;        /* the file, in every message */
  ggi_diag *d;
  lua_State *L;
  void *owner;
  int failed;              /* d->msg already holds the error (a validation error) */
  int line;                /* the line the file last started to run (for memory errors) */
  size_t mem_used;
  int mem_over;            /* the cap was hit (even if the file caught the error) */
  int mem_line;
  long steps;
  int steps_over;
  int steps_line;
  double time_limit;       /* seconds of CPU time */
  double cpu_start;        /* this thread's CPU clock at the start */
  double wall_check;       /* monotonic time before which the limit cannot be reached */
  int time_over;
  int time_line;
  unsigned long work;      /* rough units of work done in C since the last clock check */
} ggi_sandbox;

/* Creates the state with only the safe libraries and starts the clock
 * (time_limit: seconds of CPU time, > 0).  Returns 0, or -1 with d->msg set. */
int ggi_sandbox_open(ggi_sandbox *sb, const char *path, double time_limit, ggi_diag *d, void *owner);
void ggi_sandbox_close(ggi_sandbox *sb);
void *ggi_sandbox_owner(lua_State *L);

/* Runs the workload's text under the limits.  Returns 0, or -1 with d->msg
 * = "file:line: message". */
int ggi_sandbox_run(ggi_sandbox *sb, const char *text, size_t len);

/* Calls f(L) protected; a Lua error becomes d->msg (unless sb->failed
 * says d->msg already holds one).  Returns 0 or -1. */
int ggi_sandbox_call(ggi_sandbox *sb, lua_CFunction f);

/* For C code that loops inside a protected call (the validation): counts
 * `units` of work and, once the time limit is spent, raises the
 * time-limit error at `line` (0: none known). */
void ggi_sandbox_charge(ggi_sandbox *sb, unsigned long units, int line);

#endif
