/* sandbox.h - the Lua state a workload file runs in, and the limits on it. */
#ifndef GGI_SANDBOX_H
#define GGI_SANDBOX_H

#include <stddef.h>
#include <lua.h>

#include "ir.h"

/* One sandboxed Lua state.  The loader embeds it in its own context and
 * reaches that context from Lua with ggi_sandbox_owner(L). */
typedef struct ggi_sandbox {
  const char *path;        /* the file, in every message */
  ggi_diag *d;
  lua_State *L;
  void *owner;
  int failed;              /* d->msg already holds the error (a validation error) */
  size_t mem_used;
  int mem_over;            /* the cap was hit (even if the file caught the error) */
  long steps;
  int steps_over;
} ggi_sandbox;

/* Creates the state with only the safe libraries.  Returns 0, or -1 with
 * d->msg set. */
int ggi_sandbox_open(ggi_sandbox *sb, const char *path, ggi_diag *d, void *owner);
void ggi_sandbox_close(ggi_sandbox *sb);
void *ggi_sandbox_owner(lua_State *L);

/* Runs the workload's text under the limits.  Returns 0, or -1 with d->msg
 * = "file:line: message". */
int ggi_sandbox_run(ggi_sandbox *sb, const char *text, size_t len);

/* Calls f(L) protected; a Lua error becomes d->msg (unless sb->failed
 * says d->msg already holds one).  Returns 0 or -1. */
int ggi_sandbox_call(ggi_sandbox *sb, lua_CFunction f);

#endif
