/*
 * test_hostile - a workload file that tries to run forever ends, refused,
 * within a few seconds of CPU time and with the message of the limit it
 * hit.
 *
 *   test_hostile CASE            load the case from memory (from its file
 *                                for the cases that need one)
 *   test_hostile CASE --write F  write the case's text to F (to try it on
 *                                another build of gpugen)
 *
 * Each case is a workload text built here and the messages it may end
 * with ("a|b": either; which limit is hit first depends on the speed of
 * the machine).  The process's CPU time (getrusage) must stay below the
 * default time limit plus CPU_SLACK seconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "load.h"

#define CPU_SLACK 3.0 /* seconds over the limit: sanitizer builds are slower between checks */

#define MB (1024 * 1024)
#define KERNEL "kernel \"a\" { pattern = \"for\", range = { 4 }, params = { { \"x\", \"f32[4]\" } }, body = \"\" }\n"
#define TIME "loading the workload took more than"
#define STEPS "ran for more than"
#define MEMORY "workload uses more than 64 MiB"

typedef struct buf {
  char *p;
  size_t n, cap;
} buf;

static void put(buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p) abort();
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}

static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

/* `lines` comment lines of `width` copies of ch: a big file. */
static void pad(buf *b, size_t bytes, char ch) {
  char line[1024];
  memset(line, ch, sizeof line);
  line[0] = '-', line[1] = '-', line[sizeof line - 1] = '\n';
  for (size_t n = 0; n + sizeof line <= bytes; n += sizeof line) put(b, line, sizeof line);
}

/* Tens of thousands of unknown fields written in the file, then ~15 MB. */
static void unknown_keys(buf *b) {
  puts_(b, "kernel \"k\" {\n  pattern = \"for\", range = { 4 }, params = { { \"x\", \"f32[4]\" } }, body = \"\",\n");
  char line[64];
  for (int i = 0; i < 30011; i++) {
    snprintf(line, sizeof line, "  u%05d = 1,\n", 30010 - i);
    puts_(b, line);
  }
  puts_(b, "}\n");
  pad(b, 15 * MB, 'u');
}

/* The same fields made by code: none is in the text, and the text (4 MB:
 * every line lookup scans all of it) is full of the letter they start
 * with. */
static void unknown_keys_code(buf *b) {
  puts_(b, "local t = { pattern = \"for\", range = { 4 }, params = { { \"x\", \"f32[4]\" } }, body = \"\" }\n"
           "for i = 1, 30011 do t[\"q\" .. i] = 1 end\n"
           "kernel \"k\" (t)\n");
  pad(b, 4 * MB, 'q');
}

/* Thousands of kernels share one span (declared in a loop) and each has a
 * field that is not in the text: every line lookup scans the whole span. */
static void shared_span(buf *b) {
  puts_(b, "local t = { pattern = \"for\", range = { 4 }, params = { { \"x\", \"f32[4]\" } } }\n"
           "t[\"bo\" .. \"dy\"] = \"\"\n"
           "for i = 1, 4000 do kernel(\"k\" .. i)(t) end\n");
  pad(b, 15 * MB, 'b');
}

/* A valid file of ~15 MB: it loads (or is refused) within the limit. */
static void big_file(buf *b) {
  puts_(b, KERNEL "local t = {\n");
  for (size_t n = 0; n < 15 * MB; n += 20) puts_(b, "  \"aaaaaaaaaaaaaa\",\n");
  puts_(b, "}\n");
}

/* Larger than files may be: refused before it runs. */
static void huge_file(buf *b) {
  puts_(b, KERNEL);
  pad(b, 17 * MB, 'x');
}

typedef struct hostile {
  const char *name;
  const char *text;          /* or: */
  void (*build)(buf *b);
  int from_file;             /* loaded from a file (the size check is there) */
  const char *want;          /* a|b: either */
} hostile;

static const hostile cases[] = {
  /* Lua code out of reach of the hook */
  {"xpcall_handler", "xpcall(function() while true do end end, function() while true do end end)\n", 0, 0, STEPS "|" TIME},
  {"xpcall_handler_time",
   "local s = string.rep('a', 4000000)\n"
   "xpcall(function() while true do s:find('b', 1, true) end end, function() while true do end end)\n", 0, 0, TIME},
  {"xpcall_nested",
   "local function h() xpcall(function() while true do end end, h) end\n"
   "xpcall(function() while true do end end, h)\n", 0, 0, STEPS "|" TIME},
  {"coroutine", "local co = coroutine.wrap(function() while true do end end)\nco()\n", 0, 0,
   "'coroutine' is not available"},
  {"sort_comparator", "local t = {} for i = 1, 1000 do t[i] = i end\n"
   "table.sort(t, function(a, b) while true do end end)\n", 0, 0, STEPS "|" TIME},
  {"recursion_pcall_tree", "local function f() pcall(f) pcall(f) end\nf()\n", 0, 0, STEPS "|" TIME},
  {"recursion_deep", "local function f(n) return 1 + f(n + 1) end\nf(1)\n", 0, 0, "stack overflow"},
  /* work inside single VM instructions */
  {"rep_loop", "for i = 1, 1e9 do local s = string.rep('x', 1000000) end\n", 0, 0, TIME "|" STEPS},
  {"rep_empty", "local s = string.rep('', math.maxinteger)\nlocal t = string.rep('', math.maxinteger, '')\n", 0, 0,
   "no kernel declared"},
  {"rep_huge", "local ok = pcall(string.rep, 'ab', 1 << 40, ',')\n" KERNEL, 0, 0, ":1: " MEMORY},
  {"concat_growth", "local s = 'x'\nfor i = 1, 1e9 do s = s .. 'xy' end\n", 0, 0, TIME "|" MEMORY "|" STEPS},
  {"concat_doubling", "local s = 'x'\nwhile true do s = s .. s end\n", 0, 0, ":2: " MEMORY},
  {"find_big", "local s = string.rep('a', 8000000)\nlocal p = string.rep('a', 3000000) .. 'b'\n"
   "local i = s:find(p, 1, true)\n", 0, 0, ":3: " TIME},
  {"find_loop", "local s = string.rep('a', 10000000)\nwhile true do local i = s:find('b', 1, true) end\n", 0, 0, ":2: " TIME},
  {"patterns", "local s = string.rep('a', 30)\nlocal i = s:match('(a*)*b')\n", 0, 0, "string.match is not available"},
  {"format_loop", "local s = string.rep('x', 10000000)\nwhile true do local t = string.format('%s%s', s, s) end\n", 0, 0,
   TIME "|" MEMORY},
  {"move_huge", "local t = {}\ntable.move(t, 1, math.maxinteger - 1, 2)\n", 0, 0, ":2: " TIME},
  {"move_huge_down", "local t = {}\ntable.move(t, math.mininteger + 2, -1, math.mininteger + 1)\n", 0, 0, ":2: " TIME},
  {"concat_loop", "local t = {} for i = 1, 1000000 do t[i] = '' end\nwhile true do local s = table.concat(t) end\n", 0, 0, ":2: " TIME},
  {"concat_range", "local t = {}\nlocal s = table.concat(t, '', 1, math.maxinteger)\n", 0, 0, "invalid value (nil) at index 1 in table for 'concat'"},
  {"sort_big", "local t = {} for i = 1, 2000000 do t[i] = -i end\ntable.sort(t)\n", 0, 0, "table.sort: 2000000 elements"},
  {"insert_loop", "local t = {} for i = 1, 1500000 do t[i] = i end\n"
   "while true do table.insert(t, 1, 0) table.remove(t, 1) end\n", 0, 0, ":2: " TIME},
  {"unpack_loop", "local t = {} for i = 1, 900000 do t[i] = i end\nwhile true do local a = select('#', table.unpack(t)) end\n", 0, 0, TIME "|" STEPS},
  {"next_sparse", "local t = {} for i = 1, 2000000 do t[i] = i end for i = 1, 1999999 do t[i] = nil end\n"
   "while true do local k = next(t) end\n", 0, 0, TIME "|" STEPS},
  {"memory_pcall_loop", "local t = {} for i = 1, 100000 do t[i] = {} end\n"
   "while true do pcall(string.rep, 'x', 1 << 30) end\n", 0, 0, ":2: " MEMORY},
  {"equal_long_strings", "local a = string.rep('x', 20000000)\nlocal b = string.rep('x', 19999999) .. 'y'\n"
   "while true do local e = a == b end\n", 0, 0, TIME "|" STEPS},
  /* the validation */
  {"unknown_keys", NULL, unknown_keys, 0, ":30006: kernel \"k\": unknown field 'u00007'"},
  {"unknown_keys_code", NULL, unknown_keys_code, 0, ":3: kernel \"k\": unknown field 'q1'"},
  {"shared_span", NULL, shared_span, 0, TIME "|no kernel declared"},
  {"body_nesting", /* a view call nested 200 000 deep: the body check must stay linear */
   "kernel \"n\" { pattern = \"for\", range = { \"n\" },\n"
   "  params = { { \"x\", \"f32[n]\", access = \"in\" }, { \"y\", \"f32[n]\", access = \"out\" } },\n"
   "  body = \"y(i) = \" .. string.rep(\"x(\", 200000) .. \"i\" .. string.rep(\")\", 200000) .. \"; x(i) = 0;\" }\n",
   0, 0, "writes view \"x\""},
  {"many_declarations", "for i = 1, 100000 do kernel('k' .. i) { pattern = 'for', range = { 4 }, "
   "params = { { 'x', 'f32[4]' } }, body = '' } end\n", 0, 0, ":1: more than 4096 declarations"},
  /* size */
  {"big_file", NULL, big_file, 1, TIME "|" MEMORY "|ACCEPT"},
  {"huge_file", NULL, huge_file, 1, "file is larger than 16 MiB"},
};
#define NCASES (int)(sizeof cases / sizeof cases[0])

static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec * 1e-6;
}

/* 1 when msg contains one of the |-separated alternatives. */
static int matches(const char *msg, const char *want) {
  char alt[256];
  for (const char *p = want;;) {
    const char *bar = strchr(p, '|');
    size_t n = bar ? (size_t)(bar - p) : strlen(p);
    snprintf(alt, sizeof alt, "%.*s", (int)n, p);
    if (strstr(msg, alt)) return 1;
    if (!bar) return 0;
    p = bar + 1;
  }
}

int main(int argc, char **argv) {
  const hostile *h = NULL;
  for (int i = 0; argc > 1 && i < NCASES; i++)
    if (strcmp(argv[1], cases[i].name) == 0) h = &cases[i];
  if (!h) {
    fprintf(stderr, "usage: test_hostile CASE [--write FILE]; cases:");
    for (int i = 0; i < NCASES; i++) fprintf(stderr, " %s", cases[i].name);
    fprintf(stderr, "\n");
    return 2;
  }
  buf b = {0};
  if (h->text) puts_(&b, h->text);
  else h->build(&b);
  char file[256];
  snprintf(file, sizeof file, "%s.lua", h->name);
  if (argc > 3 && strcmp(argv[2], "--write") == 0) snprintf(file, sizeof file, "%s", argv[3]);
  if (h->from_file || argc > 3) {
    FILE *f = fopen(file, "wb");
    if (!f || fwrite(b.p, 1, b.n, f) != b.n || fclose(f) != 0) {
      perror(file);
      return 1;
    }
    if (argc > 3) return 0;
  }
  double t0 = cpu_seconds();
  ggi_module *m = NULL;
  ggi_diag d;
  int rc = h->from_file ? ggi_load(file, NULL, 0, &m, &d) : ggi_load(file, b.p, b.n, &m, &d);
  double used = cpu_seconds() - t0, bound = GGI_TIME_LIMIT + CPU_SLACK;
  if (h->from_file) remove(file);
  const char *msg = rc == 0 ? "ACCEPT (loaded)" : d.msg;
  printf("%s: %.2f s of CPU: %s\n", h->name, used, msg);
  int ok = matches(msg, h->want) && (rc == 0 || strncmp(msg, file, strlen(file)) == 0);
  if (!ok) printf("FAIL: want a message with %s, starting with %s\n", h->want, file);
  if (used > bound) {
    printf("FAIL: %.2f s of CPU, more than %.1f\n", used, bound);
    ok = 0;
  }
  ggi_module_free(m);
  free(b.p);
  return ok ? 0 : 1;
}
