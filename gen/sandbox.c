/*
 * sandbox.c - the Lua state a workload file runs in.
 *
 * Only base (minus the loaders and a few others), string, table, math and
 * utf8 are opened, and only text chunks are loaded.  Every file ends
 * within three limits, accepted or refused:
 *
 *   memory  the allocator refuses to grow the Lua heap past GGI_MEM_CAP;
 *   steps   a count hook stops the file after GGI_MAX_STEPS instructions;
 *   time    a CPU-time budget for the whole load (running and validating),
 *           checked by the same hook every GGI_HOOK_EVERY instructions, by
 *           the allocator, by the library functions below that loop in C
 *           (string.find, string.rep, table.*), and by the validation.
 *
 * Nothing runs outside those checks: no Lua code can run with hooks off
 * (xpcall's message handler runs as an ordinary call, there are no
 * coroutines and no metatables to give objects __gc), and every C
 * function either is charged as it works or does work bounded by the
 * memory cap.  No signal or timer is used: the loader is a library
 * function and must not touch process-wide state.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "sandbox.h"

#define GGI_HOOK_EVERY 64                   /* instructions between checks of the limits */
#define GGI_CHECK_EVERY 4096UL              /* units of work in C between checks of the clock */
#define GGI_CHUNKNAME "workload"            /* short_src of every Lua message; replaced by the path */

static ggi_sandbox *sandbox_of(lua_State *L) { return *(ggi_sandbox **)lua_getextraspace(L); }

void *ggi_sandbox_owner(lua_State *L) { return sandbox_of(L)->owner; }

static int in_list(const char *const *names, const char *s) {
  for (int i = 0; names[i]; i++)
    if (strcmp(names[i], s) == 0) return 1;
  return 0;
}

/* What the sandbox leaves out, named in the message when a file uses it. */
static const char *const removed[] = {"io", "os", "package", "require", "debug", "load", "loadfile",
                                      "dofile", "collectgarbage", "print", "setmetatable",
                                      "getmetatable", "coroutine", NULL};

static int missing_global(lua_State *L) {
  const char *key = lua_tostring(L, 2);
  if (key && lua_type(L, 2) == LUA_TSTRING && in_list(removed, key))
    return luaL_error(L, "'%s' is not available in a workload file (the sandbox has no io, os, "
                      "package, require, debug, load, loadfile, dofile, collectgarbage, print, "
                      "setmetatable, getmetatable, coroutine)", key);
  return 0; /* any other unknown global is nil, as in plain Lua */
}

static int not_available(lua_State *L) {
  return luaL_error(L, "%s", lua_tostring(L, lua_upvalueindex(1)));
}

static void replace_field(lua_State *L, const char *lib, const char *field, const char *why) {
  lua_getglobal(L, lib);
  lua_pushstring(L, why);
  lua_pushcclosure(L, not_available, 1);
  lua_setfield(L, -2, field);
  lua_pop(L, 1);
}

/* ------------------------------------------------------------------ */
/* the time limit                                                      */

static double clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* 1 once the load has used up its CPU time.  The time counted is this
 * thread's, so other threads of a program that loads workloads do not
 * eat into it.  Reading a CPU clock is a system call while the monotonic
 * clock is cheap; CPU time used can never exceed the wall time passed, so
 * the CPU clock is read only once the wall clock says the limit may have
 * been reached. */
static int out_of_time(ggi_sandbox *sb) {
  sb->work = 0;
  if (sb->time_over) return 1;
  double now = clock_s(CLOCK_MONOTONIC);
  if (now < sb->wall_check) return 0;
  double used = clock_s(CLOCK_THREAD_CPUTIME_ID) - sb->cpu_start;
  if (used >= sb->time_limit) return sb->time_over = 1;
  sb->wall_check = now + (sb->time_limit - used);
  return 0;
}

static void time_over_at(ggi_sandbox *sb, int line) {
  if (!sb->time_line) sb->time_line = line;
}

void ggi_sandbox_charge(ggi_sandbox *sb, unsigned long units, int line) {
  sb->work += units < GGI_CHECK_EVERY ? units : GGI_CHECK_EVERY;
  if (sb->work < GGI_CHECK_EVERY && !sb->time_over) return;
  if (!out_of_time(sb)) return;
  time_over_at(sb, line);
  luaL_error(sb->L, "time limit"); /* lua_failure() writes the message */
}

/* For the library functions below, which run in C between hook calls. */
static void charge(lua_State *L, unsigned long units) {
  ggi_sandbox *sb = sandbox_of(L);
  ggi_sandbox_charge(sb, units, sb->line);
}

/* ------------------------------------------------------------------ */
/* library functions that would do unbounded work in one call          */

/* xpcall(f, handler, ...).  Lua runs a message handler inside its error
 * machinery, where a handler called for an error raised by the hook runs
 * with hooks off, out of reach of every limit.  Here the handler runs
 * after f has unwound, as an ordinary call under the same limits;
 * without the debug library a handler cannot tell the difference. */
static int sandbox_xpcall(lua_State *L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_replace(L, 1);
  lua_replace(L, 2); /* handler, f, args... */
  if (lua_pcall(L, n - 2, LUA_MULTRET, 0) == LUA_OK) {
    lua_pushboolean(L, 1);
    lua_replace(L, 1);
    return lua_gettop(L);
  }
  lua_pcall(L, 1, 1, 0); /* handler(error); its own error, if it fails */
  lua_pushboolean(L, 0);
  lua_insert(L, -2);
  return 2;
}

/* string.find with plain = true only: Lua patterns backtrack inside C,
 * where the instruction hook never fires, so one could run for hours.
 * The search itself is charged as it goes: a plain search is O(n*m) on
 * hostile text. */
static int sandbox_find(lua_State *L) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  lua_Integer init = luaL_optinteger(L, 3, 1);
  if (!lua_toboolean(L, 4))
    return luaL_error(L, "string.find needs plain = true here (string.find(s, text, 1, true)): "
                      "Lua patterns are not available in workload files, they can run unbounded");
  size_t i = init > 0 ? (size_t)init - 1 : init == 0 || init < -(lua_Integer)ls ? 0 : ls - (size_t)-init;
  if (i > ls) {
    lua_pushnil(L);
    return 1;
  }
  for (; lp <= ls - i; i++) {
    const char *q = lp ? memchr(s + i, p[0], ls - i - lp + 1) : s + i;
    size_t at = q ? (size_t)(q - s) : ls;
    charge(L, 1 + (at - i) / 256 + lp / 64);
    if (!q) break;
    i = at;
    if (lp == 0 || memcmp(q + 1, p + 1, lp - 1) == 0) {
      lua_pushinteger(L, (lua_Integer)i + 1);
      lua_pushinteger(L, (lua_Integer)(i + lp));
      return 2;
    }
  }
  lua_pushnil(L);
  return 1;
}

/* Calls the original library function (upvalue 1) with the arguments. */
static int call_original(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

/* string.rep: the result is checked against the memory limit before it
 * is built, and repeating "" returns at once (Lua would loop n times). */
static int sandbox_rep(lua_State *L) {
  size_t l, lsep;
  luaL_checklstring(L, 1, &l);
  lua_Integer n = luaL_checkinteger(L, 2);
  luaL_optlstring(L, 3, "", &lsep);
  if (n <= 0 || l + lsep == 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  if ((lua_Unsigned)n > GGI_MEM_CAP / (l + lsep) + 1 || (size_t)n * l + (size_t)(n - 1) * lsep > GGI_MEM_CAP) {
    ggi_sandbox *sb = sandbox_of(L);
    if (!sb->mem_over) sb->mem_line = sb->line;
    sb->mem_over = 1;
    return luaL_error(L, "not enough memory");
  }
  charge(L, 1 + ((size_t)n * (l + lsep)) / 256);
  return call_original(L);
}

/* table.sort: at most GGI_MAX_SORT elements, so one call stays short; a
 * comparison function runs under the hook like any Lua code. */
static int sandbox_sort(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_Integer n = luaL_len(L, 1);
  if (n > GGI_MAX_SORT)
    return luaL_error(L, "table.sort: %I elements; the sandbox sorts at most %d in one call", n, GGI_MAX_SORT);
  charge(L, 1 + (unsigned long)n * 8);
  lua_settop(L, 2);
  return call_original(L);
}

/* table.concat: charged by the range before it runs (it stops at the
 * first element that is not a string or a number). */
static int sandbox_concat(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_optlstring(L, 2, "", NULL);
  lua_Integer i = luaL_optinteger(L, 3, 1);
  lua_Integer j = lua_isnoneornil(L, 4) ? luaL_len(L, 1) : luaL_checkinteger(L, 4);
  if (i <= j) charge(L, 1 + ((lua_Unsigned)j - (lua_Unsigned)i) / 4);
  return call_original(L);
}

/* table.insert, table.remove and table.move as in Lua 5.4 (no metatable
 * can be set in the sandbox, so tables are plain), charged per element:
 * their loops run in C and a range can be as long as an integer. */
static int sandbox_insert(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_Integer e = luaL_len(L, 1);
  e = (lua_Integer)((lua_Unsigned)e + 1u); /* first empty element */
  lua_Integer pos;
  switch (lua_gettop(L)) {
    case 2:
      pos = e;
      break;
    case 3:
      pos = luaL_checkinteger(L, 2);
      luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
      for (lua_Integer i = e; i > pos; i--) {
        charge(L, 4);
        lua_geti(L, 1, i - 1);
        lua_seti(L, 1, i);
      }
      break;
    default:
      return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, pos);
  return 0;
}

static int sandbox_remove(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_Integer size = luaL_len(L, 1);
  lua_Integer pos = luaL_optinteger(L, 2, size);
  if (pos != size)
    luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
  lua_geti(L, 1, pos);
  for (; pos < size; pos++) {
    charge(L, 4);
    lua_geti(L, 1, pos + 1);
    lua_seti(L, 1, pos);
  }
  lua_pushnil(L);
  lua_seti(L, 1, pos);
  return 1;
}

static int sandbox_move(lua_State *L) {
  lua_Integer f = luaL_checkinteger(L, 2);
  lua_Integer e = luaL_checkinteger(L, 3);
  lua_Integer t = luaL_checkinteger(L, 4);
  int tt = !lua_isnoneornil(L, 5) ? 5 : 1; /* destination table */
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, tt, LUA_TTABLE);
  if (e >= f) {
    luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
    lua_Integer n = e - f + 1;
    luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
    int forward = t > e || t <= f || (tt != 1 && !lua_rawequal(L, 1, tt));
    for (lua_Integer i = 0; i < n; i++) {
      lua_Integer k = forward ? i : n - 1 - i;
      charge(L, 4);
      lua_geti(L, 1, f + k);
      lua_seti(L, tt, t + k);
    }
  }
  lua_pushvalue(L, tt);
  return 1;
}

static void set_function(lua_State *L, const char *lib, const char *name, lua_CFunction f, int wrap) {
  lua_getglobal(L, lib);
  if (wrap) lua_getfield(L, -1, name);
  lua_pushcclosure(L, f, wrap);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

/* ------------------------------------------------------------------ */
/* the state                                                           */

/* Only what a description needs; no way out of the process and no
 * source of nondeterminism (math.random) since output must be
 * byte-identical run to run. */
static int open_sandbox(lua_State *L) {
  static const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base}, {LUA_STRLIBNAME, luaopen_string},
                                  {LUA_TABLIBNAME, luaopen_table}, {LUA_MATHLIBNAME, luaopen_math},
                                  {LUA_UTF8LIBNAME, luaopen_utf8}, {NULL, NULL}};
  for (const luaL_Reg *l = libs; l->func; l++) {
    luaL_requiref(L, l->name, l->func, 1);
    lua_pop(L, 1);
  }
  for (int i = 0; removed[i]; i++) {
    lua_pushnil(L);
    lua_setglobal(L, removed[i]);
  }
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE); /* package.loaded: none of ours */
  lua_pushnil(L);
  lua_setfield(L, -2, "_G");
  lua_pop(L, 1);
  replace_field(L, "string", "dump", "string.dump is not available: workload files are source text, never bytecode");
  static const char *const patterns[] = {"match", "gmatch", "gsub", NULL};
  for (int i = 0; patterns[i]; i++) {
    char why[160];
    snprintf(why, sizeof why, "string.%s is not available: Lua patterns can run unbounded; "
             "build strings with .. and string.format", patterns[i]);
    replace_field(L, "string", patterns[i], why);
  }
  replace_field(L, "math", "random", "math.random is not available: the same workload must give the same output");
  replace_field(L, "math", "randomseed", "math.randomseed is not available: the same workload must give the same output");
  set_function(L, "_G", "xpcall", sandbox_xpcall, 0);
  set_function(L, "string", "find", sandbox_find, 0);
  set_function(L, "string", "rep", sandbox_rep, 1);
  set_function(L, "table", "sort", sandbox_sort, 1);
  set_function(L, "table", "concat", sandbox_concat, 1);
  set_function(L, "table", "insert", sandbox_insert, 0);
  set_function(L, "table", "remove", sandbox_remove, 0);
  set_function(L, "table", "move", sandbox_move, 0);
  lua_pushglobaltable(L);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, missing_global);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
  return 0;
}

/* Every Lua allocation goes through here: the cap turns a runaway
 * string.rep or table into a clean error instead of an OOM kill, and
 * growing is charged to the time limit, which also stops C code that
 * allocates in a loop (the parser, library functions, the collector).
 * Once a limit is hit nothing grows any more. */
static void *sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  ggi_sandbox *sb = ud;
  size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    free(ptr);
    sb->mem_used -= old;
    return NULL;
  }
  if (nsize > old) {
    sb->work += 1 + (nsize - old) / 256;
    if (sb->time_over || (sb->work >= GGI_CHECK_EVERY && out_of_time(sb))) {
      time_over_at(sb, sb->line);
      return NULL;
    }
    if (nsize - old > GGI_MEM_CAP - sb->mem_used) {
      if (!sb->mem_over) sb->mem_line = sb->line;
      sb->mem_over = 1;
      return NULL;
    }
  }
  void *p = realloc(ptr, nsize);
  if (p) sb->mem_used = sb->mem_used - old + nsize;
  return p;
}

/* Line events keep sb->line (where a memory error is reported); count
 * events check the limits.  Once one is hit the hook fires at every
 * instruction and raises again, so a file that catches the error with
 * pcall in a loop is stopped at the first instruction outside it. */
static void hook(lua_State *L, lua_Debug *ar) {
  ggi_sandbox *sb = sandbox_of(L);
  if (ar->event == LUA_HOOKLINE) {
    sb->line = ar->currentline;
    return;
  }
  sb->steps += GGI_HOOK_EVERY;
  int time = out_of_time(sb);
  if (!time && !sb->mem_over && sb->steps <= GGI_MAX_STEPS) return;
  lua_getinfo(L, "l", ar);
  if (time) time_over_at(sb, ar->currentline);
  if (!time && !sb->mem_over && !sb->steps_over) {
    sb->steps_over = 1;
    sb->steps_line = ar->currentline;
  }
  lua_sethook(L, hook, LUA_MASKCOUNT | LUA_MASKLINE, 1);
  lua_pushliteral(L, "limit");
  lua_error(L); /* lua_failure() writes the message */
}

/* Message handler: make every error "workload:line: message", with the
 * line of the innermost Lua function when the message has none. */
static int on_error(lua_State *L) {
  if (sandbox_of(L)->failed) return 1;
  const char *msg = lua_tostring(L, 1);
  if (msg && strncmp(msg, GGI_CHUNKNAME ":", sizeof GGI_CHUNKNAME) == 0) return 1;
  int line = 0;
  lua_Debug ar;
  for (int level = 1; lua_getstack(L, level, &ar); level++)
    if (lua_getinfo(L, "l", &ar) && ar.currentline > 0) {
      line = ar.currentline;
      break;
    }
  if (msg) lua_pushfstring(L, GGI_CHUNKNAME ":%d: %s", line, msg);
  else lua_pushfstring(L, GGI_CHUNKNAME ":%d: error object is a %s value", line, luaL_typename(L, 1));
  return 1;
}

/* A limit that was hit, even if the file caught the error: 1 and d->msg
 * written, or 0. */
static int limit_failure(ggi_sandbox *sb) {
  if (sb->time_over)
    ggi_fail_at(sb->d, sb->path, sb->time_line, "loading the workload took more than %g s of CPU "
                "time (the limit; gpugen COMMAND FILE --time-limit SECONDS changes it)", sb->time_limit);
  else if (sb->mem_over)
    ggi_fail_at(sb->d, sb->path, sb->mem_line, "workload uses more than %s", GGI_MEM_CAP_TEXT);
  else if (sb->steps_over)
    ggi_fail_at(sb->d, sb->path, sb->steps_line, "workload ran for more than %ld instructions",
                GGI_MAX_STEPS);
  else
    return 0;
  return 1;
}

/* Turn a Lua status into d->msg (unless a validation error is there). */
static int lua_failure(ggi_sandbox *sb, int status) {
  if (sb->failed || limit_failure(sb)) return -1;
  size_t len = 0;
  const char *msg = status == LUA_ERRMEM ? "not enough memory" : lua_tolstring(sb->L, -1, &len);
  if (!msg) msg = "unknown error";
  char shown[1024]; /* a message with NUL bytes: each shown as \x00, the rest kept */
  if (status != LUA_ERRMEM && memchr(msg, 0, len)) {
    size_t o = 0;
    for (size_t i = 0; i < len && o + 5 < sizeof shown; i++)
      if (msg[i]) {
        shown[o++] = msg[i];
      } else {
        memcpy(shown + o, "\\x00", 4);
        o += 4;
      }
    shown[o] = 0;
    msg = shown;
  }
  /* Lua's own "chunk:line: message": the line is the file's */
  char *end = NULL;
  long line = 0;
  if (strncmp(msg, GGI_CHUNKNAME ":", sizeof GGI_CHUNKNAME) == 0) {
    line = strtol(msg + sizeof GGI_CHUNKNAME, &end, 10);
    if (end && *end == ':' && line > 0 && line <= INT32_MAX) msg = end + (end[1] == ' ' ? 2 : 1);
    else line = 0;
  }
  ggi_fail_at(sb->d, sb->path, (int)line, "%s", msg);
  return -1;
}

int ggi_sandbox_call(ggi_sandbox *sb, lua_CFunction f) {
  lua_State *L = sb->L;
  int top = lua_gettop(L);
  lua_pushcfunction(L, on_error);
  lua_pushcfunction(L, f);
  int st = lua_pcall(L, 0, 0, top + 1);
  int rc = st != LUA_OK ? lua_failure(sb, st) : limit_failure(sb) ? -1 : 0;
  lua_settop(L, top);
  return rc;
}

int ggi_sandbox_run(ggi_sandbox *sb, const char *text, size_t len) {
  lua_State *L = sb->L;
  if (len > 0 && text[0] == '\x1b') {
    return ggi_fail_at(sb->d, sb->path, 1, "bytecode is not accepted: workload files are Lua source text");
  }
  int st = luaL_loadbufferx(L, text, len, "@" GGI_CHUNKNAME, "t");
  if (st != LUA_OK) return lua_failure(sb, st);
  lua_pushcfunction(L, on_error); /* a light function: pushing it cannot fail */
  lua_insert(L, -2);
  lua_sethook(L, hook, LUA_MASKCOUNT | LUA_MASKLINE, GGI_HOOK_EVERY);
  st = lua_pcall(L, 0, 0, lua_gettop(L) - 1);
  lua_sethook(L, NULL, 0, 0);
  if (st != LUA_OK) return lua_failure(sb, st);
  lua_pop(L, 1);
  return limit_failure(sb) ? -1 : 0; /* the file may have caught the error and carried on */
}

int ggi_sandbox_open(ggi_sandbox *sb, const char *path, double time_limit, ggi_diag *d, void *owner) {
  memset(sb, 0, sizeof *sb);
  sb->path = path;
  sb->d = d;
  sb->owner = owner;
  sb->time_limit = time_limit;
  sb->cpu_start = clock_s(CLOCK_THREAD_CPUTIME_ID);
  sb->wall_check = clock_s(CLOCK_MONOTONIC) + sb->time_limit;
  sb->L = lua_newstate(sandbox_alloc, sb);
  if (!sb->L) {
    return ggi_fail_at(d, path, 0, "out of memory");
  }
  *(ggi_sandbox **)lua_getextraspace(sb->L) = sb;
  return ggi_sandbox_call(sb, open_sandbox);
}

void ggi_sandbox_close(ggi_sandbox *sb) {
  if (sb->L) lua_close(sb->L);
  sb->L = NULL;
}
