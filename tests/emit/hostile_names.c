/*
 * hostile_names - names chosen to collide with what generated code,
 * C, C++, CUDA, HIP and the C library already use.
 *
 *   hostile_names OUT_DIR FILE...
 *
 * Candidates: a fixed list of adversarial names plus every identifier in
 * FILE... (the templates and libgg's headers: what generated code sees;
 * the lowercase macros of the C library's and POSIX's headers, which a
 * program may include before the generated header).
 * Each candidate is tried alone in each role a name has (module, kernel,
 * persistent, scalar and view parameter, extent, index, scratch) through
 * the loader:
 *   - refused: the message must be "file:LINE: ..." naming the name;
 *   - accepted: it joins a batch workload of its role, written to
 *     OUT_DIR/<batch>.lua and listed in OUT_DIR/batches.txt.
 * hostile_names.sh then emits every batch, compiles the .c/.h as C and
 * C++ and the kernel sources with NVRTC and hiprtc: whatever the loader
 * accepts must build.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "specialize.h"

#define CHUNK 48 /* names per kernel in a batch */

static const char *const fixed[] = {
  /* the generated API and generated names */
  "load", "free", "desc", "context", "module", "kernel", "launch", "params", "persistent",
  "commands", "kernels", "nargs", "NARGS", "all", "ALL", "fields", "FIELDS", "all_fields", "abi",
  "args", "body", "persist_x", "cuda_source", "hip_source", "cuda_options", "source", "options",
  "grid", "grid_hw", "sync", "smem", "ws", "seq", "lin", "divmod", "acc", "acc_t", "elem_t", "VEC",
  "UNROLL", "NV", "ITEMS", "TILE", "TEAM", "identity", "combine", "combine_op", "store", "store_at",
  "value_at", "work", "thread_fold", "block_reduce", "warp_reduce", "tile_reduce", "finish",
  "shfl_down", "a", "b", "k", "K", "x", "X", "i", "j", "I", "A_s0", "A_e1", "GG_INF", "gg_x",
  "i0", "i1", "i2", /* a view macro's parameters, once */
  "Gg_x", "GG", "gg", "Gg", "main", "stdint", "string", "math", "time", "Stdio", "unistd",
  "gg_module", "gg_session", "hn_scalar0",
  /* C, C++, CUDA, HIP, the C library, compilers */
  "linux", "unix", "i386", "NULL", "EOF", "stdin", "stdout", "stderr", "errno", "int64_t",
  "uint16_t", "size_t", "_Pragma", "_Bool", "and", "or", "not", "xor", "bitand", "compl",
  "and_eq", "bool", "true", "false", "nullptr", "class", "new", "delete", "this", "template",
  "typename", "operator", "restrict", "register", "typeof", "alignas", "static_assert",
  "thread_local", "noreturn", "complex", "imaginary", "assert", "offsetof", "signed",
  "co_await", "requires", "concept", "export", "import", "final", "override", "asm",
  "cooperative_groups", "threadIdx", "blockIdx", "warpSize", "dim3", "half", "half2",
  "float4", "atomicAdd", "printf", "sqrtf", "min", "max", "abs", "exp", "hipThreadIdx_x",
  "hipLaunchKernelGGL", "cudaStream_t", "cudaSuccess", "INT_MAX", "INFINITY", "NAN",
  "M_PI", "EXIT_SUCCESS", "CHAR_BIT", "B0", "environ", "va_arg", "setjmp", "defined",
  "__LINE__", "__x", "x__y", "x_", "_x", "X_", "x1", "a2", "team_sum", "team_barrier",
  "league_rank", "n", "m", "vw0x",
  /* macros of POSIX headers (<sys/stat.h>, <signal.h>, <netdb.h>, <sys/sysmacros.h>) */
  "st_mtime", "st_atime", "sa_handler", "si_pid", "h_addr", "major", "minor", NULL};

typedef struct list {
  char **v;
  int n, cap;
} list;

static void push(list *l, const char *s)
{
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 256;
    l->v = realloc(l->v, sizeof *l->v * (size_t)l->cap);
    if (!l->v) exit(2);
  }
  l->v[l->n] = strdup(s);
  if (!l->v[l->n]) exit(2);
  l->n++;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The identifiers of a C/C++ file's code (comments skipped: their
 * words never reach a compiler). */
static void tokens_of(const char *path, list *out)
{
  FILE *f = fopen(path, "rb");
  if (!f) return;
  char w[128];
  int n = 0, c, prev = 0, comment = 0; /* 1: block comment, 2: line comment */
  while ((c = fgetc(f)) != EOF || n) {
    if (comment == 1) {
      if (prev == '*' && c == '/') comment = 0, c = 0;
    } else if (comment == 2) {
      if (c == '\n') comment = 0;
    } else if (c != EOF && (isalnum(c) || c == '_')) {
      if (n < (int)sizeof w - 1) w[n++] = (char)c;
      prev = c;
      continue;
    } else if (prev == '/' && (c == '*' || c == '/')) {
      comment = c == '*' ? 1 : 2;
      c = 0;
    }
    w[n] = 0;
    if (n && !isdigit((unsigned char)w[0])) push(out, w);
    n = 0;
    prev = c;
    if (c == EOF) break;
  }
  fclose(f);
}

/* The roles, each with a one-name probe and its batch piece.  %1$s is
 * the name, %2$d a counter (kernel index, chunk index). */
typedef struct role {
  const char *name;
  const char *probe;      /* a whole workload with the name in this role */
  int per_kernel;         /* names per batch kernel; 0: each name is a whole batch */
  int fixed_only;         /* only the fixed list (each name costs a build of its own) */
} role;

static const role roles[] = {
  {"scalar", "kernel \"k\" { pattern = \"for\", range = { 4 },\n"
             "  params = { { \"vw0x\", \"f32[4]\", access = \"inout\" }, { \"%s\", \"f32\" } },\n"
             "  body = \"vw0x(i) = 1.0f;\" }\n", CHUNK, 0},
  {"view", "kernel \"k\" { pattern = \"for\", range = { 4 },\n"
           "  params = { { \"%s\", \"f32[4][4]\", layout = \"stride\", access = \"inout\" } },\n"
           "  body = \"\" }\n", CHUNK, 0},
  {"extent", "kernel \"k\" { pattern = \"for\", range = { \"%s\" },\n"
             "  params = { { \"vw0x\", \"f32[%s]\", access = \"inout\" } }, body = \"\" }\n", CHUNK, 0},
  {"index", "kernel \"k\" { pattern = \"for\", range = { 4 }, index = { \"%s\" },\n"
            "  params = { { \"vw0x\", \"f32[4]\", access = \"inout\" } }, body = \"\" }\n", 1, 1},
  {"scratch", "kernel \"k\" { pattern = \"team\", league = 1,\n"
              "  scratch = { { \"%s\", \"f32[2]\" } }, body = \"\" }\n", CHUNK, 0},
  {"kernel", "kernel \"%s\" { pattern = \"for\", range = { 4 }, body = \"\" }\n", CHUNK, 0},
  {"persistent", "kernel \"k\" { pattern = \"for\", range = { 4 }, body = \"\" }\n"
                 "persistent \"%s\" { commands = { \"k\" } }\n", CHUNK, 1},
  {"module", "module { name = \"%s\" }\n"
             "kernel \"k\" { pattern = \"for\", range = { 4 }, body = \"\" }\n", 0, 1},
};
#define NROLES (int)(sizeof roles / sizeof roles[0])

static int failures;

/* Probe: 1 accepted, 0 refused with a proper file:line message. */
static int probe(const role *r, const char *name)
{
  char text[2048];
  /* the extent probe names it twice */
  snprintf(text, sizeof text, r->probe, name, name);
  ggi_module *m = NULL;
  ggi_diag d = {{0}};
  int ok = ggi_load("probe.lua", text, strlen(text), &m, &d) == 0 && ggi_specialize(m, &d) == 0;
  ggi_module_free(m);
  if (ok) return 1;
  int line = 0, len = 0;
  if (sscanf(d.msg, "probe.lua:%d: %n", &line, &len) != 1 || line < 1 || len == 0 ||
      !strstr(d.msg, name)) {
    printf("FAIL %s \"%s\": refused without file:line and the name: %s\n", r->name, name, d.msg);
    failures++;
  }
  return 0;
}

/* Appends the batch piece of role r for names[0..n) as kernel/module `id`. */
static void piece(FILE *f, const role *r, int id, char **names, int n)
{
  if (strcmp(r->name, "scalar") == 0) {
    /* the same scalars in every pattern: for, team, reduce, scan, tile_reduce */
    static const char *const pats[] = {
      "pattern = \"for\", range = { 4 }, body = \"vw0x(i) = 1.0f;\"",
      "pattern = \"team\", league = 1, body = \"vw0x(0) = 1.0f;\"",
      "pattern = \"reduce\", range = { 4 }, value = \"vw0x(i)\", into = \"vw1x\"",
      "pattern = \"scan\", range = { 4 }, value = \"vw0x(i)\", into = \"vw2x\"",
      "pattern = \"tile_reduce\", tile = 2, range = { 4 }, value = \"vw0x(i)\", into = \"vw3x\""};
    for (int p = 0; p < 5; p++) {
      fprintf(f, "kernel \"k%dx%d\" { %s,\n  params = {\n    { \"vw0x\", \"f32[4]\", access = \"inout\" },\n"
                 "    { \"vw1x\", \"f32[1]\", access = \"out\" }, { \"vw2x\", \"f32[4]\", access = \"out\" },\n"
                 "    { \"vw3x\", \"f32[2]\", access = \"out\" },\n", id, p, pats[p]);
      for (int i = 0; i < n; i++) fprintf(f, "    { \"%s\", \"f32\" },\n", names[i]);
      fprintf(f, "  } }\n");
    }
  } else if (strcmp(r->name, "view") == 0) {
    for (int p = 0; p < 2; p++) {
      fprintf(f, "kernel \"k%dx%d\" { %s,\n  params = {\n    { \"vw0x\", \"f32[4]\", access = \"inout\" },\n"
                 "    { \"vw1x\", \"f32[1]\", access = \"out\" },\n",
              id, p, p ? "pattern = \"reduce\", range = { 4 }, value = \"vw0x(i)\", into = \"vw1x\""
                       : "pattern = \"for\", range = { 4 }, body = \"vw0x(i) = 1.0f;\"");
      for (int i = 0; i < n; i++)
        fprintf(f, "    { \"%s\", \"f32[4][4]\", layout = \"stride\", access = \"inout\" },\n", names[i]);
      fprintf(f, "  } }\n");
    }
  } else if (strcmp(r->name, "extent") == 0) {
    fprintf(f, "kernel \"k%d\" { pattern = \"for\", range = { 4 }, body = \"\",\n  params = {\n", id);
    for (int i = 0; i < n; i++) fprintf(f, "    { \"vw%dx\", \"f32[%s]\" },\n", i + 10, names[i]);
    fprintf(f, "  } }\n");
  } else if (strcmp(r->name, "index") == 0) {
    for (int i = 0; i < n; i++)
      fprintf(f, "kernel \"k%dx%d\" { pattern = \"for\", range = { 4 }, index = { \"%s\" },\n"
                 "  params = { { \"vw0x\", \"f32[4]\", access = \"inout\" } }, body = \"vw0x(%s) = 1.0f;\" }\n",
              id, i, names[i], names[i]);
  } else if (strcmp(r->name, "scratch") == 0) {
    fprintf(f, "kernel \"k%d\" { pattern = \"team\", league = 1, body = \"\",\n  scratch = {\n", id);
    for (int i = 0; i < n; i++) fprintf(f, "    { \"%s\", \"f32[2]\" },\n", names[i]);
    fprintf(f, "  } }\n");
  } else if (strcmp(r->name, "kernel") == 0) {
    for (int i = 0; i < n; i++)
      fprintf(f, "kernel \"%s\" { pattern = \"for\", range = { 4 }, body = \"\" }\n", names[i]);
  } else if (strcmp(r->name, "persistent") == 0) {
    if (id == 0) fprintf(f, "kernel \"k\" { pattern = \"for\", range = { 4 }, body = \"\" }\n");
    for (int i = 0; i < n; i++) fprintf(f, "persistent \"%s\" { commands = { \"k\" } }\n", names[i]);
  } else {
    fprintf(f, r->probe, names[0], names[0]);
  }
}

/* Writes batch b of role r: names[0..n), per names to a kernel. */
static int write_batch(const char *path, const role *r, int b, char **names, int n, int per)
{
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    return -1;
  }
  if (r->per_kernel > 0) {
    fprintf(f, "module { name = \"hn_%s%d\" }\n", r->name, b);
    for (int i = 0; i < n; i += per) piece(f, r, i / per, names + i, n - i < per ? n - i : per);
  } else {
    piece(f, r, 0, names, 1);
    if (strcmp(r->name, "module") != 0) fprintf(f, "module { name = \"hn_%s%d\" }\n", r->name, b);
  }
  return fclose(f) == 0 ? 0 : -1;
}

/* Which of names[] is quoted on the line a "path:LINE: ..." message names;
 * -1 when none. */
static int name_at_line(const char *path, const char *msg, char **names, int n)
{
  size_t pl = strlen(path);
  if (strncmp(msg, path, pl) != 0 || msg[pl] != ':') return -1;
  int line = atoi(msg + pl + 1);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char buf[4096];
  int l = 0, found = -1;
  while (fgets(buf, sizeof buf, f))
    if (++l == line) {
      for (int i = 0; i < n && found < 0; i++) {
        char q[160];
        snprintf(q, sizeof q, "\"%s\"", names[i]);
        if (strstr(buf, q)) found = i;
      }
      break;
    }
  fclose(f);
  return found;
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: hostile_names OUT_DIR FILE...\n");
    return 2;
  }
  const char *out = argv[1];
  list cand = {0};
  for (int i = 0; fixed[i]; i++) push(&cand, fixed[i]);
  list from_files = {0};
  for (int i = 2; i < argc; i++) tokens_of(argv[i], &from_files);
  for (int i = 0; i < from_files.n; i++) push(&cand, from_files.v[i]);
  qsort(cand.v, (size_t)cand.n, sizeof *cand.v, cmp_str);
  int n = 0;
  for (int i = 0; i < cand.n; i++) {
    if (n == 0 || strcmp(cand.v[n - 1], cand.v[i]) != 0) cand.v[n++] = cand.v[i];
    else free(cand.v[i]);
  }
  cand.n = n;
  for (int i = 0; i < from_files.n; i++) free(from_files.v[i]);

  char path[4096];
  snprintf(path, sizeof path, "%s/batches.txt", out);
  FILE *batches = fopen(path, "w");
  if (!batches) {
    perror(path);
    return 2;
  }
  int accepted_total = 0, refused_total = 0;
  for (int ri = 0; ri < NROLES; ri++) {
    const role *r = &roles[ri];
    /* module and persistent: one module each; only the fixed list (each is a whole build) */
    list ok = {0};
    for (int i = 0; i < cand.n; i++) {
      int is_fixed = 0;
      for (int j = 0; fixed[j]; j++) is_fixed |= strcmp(fixed[j], cand.v[i]) == 0;
      if (r->fixed_only && !is_fixed) continue;
      /* names the batch pieces use themselves */
      if (strncmp(cand.v[i], "vw", 2) == 0 || (cand.v[i][0] == 'k' && isdigit((unsigned char)cand.v[i][1])))
        continue;
      if (probe(r, cand.v[i])) push(&ok, cand.v[i]), accepted_total++;
      else refused_total++;
    }
    /* Names fine alone may clash together (x and X make the same enum
       constant; A_s0 is view A's stride): such a name moves on to the
       next batch of the role. */
    int per = r->per_kernel > 0 ? r->per_kernel : 1;
    int whole = r->per_kernel > 0;
    list todo = {0}, deferred = {0};
    for (int i = 0; i < ok.n; i++) push(&todo, ok.v[i]);
    int b = 0;
    while (todo.n > 0) {
      int nb = whole ? todo.n : 1;
      snprintf(path, sizeof path, "%s/hn_%s%d.lua", out, r->name, b);
      if (write_batch(path, r, b, todo.v, nb, per) != 0) return 2;
      ggi_module *m = NULL;
      ggi_diag d = {{0}};
      int loaded = ggi_load(path, NULL, 0, &m, &d) == 0 && ggi_specialize(m, &d) == 0;
      if (loaded) fprintf(batches, "%s %s %s\n", path, m->name, r->name);
      ggi_module_free(m);
      int at = loaded || !whole ? -1 : name_at_line(path, d.msg, todo.v, todo.n);
      if (!loaded && at < 0) {
        printf("FAIL batch %s: %s\n", path, d.msg);
        failures++;
      }
      if (at >= 0) { /* retry this batch without it; it goes to a later one */
        push(&deferred, todo.v[at]);
        free(todo.v[at]);
        todo.v[at] = todo.v[--todo.n];
        continue;
      }
      for (int i = 0; i < nb; i++) free(todo.v[i]);
      memmove(todo.v, todo.v + nb, sizeof *todo.v * (size_t)(todo.n - nb));
      todo.n -= nb;
      for (int i = 0; i < deferred.n; i++) push(&todo, deferred.v[i]), free(deferred.v[i]);
      deferred.n = 0;
      b++;
    }
    free(todo.v);
    free(deferred.v);
    printf("%-10s %4d names accepted\n", r->name, ok.n);
    for (int i = 0; i < ok.n; i++) free(ok.v[i]);
    free(ok.v);
  }
  fclose(batches);
  printf("%d candidates, %d role probes accepted, %d refused with file:line; %d failures\n", cand.n,
         accepted_total, refused_total, failures);
  for (int i = 0; i < cand.n; i++) free(cand.v[i]);
  free(cand.v);
  free(from_files.v);
  return failures ? 1 : 0;
}
