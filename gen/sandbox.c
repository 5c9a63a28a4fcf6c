/*
 * sandbox.c - the Lua state a workload file runs in.
 *
 * Only base (minus the loaders and a few others), string, table, math and
 * utf8 are opened, and only text chunks are loaded.  A custom allocator
 * caps memory and a count hook caps the number of VM instructions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "sandbox.h"

#define GGI_MEM_CAP ((size_t)64 << 20)      /* Lua heap of one workload file */
#define GGI_MEM_CAP_TEXT "64 MiB"
#define GGI_MAX_STEPS 50000000L             /* VM instructions; real files use < 1e5 */
#define GGI_HOOK_EVERY 1000                 /* instructions between hook calls */
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

/* string.find with plain = true only: Lua patterns backtrack inside C,
 * where the instruction hook never fires, so one could run for hours. */
static int plain_find(lua_State *L) {
  if (!lua_toboolean(L, 4))
    return luaL_error(L, "string.find needs plain = true here (string.find(s, text, 1, true)): "
                      "Lua patterns are not available in workload files, they can run unbounded");
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

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
  lua_getglobal(L, "string");
  lua_getfield(L, -1, "find");
  lua_pushcclosure(L, plain_find, 1);
  lua_setfield(L, -2, "find");
  lua_pop(L, 1);
  replace_field(L, "math", "random", "math.random is not available: the same workload must give the same output");
  replace_field(L, "math", "randomseed", "math.randomseed is not available: the same workload must give the same output");
  lua_pushglobaltable(L);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, missing_global);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
  return 0;
}

/* Every Lua allocation goes through here: the cap turns a runaway
 * string.rep or table into a clean error instead of an OOM kill. */
static void *sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  ggi_sandbox *c = ud;
  size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    free(ptr);
    c->mem_used -= old;
    return NULL;
  }
  if (nsize > old && nsize - old > GGI_MEM_CAP - c->mem_used) {
    c->mem_over = 1;
    return NULL;
  }
  void *p = realloc(ptr, nsize);
  if (p) c->mem_used = c->mem_used - old + nsize;
  return p;
}

static void count_hook(lua_State *L, lua_Debug *ar) {
  ggi_sandbox *c = sandbox_of(L);
  c->steps += GGI_HOOK_EVERY;
  if (c->steps <= GGI_MAX_STEPS) return;
  /* From now on fire at every instruction: a file that catches the error
   * with pcall in a loop is stopped at the first instruction outside it. */
  if (!c->steps_over) lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
  c->steps_over = 1;
  lua_getinfo(L, "Sl", ar);
  lua_pushfstring(L, GGI_CHUNKNAME ":%d: workload ran for more than %d instructions", ar->currentline,
                  (int)GGI_MAX_STEPS);
  lua_error(L);
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

/* Turn a Lua status into d->msg (unless a validation error is there). */
static int lua_failure(ggi_sandbox *c, int status) {
  if (c->failed) return -1;
  if (c->mem_over || status == LUA_ERRMEM) {
    snprintf(c->d->msg, sizeof c->d->msg, "%s: workload uses more than %s", c->path, GGI_MEM_CAP_TEXT);
    return -1;
  }
  const char *msg = c->L ? lua_tostring(c->L, -1) : NULL;
  if (!msg) msg = "unknown error";
  if (strncmp(msg, GGI_CHUNKNAME ":", sizeof GGI_CHUNKNAME) == 0)
    snprintf(c->d->msg, sizeof c->d->msg, "%s:%s", c->path, msg + sizeof GGI_CHUNKNAME);
  else
    snprintf(c->d->msg, sizeof c->d->msg, "%s: %s", c->path, msg);
  return -1;
}

int ggi_sandbox_call(ggi_sandbox *c, lua_CFunction f) {
  lua_State *L = c->L;
  lua_pushcfunction(L, on_error);
  lua_pushcfunction(L, f);
  int st = lua_pcall(L, 0, 0, lua_gettop(L) - 1);
  return st == LUA_OK ? 0 : lua_failure(c, st);
}

int ggi_sandbox_run(ggi_sandbox *c, const char *text, size_t len) {
  lua_State *L = c->L;
  if (len > 0 && text[0] == '\x1b') {
    snprintf(c->d->msg, sizeof c->d->msg, "%s:1: bytecode is not accepted: workload files are Lua source text", c->path);
    return -1;
  }
  int st = luaL_loadbufferx(L, text, len, "@" GGI_CHUNKNAME, "t");
  if (st != LUA_OK) return lua_failure(c, st);
  lua_pushcfunction(L, on_error); /* a light function: pushing it cannot fail */
  lua_insert(L, -2);
  lua_sethook(L, count_hook, LUA_MASKCOUNT, GGI_HOOK_EVERY);
  st = lua_pcall(L, 0, 0, lua_gettop(L) - 1);
  lua_sethook(L, NULL, 0, 0);
  if (st != LUA_OK) return lua_failure(c, st);
  lua_pop(L, 1);
  /* The file may have caught the error with pcall and carried on. */
  if (c->mem_over) return lua_failure(c, LUA_ERRMEM);
  if (c->steps_over) {
    snprintf(c->d->msg, sizeof c->d->msg, "%s: workload ran for more than %d instructions", c->path, (int)GGI_MAX_STEPS);
    return -1;
  }
  return 0;
}

int ggi_sandbox_open(ggi_sandbox *sb, const char *path, ggi_diag *d, void *owner) {
  memset(sb, 0, sizeof *sb);
  sb->path = path;
  sb->d = d;
  sb->owner = owner;
  sb->L = lua_newstate(sandbox_alloc, sb);
  if (!sb->L) {
    snprintf(d->msg, sizeof d->msg, "%s: out of memory", path);
    return -1;
  }
  *(ggi_sandbox **)lua_getextraspace(sb->L) = sb;
  return ggi_sandbox_call(sb, open_sandbox);
}

void ggi_sandbox_close(ggi_sandbox *sb) {
  if (sb->L) lua_close(sb->L);
  sb->L = NULL;
}
