/* names.c - see names.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "patterns.h"
#include "names.h"

/* From cmake/lib_names.cmake: every gg_/GG_ identifier of include/ and
 * templates/, sorted by strcmp. */
extern const char *const ggi_lib_names[];
extern const size_t ggi_lib_names_count;


static const char *const keywords[] = {
  /* C23 */
  "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
  "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict",
  "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
  "unsigned", "void", "volatile", "while", "alignas", "alignof", "bool", "constexpr", "false",
  "nullptr", "static_assert", "thread_local", "true", "typeof", "typeof_unqual",
  /* C++23, its alternative tokens, the transactional-memory words, GNU asm */
  "asm", "catch", "class", "co_await", "co_return", "co_yield", "concept", "const_cast",
  "consteval", "constinit", "decltype", "delete", "dynamic_cast", "explicit", "export", "friend",
  "mutable", "namespace", "new", "noexcept", "operator", "private", "protected", "public",
  "reinterpret_cast", "requires", "static_cast", "template", "this", "throw", "try", "typeid",
  "typename", "using", "virtual", "and", "and_eq", "bitand", "bitor", "compl", "not", "not_eq",
  "or", "or_eq", "xor", "xor_eq", "atomic_cancel", "atomic_commit", "atomic_noexcept",
  "reflexpr", "synchronized", "transaction_safe", "transaction_safe_dynamic",
  /* CUDA and HIP built-ins */
  "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3", "half",
  /* the preprocessor's operator: views are macros */
  "defined", NULL};

/* What the generated code declares around a body (team bodies see these;
 * args and g are the body function's parameters). */
static const char *const around_body[] = {"args", "g", "league_rank", "team_rank", "team_size",
                                          "league_size", "team_barrier", "team_sum", "team_min",
                                          "team_max", "contribute", NULL};

static int in(const char *const *list, const char *s)
{
  for (int i = 0; list[i]; i++)
    if (strcmp(list[i], s) == 0) return 1;
  return 0;
}

static int is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static int is_lower(char c) { return c >= 'a' && c <= 'z'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

const char *ggi_name_problem(const char *s)
{
  size_t n = strlen(s);
  int lower = 0;
  if (n == 0 || n > GGI_NAME_MAX || !(is_upper(s[0]) || is_lower(s[0])))
    return "is not a name: a letter, then letters, digits and _ (at most 64 characters)";
  for (size_t i = 0; i < n; i++) {
    if (!(is_upper(s[i]) || is_lower(s[i]) || is_digit(s[i]) || s[i] == '_'))
      return "is not a name: a letter, then letters, digits and _ (at most 64 characters)";
    lower |= is_lower(s[i]);
  }
  if (n >= 2 && (s[0] | 32) == 'g' && (s[1] | 32) == 'g' && (n == 2 || s[2] == '_'))
    return "is gg or starts with gg_, the prefix of the names gpugen generates";
  if (strstr(s, "__")) return "contains __, which C and C++ reserve";
  if (n >= 2 && s[n - 2] == '_' && s[n - 1] == 't')
    return "ends in _t, which the C library keeps for its types (int64_t, size_t, ...)";
  if (n >= 2 && !lower)
    return "is all capitals, which C keeps for macros (NULL, EOF, INT_MAX, ...): use a lowercase letter";
  if ((strncmp(s, "hip", 3) == 0 && (is_upper(s[3]) || s[3] == '_')) ||
      (strncmp(s, "cuda", 4) == 0 && (is_upper(s[4]) || s[4] == '_')))
    return "belongs to the HIP or CUDA API (hipX..., cudaX...), many of whose names are macros";
  if (in(keywords, s)) return "is a keyword of C, C++ or CUDA";
  /* No list of the C library's lowercase macros (errno, st_mtime, h_addr,
     linux in GNU C, ...), which could never be complete: the generated
     header shields every workload name it declares from macros of the
     same name (emit.c), and the kernel compilers (NVRTC, hiprtc,
     -std=c++17) define none of them.  Only offsetof stays out: the header
     uses it inside that shield. */
  if (strcmp(s, "offsetof") == 0)
    return "is C's offsetof, which the generated header uses to check its argument structs' layout";
  if (in(around_body, s))
    return "is declared by the generated code around a body (args, g, league_rank, team_rank, "
           "team_size, league_size, team_barrier, team_sum, team_min, team_max, contribute)";
  return NULL;
}

/* Headers a program includes as <name.h> or "name.h": a module called
 * like one writes name.h into the output folder, which the program puts
 * on its include path, and hides the real one. */
static const char *const headers[] = {
  "assert", "complex", "ctype", "errno", "fenv", "float", "inttypes", "iso646", "limits",
  "locale", "math", "setjmp", "signal", "stdalign", "stdarg", "stdatomic", "stdbit", "stdbool",
  "stdckdint", "stddef", "stdint", "stdio", "stdlib", "stdnoreturn", "string", "tgmath",
  "threads", "time", "uchar", "wchar", "wctype", "unistd", "fcntl", "pthread", "dirent", "dlfcn",
  "sched", "semaphore", "strings", "poll", "termios", "alloca", "malloc", "memory", "features",
  "gg", "gg_module", "gg_session", NULL};

const char *ggi_module_name_problem(const char *s)
{
  const char *why = ggi_name_problem(s);
  if (why) return why;
  for (int i = 0; headers[i]; i++)
    if (strcasecmp(headers[i], s) == 0)
      return "is the name of a C, POSIX or libgg header: the module's NAME.h would hide it";
  return NULL;
}

/* ---- generated identifiers ---- */

const char *ggi_name_part(const char *module, const char *name, char *out)
{
  if (strcmp(module, name) == 0) out[0] = 0;
  else snprintf(out, GGI_NAME_PART_MAX, "_%s", name);
  return out;
}

/* Calls f for every launch argument of k: parameters, the strides V_sD of
 * strided views, run-time extents, with what it is (for messages) and its
 * line; stops at the first nonzero return. */
typedef int arg_fn(const char *name, const char *what, int line, const void *ctx);
static int each_arg(const ggi_kernel *k, arg_fn *f, const void *ctx)
{
  char what[200];
  for (int j = 0; j < k->nparams; j++) {
    const ggi_param *p = &k->params[j];
    snprintf(what, sizeof what, "parameter \"%s\"", p->name);
    if (f(p->name, what, p->line, ctx)) return 1;
    if (p->kind != GG_PARAM_VIEW || p->layout != GG_LAYOUT_STRIDE) continue;
    for (int dim = 0; dim < p->rank; dim++) {
      char stride[GGI_NAME_MAX + 8];
      snprintf(stride, sizeof stride, "%s_s%d", p->name, dim);
      snprintf(what, sizeof what, "the stride %s of view \"%s\"", stride, p->name);
      if (f(stride, what, p->line, ctx)) return 1;
    }
  }
  for (int j = 0; j < k->nextents; j++) {
    snprintf(what, sizeof what, "extent \"%s\"", k->extents[j]);
    if (f(k->extents[j], what, k->line, ctx)) return 1;
  }
  return 0;
}

/* Is a launch argument of k (a parameter, a stride V_sD of a strided
 * view, a run-time extent) name in another letter case?  Walked directly,
 * not through each_arg: this runs once per argument, and each_arg's
 * messages for every argument made a 1000-parameter kernel quadratic in
 * snprintf. */
static int twin(const char *other, const char *name)
{
  return strcasecmp(other, name) == 0 && strcmp(other, name) != 0;
}
static int has_case_twin(const ggi_kernel *k, const char *name)
{
  for (int j = 0; j < k->nparams; j++) {
    const ggi_param *p = &k->params[j];
    if (twin(p->name, name)) return 1;
    if (p->kind != GG_PARAM_VIEW || p->layout != GG_LAYOUT_STRIDE) continue;
    for (int dim = 0; dim < p->rank; dim++) {
      char stride[GGI_NAME_MAX + 8];
      snprintf(stride, sizeof stride, "%s_s%d", p->name, dim);
      if (twin(stride, name)) return 1;
    }
  }
  for (int j = 0; j < k->nextents; j++)
    if (twin(k->extents[j], name)) return 1;
  return 0;
}

const char *ggi_arg_id(const ggi_kernel *k, const char *name, char *out)
{
  snprintf(out, GGI_NAME_PART_MAX, "%s", name);
  if (!has_case_twin(k, name))
    for (char *p = out; *p; p++)
      if (is_lower(*p)) *p = (char)(*p - 'a' + 'A');
  return out;
}

typedef struct gen_name {
  char *id;          /* the generated identifier */
  char what[200];    /* the declaration it comes from, for messages */
  int line;
} gen_name;

typedef struct names {
  gen_name *v;
  int n, cap;
  int oom;
} names;

/* Appends prefix + a + mid + b + suffix (NULL parts are empty), upper-
 * cased when up. */
static void add(names *ns, int up, int line, const char *what, const char *prefix, const char *a,
                const char *mid, const char *b, const char *suffix)
{
  if (ns->oom) return;
  if (ns->n == ns->cap) {
    int cap = ns->cap ? 2 * ns->cap : 64;
    gen_name *v = realloc(ns->v, sizeof *v * (size_t)cap);
    if (!v) {
      ns->oom = 1;
      return;
    }
    ns->v = v;
    ns->cap = cap;
  }
  const char *parts[5] = {prefix, a, mid, b, suffix};
  size_t len = 1;
  for (int i = 0; i < 5; i++) len += parts[i] ? strlen(parts[i]) : 0;
  char *id = malloc(len);
  if (!id) {
    ns->oom = 1;
    return;
  }
  id[0] = 0;
  for (int i = 0; i < 5; i++)
    if (parts[i]) strcat(id, parts[i]);
  if (up)
    for (char *p = id; *p; p++)
      if (is_lower(*p)) *p = (char)(*p - 'a' + 'A');
  gen_name *g = &ns->v[ns->n++];
  g->id = id;
  g->line = line;
  snprintf(g->what, sizeof g->what, "%s", what);
}

static int by_id(const void *a, const void *b)
{
  const gen_name *x = a, *y = b;
  int c = strcmp(x->id, y->id);
  return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int lib_cmp(const void *key, const void *elem)
{
  return strcmp(key, *(const char *const *)elem);
}

/* Kernel i has a typed starter: a frame, or a command of a persistent
 * kernel. */
static int is_command(const ggi_module *m, int i)
{
  if (ggi_pattern_is(&m->kernels[i], GGI_PAT_CHAIN)) return 1;
  for (int p = 0; p < m->npersistent; p++)
    for (int c = 0; c < m->persistent[p].ncommands; c++)
      if (m->persistent[p].command_index[c] == i) return 1;
  return 0;
}

typedef struct arg_ctx {
  names *ns;
  const ggi_kernel *k;
  const char *kind, *mk; /* "kernel" or "frame"; <MODULE>[_<KERNEL>] */
} arg_ctx;

/* GG_<MODULE>[_<KERNEL>]_<ARG> of one launch argument (ggi_arg_id) */
static int add_arg(const char *name, const char *what, int line, const void *c)
{
  const arg_ctx *x = c;
  char full[300], id[GGI_NAME_PART_MAX];
  snprintf(full, sizeof full, "%s \"%s\": %s", x->kind, x->k->name, what);
  add(x->ns, 0, line, full, "GG_", x->mk, "_", ggi_arg_id(x->k, name, id), 0);
  return 0;
}

/* The identifiers of emit.c (the .c, the .h) and the file-scope ones of
 * the kernel source (names.h). */
static void collect(const ggi_module *m, int module_line, names *ns)
{
  const char *M = m->name;
  char what[200];
  snprintf(what, sizeof what, "module \"%s\"", M);
  static const char *const module_ids[] = {"gg_module_", "gg_cuda_source_", "gg_hip_source_",
                                           "gg_cuda_options_", "gg_hip_options_", "gg_kernels_",
                                           "gg_persistent_", NULL};
  for (int i = 0; module_ids[i]; i++) add(ns, 0, module_line, what, module_ids[i], M, 0, 0, 0);
  add(ns, 1, module_line, what, "GG_MODULE_", M, 0, 0, "_H");
  add(ns, 1, module_line, what, "GG_", M, 0, 0, "_ALL_FIELDS");
  for (int i = 0; i < m->nkernels; i++) {
    const ggi_kernel *k = &m->kernels[i];
    const char *K = k->name;
    const char *kind = ggi_pattern_of(k->pattern)->kind;
    snprintf(what, sizeof what, "%s \"%s\"", kind, K);
    char part[GGI_NAME_PART_MAX];
    ggi_name_part(M, K, part);
    add(ns, 0, k->line, what, "gg_", M, "_args", part, 0);
    add(ns, 0, k->line, what, "gg_", M, "_launch", part, 0);
    if (is_command(m, i)) add(ns, 0, k->line, what, "gg_", M, "_start", part, 0);
    add(ns, 0, k->line, what, "gg_params_", M, "_", K, 0);
    add(ns, 1, k->line, what, "GG_", M, part, "_NARGS", 0);
    add(ns, 1, k->line, what, "GG_", M, part, "_FIELDS", 0);
    /* the kernel source's (names.h): all else of K is inside GG_NS_<K> */
    add(ns, 0, k->line, what, "gg_", K, 0, 0, 0);
    add(ns, 0, k->line, what, "gg_args_", K, 0, 0, 0);
    add(ns, 0, k->line, what, GGI_NS_PREFIX, K, 0, 0, 0);
    /* one enum constant per launch argument: params, extents, strides */
    char mk[GGI_NAME_MAX + GGI_NAME_PART_MAX];
    snprintf(mk, sizeof mk, "%s%s", M, part);
    for (char *p = mk; *p; p++) /* the module and kernel parts are capitalized */
      if (is_lower(*p)) *p = (char)(*p - 'a' + 'A');
    arg_ctx ctx = {ns, k, kind, mk};
    each_arg(k, add_arg, &ctx);
  }
  for (int i = 0; i < m->npersistent; i++) {
    const ggi_persistent *p = &m->persistent[i];
    snprintf(what, sizeof what, "persistent \"%s\"", p->name);
    add(ns, 0, p->line, what, "gg_persist_", p->name, 0, 0, 0);
    add(ns, 0, p->line, what, "GG_MIN_BLOCKS_gg_persist_", p->name, 0, 0, 0);
    add(ns, 0, p->line, what, "gg_commands_", M, "_", p->name, 0);
    add(ns, 0, p->line, what, "gg_pcommands_", M, "_", p->name, 0);
    char part[GGI_NAME_PART_MAX];
    ggi_name_part(M, p->name, part);
    add(ns, 1, p->line, what, "GG_", M, part, "_NCOMMANDS", 0);
    for (int c = 0; c < p->ncommands; c++) {
      snprintf(what, sizeof what, "persistent \"%s\": command \"%s\"", p->name, p->commands[c]);
      add(ns, 1, p->line, what, "GG_", M, part, "_CMD_", p->commands[c]);
    }
  }
}

int ggi_check_generated_names(const ggi_module *m, int module_line, ggi_diag *d)
{
  names ns = {0};
  collect(m, module_line, &ns);
  int rc = 0;
  if (ns.oom) rc = ggi_fail_at(d, m->file, 0, "out of memory");
  if (rc == 0) qsort(ns.v, (size_t)ns.n, sizeof *ns.v, by_id);
  for (int i = 0; rc == 0 && i < ns.n; i++) {
    const gen_name *g = &ns.v[i];
    if (i > 0 && strcmp(ns.v[i - 1].id, g->id) == 0) {
      const gen_name *first = &ns.v[i - 1];
      rc = ggi_fail_at(d, m->file, g->line, "%s makes the generated name %s, and so does %s (line %d): "
                       "rename one (generated names join names with _ and may capitalize them)",
                       g->what, g->id, first->what, first->line);
    } else if (bsearch(g->id, ggi_lib_names, ggi_lib_names_count, sizeof *ggi_lib_names, lib_cmp)) {
      rc = ggi_fail_at(d, m->file, g->line, "%s makes the generated name %s, which libgg or the "
                       "generated code already uses: choose another name", g->what, g->id);
    }
  }
  for (int i = 0; i < ns.n; i++) free(ns.v[i].id);
  free(ns.v);
  return rc;
}
