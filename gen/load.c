/*
 * load.c - run a workload file in a Lua sandbox and validate it into IR.
 *
 * Two phases, both inside one fresh lua_State:
 *
 *   1. run the file.  `module`, `kernel` and `persistent` only record
 *      their tables (with the line of the call) in a list; nothing is
 *      validated yet, so declarations may come in any order.
 *   2. convert: walk the recorded tables with raw accesses only (no
 *      metamethods, so no user code runs) and build the IR, failing at
 *      the first mistake with "file:line: message".
 *
 * Both phases run under lua_pcall.  A validation error is raised as a Lua
 * error after the message has been written to the diag, so the checks read
 * top to bottom without error plumbing; everything allocated on the way
 * lives in the module's arena and is freed with it.
 *
 * The sandbox (sandbox.c) runs the file with limits; here are only the
 * three declaration functions it gets.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "load.h"
#include "loader.h"
#include "names.h"
#include "sandbox.h"
#include "vocab.h"

static const char *const module_fields[] = {"name", "targets", NULL};


static unsigned read_targets(ggi_decl *k) {
  lua_State *L = k->c->L;
  int t = ggi_push_field(k, "targets");
  int line = ggi_field_line(k, "targets");
  unsigned set = 0;
  if (t == LUA_TNIL) {
    lua_pop(L, 1);
    return GGI_TARGET_CUDA | GGI_TARGET_HIP;
  }
  int n = ggi_list_len(k, "targets", line);
  if (n < 1) ggi_decl_fail(k, line, "field 'targets' must list \"cuda\", \"hip\" or both");
  for (int i = 0; i < n; i++) {
    int ti = lua_rawgeti(L, -1, i + 1);
    int which = ti == LUA_TSTRING ? ggi_find_name(ggi_target_names, lua_tostring(L, -1)) : -1;
    if (which < 0) ggi_decl_fail(k, line, "targets[%d] must be one of cuda|hip, got %s%s%s", i + 1, ti == LUA_TSTRING ? "\"" : "",
                         ti == LUA_TSTRING ? lua_tostring(L, -1) : lua_typename(L, ti), ti == LUA_TSTRING ? "\"" : "");
    if (set & (1u << which)) ggi_decl_fail(k, line, "duplicate target \"%s\"", ggi_target_names[which]);
    set |= 1u << which;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return set;
}

/* The module name defaults to the file's basename without its extension. */
static const char *default_name(ggi_load_ctx *c) {
  const char *base = strrchr(c->path, '/');
  base = base ? base + 1 : c->path;
  char buf[128];
  snprintf(buf, sizeof buf, "%s", base);
  char *dot = strchr(buf, '.');
  if (dot) *dot = 0;
  return ggi_load_strdup(c, buf);
}

static void convert_module(ggi_load_ctx *c, ggi_decl *k, ggi_module *m) {
  m->targets = GGI_TARGET_CUDA | GGI_TARGET_HIP;
  m->name = NULL;
  if (k) {
    ggi_check_fields(k, k->t, module_fields, NULL, "");
    m->name = ggi_opt_string(k, "name");
    m->targets = read_targets(k);
    const char *why = m->name ? ggi_module_name_problem(m->name) : NULL;
    if (why) ggi_decl_fail(k, ggi_field_line(k, "name"), "module name \"%s\" %s", m->name, why);
  }
  if (!m->name) {
    m->name = default_name(c);
    const char *why = ggi_module_name_problem(m->name);
    if (why) ggi_load_fail(c, 1, "module name \"%s\" (from the file name) %s: set module { name = \"...\" }", m->name, why);
  }
}

/* ------------------------------------------------------------------ */
/* phase 2: convert what the file declared                             */

static const char decls_key = 0; /* registry key (its address) of the declaration list */

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Fills a ggi_decl from entry i of the list (left on the stack at its table). */
static const char *open_decl(ggi_load_ctx *c, int list, int i, ggi_decl *k) {
  lua_State *L = c->L;
  lua_rawgeti(L, list, i); /* entry = { kind, name, line, table } */
  int e = lua_gettop(L);
  lua_rawgeti(L, e, 1);
  const char *kind = lua_tostring(L, -1);
  lua_rawgeti(L, e, 2);
  const char *name = lua_tostring(L, -1);
  lua_rawgeti(L, e, 3);
  int line = (int)lua_tointeger(L, -1);
  int has = lua_rawgeti(L, e, 4) == LUA_TTABLE;
  ggi_sandbox_charge(&c->sb, 64, line);
  k->c = c;
  k->line = line;
  k->end = ggi_span_end(c, line);
  k->t = lua_gettop(L);
  k->name = name;
  if (name) snprintf(k->what, sizeof k->what, "%s \"%s\"", kind, name);
  else snprintf(k->what, sizeof k->what, "%s", kind);
  if (!has) ggi_load_fail(c, line, "%s has no table: write %s \"%s\" { ... }", k->what, kind, name ? name : "");
  return kind; /* stays valid: the entry is on the stack */
}

static void check_unique(ggi_load_ctx *c, const char *name, int line, const char *const *seen, const int *lines, int n) {
  for (int i = 0; i < n; i++)
    if (strcmp(seen[i], name) == 0) ggi_load_fail(c, line, "duplicate name \"%s\" (first declared at line %d)", name, lines[i]);
}

static int convert(lua_State *L) {
  ggi_load_ctx *c = ggi_load_ctx_of(L);
  ggi_module *m = c->m;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &decls_key);
  int list = lua_gettop(L);
  int n = (int)lua_rawlen(L, list);
  ggi_index_lines(c);
  c->decl_lines = ggi_load_alloc(c, sizeof(int) * (size_t)(n + 1));
  for (int i = 1; i <= n; i++) {
    lua_rawgeti(L, list, i);
    lua_rawgeti(L, -1, 3);
    c->decl_lines[c->ndecl++] = (int)lua_tointeger(L, -1);
    lua_pop(L, 2);
  }
  qsort(c->decl_lines, (size_t)c->ndecl, sizeof(int), cmp_int);

  int nk = 0, np = 0, top = lua_gettop(L);
  ggi_decl k;
  int have_module = 0, module_line = 1;
  for (int i = 1; i <= n; i++) { /* module first: its targets apply to all */
    const char *kind = open_decl(c, list, i, &k);
    if (strcmp(kind, "module") == 0) {
      convert_module(c, &k, m);
      have_module = 1;
      module_line = k.line;
    } else if (strcmp(kind, "kernel") == 0 || strcmp(kind, "frame") == 0) nk++;
    else np++;
    lua_settop(L, top);
  }
  if (!have_module) convert_module(c, NULL, m);
  if (nk + np == 0) ggi_load_fail(c, 0, "no kernel declared: write kernel \"name\" { pattern = ..., ... }");

  m->kernels = ggi_load_alloc(c, sizeof *m->kernels * (size_t)(nk ? nk : 1));
  m->persistent = ggi_load_alloc(c, sizeof *m->persistent * (size_t)(np ? np : 1));
  const char **seen = ggi_load_alloc(c, sizeof(char *) * (size_t)(nk + np));
  int *seen_line = ggi_load_alloc(c, sizeof(int) * (size_t)(nk + np));
  /* kernels, then the frames that chain them, then the persistent loops
     that run both */
  for (int pass = 0; pass < 3; pass++) {
    for (int i = 1; i <= n; i++) {
      const char *kind = open_decl(c, list, i, &k);
      if (pass == 0 && strcmp(kind, "kernel") == 0) {
        ggi_kernel *kn = &m->kernels[m->nkernels];
        kn->name = ggi_load_strdup(c, k.name);
        kn->line = k.line;
        check_unique(c, kn->name, k.line, seen, seen_line, m->nkernels);
        seen[m->nkernels] = kn->name;
        seen_line[m->nkernels] = k.line;
        m->nkernels++;
        ggi_convert_kernel(&k, kn, m->targets);
      } else if (pass == 1 && strcmp(kind, "frame") == 0) {
        ggi_kernel *fr = &m->kernels[m->nkernels];
        fr->name = ggi_load_strdup(c, k.name);
        fr->line = k.line;
        check_unique(c, fr->name, k.line, seen, seen_line, m->nkernels);
        seen[m->nkernels] = fr->name;
        seen_line[m->nkernels] = k.line;
        ggi_convert_frame(&k, fr, m);
        m->nkernels++;
      } else if (pass == 2 && strcmp(kind, "persistent") == 0) {
        ggi_persistent *p = &m->persistent[m->npersistent];
        p->name = ggi_load_strdup(c, k.name);
        p->line = k.line;
        int ns = m->nkernels + m->npersistent;
        check_unique(c, p->name, k.line, seen, seen_line, ns);
        seen[ns] = p->name;
        seen_line[ns] = k.line;
        m->npersistent++;
        ggi_convert_persistent(&k, p, m);
      }
      lua_settop(L, top);
    }
  }
  if (ggi_check_generated_names(m, module_line, c->d) != 0) {
    c->sb.failed = 1;
    lua_pushliteral(L, "validation error");
    lua_error(L);
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* phase 1: the sandbox and the three declaration functions            */

/* kernel "name" / persistent "name" / module: append { kind, name, line }
 * to the list now (so a forgotten table is caught), fill [4] when the
 * table comes. */
static int take_table(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1)); /* the entry */
  if (lua_type(L, 1) != LUA_TTABLE) {
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    return luaL_error(L, "%s \"%s\": expected a table { ... } after the name, got %s",
                      lua_tostring(L, -2), lua_tostring(L, -1), luaL_typename(L, 1));
  }
  lua_rawgeti(L, -1, 4);
  if (!lua_isnil(L, -1)) return luaL_error(L, "this declaration already has its table");
  lua_pop(L, 1);
  lua_pushvalue(L, 1);
  lua_rawseti(L, -2, 4);
  return 0;
}

static int caller_line(lua_State *L) {
  lua_Debug ar;
  if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "l", &ar) && ar.currentline > 0) return ar.currentline;
  return 0;
}

static void push_entry(lua_State *L, const char *kind, int name_arg) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &decls_key);
  if (lua_rawlen(L, -1) >= GGI_MAX_DECLS)
    luaL_error(L, "more than %d declarations in one file", GGI_MAX_DECLS);
  lua_createtable(L, 4, 0);
  lua_pushstring(L, kind);
  lua_rawseti(L, -2, 1);
  if (name_arg) {
    lua_pushvalue(L, name_arg);
    lua_rawseti(L, -2, 2);
  }
  lua_pushinteger(L, caller_line(L));
  lua_rawseti(L, -2, 3);
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, (lua_Integer)lua_rawlen(L, -3) + 1);
}

static int declare(lua_State *L, const char *kind) {
  if (lua_type(L, 1) != LUA_TSTRING)
    return luaL_error(L, "%s: expected a name, as in %s \"name\" { ... }, got %s", kind, kind, luaL_typename(L, 1));
  size_t n;
  const char *s = lua_tolstring(L, 1, &n);
  const char *why = strlen(s) != n ? "contains a NUL byte" : ggi_name_problem(s);
  if (why) {
    char shown[200];
    ggi_clean(shown, sizeof shown, s);
    return luaL_error(L, "%s name \"%s\" %s", kind, shown, why);
  }
  push_entry(L, kind, 1);
  lua_pushcclosure(L, take_table, 1);
  return 1;
}

static int l_kernel(lua_State *L) { return declare(L, "kernel"); }
static int l_persistent(lua_State *L) { return declare(L, "persistent"); }
static int l_frame(lua_State *L) { return declare(L, "frame"); }

static int l_module(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &decls_key);
  int n = (int)lua_rawlen(L, -1);
  for (int i = 1; i <= n; i++) {
    lua_rawgeti(L, -1, i);
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 3);
    if (strcmp(lua_tostring(L, -2), "module") == 0)
      return luaL_error(L, "module is declared twice (first at line %d)", (int)lua_tointeger(L, -1));
    lua_pop(L, 3);
  }
  lua_pop(L, 1);
  if (lua_type(L, 1) != LUA_TTABLE)
    return luaL_error(L, "module: expected a table, as in module { name = \"demo\" }, got %s", luaL_typename(L, 1));
  push_entry(L, "module", 0);
  lua_pushvalue(L, 1);
  lua_rawseti(L, -2, 4);
  return 0;
}

/* The workload, whole.  Only a regular file: opening a FIFO without
 * O_NONBLOCK would wait for a writer, and reading a device or a FIFO
 * might never end, all before the sandbox's time limit applies. */
static int read_file(ggi_load_ctx *c, char **out, size_t *len) {
  int fd = open(c->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    ggi_fail_at(c->d, c->path, 0, "cannot open: %s", strerror(errno));
    if (fd >= 0) close(fd);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    ggi_fail_at(c->d, c->path, 0, "not a regular file (%s): a workload is a .lua file",
                S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket");
    close(fd);
    return -1;
  }
  FILE *f = fdopen(fd, "rb");
  if (!f) {
    ggi_fail_at(c->d, c->path, 0, "cannot open: %s", strerror(errno));
    close(fd);
    return -1;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap || n > GGI_MAX_FILE) break;
    char *nb = realloc(buf, cap * 2);
    if (!nb) free(buf);
    buf = nb;
    cap *= 2;
  }
  int err = ferror(f) ? errno : 0;
  fclose(f);
  if (!buf || err || n > GGI_MAX_FILE) {
    if (!buf) ggi_fail_at(c->d, c->path, 0, "out of memory");
    else if (err) ggi_fail_at(c->d, c->path, 0, "cannot read: %s", strerror(err));
    else ggi_fail_at(c->d, c->path, 0, "file is larger than %zu MiB", GGI_MAX_FILE >> 20);
    free(buf);
    return -1;
  }
  *out = buf;
  *len = n;
  return 0;
}

static int open_declarations(lua_State *L) {
  lua_newtable(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &decls_key);
  lua_register(L, "kernel", l_kernel);
  lua_register(L, "persistent", l_persistent);
  lua_register(L, "frame", l_frame);
  lua_register(L, "module", l_module);
  return 0;
}

int ggi_load(const char *path, const char *text, size_t len, ggi_module **out, ggi_diag *d) {
  return ggi_load_limited(path, text, len, 0, out, d);
}

int ggi_load_limited(const char *path, const char *text, size_t len, double seconds, ggi_module **out,
                     ggi_diag *d) {
  ggi_load_ctx c;
  memset(&c, 0, sizeof c);
  c.path = path ? path : "workload.lua";
  c.d = d;
  d->msg[0] = 0;
  *out = NULL;
  char *owned = NULL;
  if (!text) {
    if (read_file(&c, &owned, &len) != 0) return -1;
    text = owned;
  }
  c.text = text;
  c.len = len;
  c.m = ggi_module_new(c.path);
  int rc = -1;
  if (!c.m) {
    ggi_fail_at(d, c.path, 0, "out of memory");
  } else if (ggi_sandbox_open(&c.sb, c.path, seconds > 0 ? seconds : GGI_TIME_LIMIT, d, &c) == 0) {
    c.L = c.sb.L;
    rc = ggi_sandbox_call(&c.sb, open_declarations);
    if (rc == 0) rc = ggi_sandbox_run(&c.sb, text, len);
    if (rc == 0) rc = ggi_sandbox_call(&c.sb, convert);
  }
  ggi_sandbox_close(&c.sb);
  free(owned);
  if (rc != 0) {
    ggi_module_free(c.m);
    return -1;
  }
  *out = c.m;
  return 0;
}

