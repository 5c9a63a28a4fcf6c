/*
 * test_tune_gpu.c - gg_session_tune on the GPU (tests/persistent/tune_gpu.lua:
 * frame "step", y = a x + 1 then e = sum y, on a one-block and a
 * many-block persistent kernel), each step in a process of its own with a
 * fresh cache folder (GG_CACHE_DIR) shared by all:
 *
 *   first    n = 1000: measured, the choice is the measured row of lowest
 *            p50, the record written; the chosen session computes y and e
 *            as the CPU does; asked again: the record, nothing measured;
 *            n = 1 << 20: another key, measured; with step_b too: the
 *            one-block "groups" row's screening cut short; with an alternative
 *            command (step_b, also on a thread_groups kernel): its rows
 *            tried, the choice correct; a budget of 1 ms: only the first
 *            candidate measured; GG_TUNE=off and the option off: the first
 *            candidate as declared, nothing measured; a command no kernel
 *            has, a wrong argument count and GG_TUNE=maybe are refused.
 *   second   n = 1000 in a new process: the record, the same choice.
 *   (the parent plants, with the cache's own writer, records whose choice
 *    is not their fastest row: a valid entry with a steering payload)
 *   third    n = 1000: the planted record ignored, measured again and
 *            rewritten; asked again: the new record.
 *   (the parent flips a byte of every record's file)
 *   corrupt  n = 1000: "ignored (cache entry: checksum mismatch ...)",
 *            measured again, the choice run and checked.
 *   (the parent copies another record's file, byte for byte, over the
 *    n = 1000 record's: a valid entry, of another key)
 *   foreign  n = 1000: "ignored (cache entry: entry of another key)",
 *            measured again.
 *   race     two processes at once on a folder of their own, n = 1000,
 *            meeting before they tune: one measures, the other waits for
 *            the key's lock and reads its record (without the lock both
 *            would measure); the same choice.
 *
 * Label gpu; exit 77 without one.
 */
#include <dirent.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache.h"
#include "gg.h"
#include "gg_session.h"
#include "tune_gpu.h"
#include "../expect.h"
#include "../gg_check.h"

static char dir[256];
static gg_context *ctx_of; /* the child's context */

/* The frame's arrays at size n, x(i) = i % 7 - 3: y and e are small
 * integers, exact in f32 in any order of summation. */
typedef struct frame_data {
  long long n;
  gg_array *x, *y, *e;
  gg_arg args[5];
} frame_data;

static void data_open(gg_context *ctx, frame_data *d, long long n)
{
  d->n = n;
  float *hx = malloc((size_t)n * 4);
  CHECK(hx != NULL);
  if (!hx) exit(1);
  for (long long i = 0; i < n; i++) hx[i] = (float)(i % 7 - 3);
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)n * 4, &d->x));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, (size_t)n * 4, &d->y));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, 4, &d->e));
  CHECK_OK(gg_copy_from_host(d->x, 0, hx, (size_t)n * 4, NULL));
  free(hx);
  d->args[0] = gg_arg_f32(2.0f);
  d->args[1] = gg_arg_array(d->x);
  d->args[2] = gg_arg_array(d->y);
  d->args[3] = gg_arg_array(d->e);
  d->args[4] = gg_arg_i64(n);
}

static void data_free(frame_data *d)
{
  gg_array_free(d->x);
  gg_array_free(d->y);
  gg_array_free(d->e);
}

/* One frame of the choice, y and e against the CPU. */
static void run_choice(gg_module *mod, const gg_tuned *t, frame_data *d)
{
  CHECK_OK(gg_fill_zero(d->y, NULL)); /* before the session: its kernel never ends */
  CHECK_OK(gg_fill_zero(d->e, NULL));
  CHECK_OK(gg_device_sync(ctx_of));
  gg_session_options o = {0};
  o.blocks = t->blocks;
  gg_session *s;
  CHECK_OK(gg_session_open(mod, t->kernel, &o, &s));
  int cmd;
  CHECK_OK(gg_session_command(s, t->command, &cmd));
  CHECK_OK(gg_session_run(s, cmd, d->args, 5, 2000000000ll));
  CHECK_OK(gg_session_terminate(s));
  gg_session_free(s);
  float *y = malloc((size_t)d->n * 4), e = 0;
  if (!y) exit(1);
  CHECK_OK(gg_copy_to_host(y, d->y, 0, (size_t)d->n * 4, NULL));
  CHECK_OK(gg_copy_to_host(&e, d->e, 0, 4, NULL));
  double want_e = 0;
  long long bad = 0;
  for (long long i = 0; i < d->n; i++) {
    float want = 2.0f * (float)(i % 7 - 3) + 1.0f;
    want_e += want;
    bad += y[i] != want;
  }
  EXPECT(bad == 0, "n = %lld on \"%s\" %d blocks: %lld elements of y wrong", d->n, t->kernel,
         t->blocks, bad);
  EXPECT(e == (float)want_e, "n = %lld: e = %.1f, the CPU gives %.1f", d->n, e, want_e);
  free(y);
}

/* The choice is the measured row of lowest p50, and both kernels are candidates. */
static void check_choice(const gg_tuned *t)
{
  int best = -1, one = 0, whole = 0;
  for (int i = 0; i < t->nrows; i++) {
    const gg_tune_row *r = &t->row[i];
    one += strcmp(r->kernel, "one") == 0;
    whole += strcmp(r->kernel, "whole") == 0;
    if (r->state == GG_TUNE_MEASURED && (best < 0 || r->p50_ns < t->row[best].p50_ns))
      best = i;
  }
  CHECK(one == 1 && whole >= 2); /* one block; the whole GPU at two counts at least */
  CHECK(best >= 0);
  if (best < 0) return;
  EXPECT(t->kernel == t->row[best].kernel && t->blocks == t->row[best].blocks,
         "chose \"%s\" %d blocks, the fastest row is \"%s\" %d", t->kernel, t->blocks,
         t->row[best].kernel, t->row[best].blocks);
}

static gg_tuned tune(gg_module *mod, frame_data *d, gg_tune_source want, const char *note)
{
  gg_tuned t;
  CHECK_OK(gg_session_tune(mod, "step", d->args, 5, NULL, &t));
  gg_tuned_print(&t, stdout);
  EXPECT(t.source == want, "n = %lld: source %d, expected %d (%s)", d->n, (int)t.source,
         (int)want, t.note);
  EXPECT(!note || strstr(t.note, note), "n = %lld: note \"%s\" lacks \"%s\"", d->n, t.note, note);
  if (t.source != GG_TUNE_FROM_DEFAULT) check_choice(&t);
  return t;
}

static void save_choice(const gg_tuned *t)
{
  char path[300];
  snprintf(path, sizeof path, "%s/choice.txt", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fprintf(f, "%s %s %d\n", t->kernel, t->command, t->blocks);
  fclose(f);
}

static void same_choice(const gg_tuned *t)
{
  char path[300], k[64] = "", c[64] = "";
  int b = -1;
  snprintf(path, sizeof path, "%s/choice.txt", dir);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL && fscanf(f, "%63s %63s %d", k, c, &b) == 3);
  if (f) fclose(f);
  EXPECT(strcmp(k, t->kernel) == 0 && strcmp(c, t->command) == 0 && b == t->blocks,
         "the first process chose \"%s\" %d blocks, this one \"%s\" %d", k, b, t->kernel,
         t->blocks);
}

/* Both racers reach this point before either tunes: each makes its file
 * ready-<pid> in the folder and waits (at most 20 s) until there are two. */
static void meet(void)
{
  char path[320];
  snprintf(path, sizeof path, "%s/ready-%d", dir, (int)getpid());
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) fclose(f);
  const struct timespec ms = {0, 1000000};
  for (int waited = 0; waited < 20000; waited++) {
    int n = 0;
    DIR *dp = opendir(dir);
    struct dirent *de;
    while (dp && (de = readdir(dp))) n += strncmp(de->d_name, "ready-", 6) == 0;
    if (dp) closedir(dp);
    if (n >= 2) return;
    nanosleep(&ms, NULL);
  }
  EXPECT(0, "the other racer never arrived");
}

/* A racer's outcome, for the parent: source kernel command blocks. */
static void save_race(const gg_tuned *t)
{
  char path[320];
  snprintf(path, sizeof path, "%s/race-%d", dir, (int)getpid());
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fprintf(f, "%d %s %s %d\n", (int)t->source, t->kernel, t->command, t->blocks);
  fclose(f);
}

static int child(const char *mode)
{
  gg_context *ctx = gg_check_open(NULL);
  ctx_of = ctx;
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_tune_gpu, &mod));
  frame_data d;
  data_open(ctx, &d, 1000);
  if (strcmp(mode, "first") == 0) {
    gg_tuned t = tune(mod, &d, GG_TUNE_FROM_MEASURING, "record written");
    save_choice(&t);
    run_choice(mod, &t, &d);
    gg_tuned again = tune(mod, &d, GG_TUNE_FROM_RECORD, NULL);
    CHECK(again.kernel == t.kernel && again.blocks == t.blocks);
    EXPECT(again.tune_ms < 100, "reading the record took %.1f ms", again.tune_ms);
    frame_data big;
    data_open(ctx, &big, 1 << 20);
    gg_tuned tb = tune(mod, &big, GG_TUNE_FROM_MEASURING, "record written");
    EXPECT(tb.tune_ms < 2000, "n = 1M: tuning took %.0f ms (goal: 2 s)", tb.tune_ms);
    run_choice(mod, &tb, &big);
    /* n = 1M with the alternative step_b: its row on "groups" (one block
     * of two thread groups over 1M floats) is far behind the whole GPU's,
     * so its screening burst is cut short, and said so */
    const char *alt_b[] = {"step_b", NULL};
    gg_tune_options ocut = {.alternatives = alt_b};
    gg_tuned tc;
    CHECK_OK(gg_session_tune(mod, "step", big.args, 5, &ocut, &tc));
    gg_tuned_print(&tc, stdout);
    EXPECT(strstr(tc.note, "cut short after 8 timed frames") != NULL,
           "n = 1M with step_b: the note \"%s\" names no candidate cut short", tc.note);
    check_choice(&tc);
    data_free(&big);
    /* an alternative command: step_b, in "whole" and in "groups" (thread groups) */
    const char *alt[] = {"step_b", NULL};
    gg_tune_options oa = {.alternatives = alt};
    gg_tuned ta;
    CHECK_OK(gg_session_tune(mod, "step", d.args, 5, &oa, &ta));
    gg_tuned_print(&ta, stdout);
    int nb = 0, ng = 0;
    for (int i = 0; i < ta.nrows; i++) {
      nb += strcmp(ta.row[i].command, "step_b") == 0;
      ng += strcmp(ta.row[i].kernel, "groups") == 0;
    }
    EXPECT(nb >= 3 && ng == 1, "alternatives: %d rows of step_b, %d of \"groups\"", nb, ng);
    check_choice(&ta);
    run_choice(mod, &ta, &d);
    /* a budget of 1 ms: the first candidate alone is measured (n = 999: its own key) */
    frame_data odd;
    data_open(ctx, &odd, 999);
    gg_tune_options ob = {.budget_ms = 1, .frames = 3000};
    gg_tuned tq;
    CHECK_OK(gg_session_tune(mod, "step", odd.args, 5, &ob, &tq));
    gg_tuned_print(&tq, stdout);
    CHECK(tq.row[0].state == GG_TUNE_MEASURED && tq.kernel == tq.row[0].kernel);
    for (int i = 1; i < tq.nrows; i++)
      EXPECT(tq.row[i].state == GG_TUNE_NOT_REACHED, "budget 1 ms: row %d state %d", i,
             (int)tq.row[i].state);
    run_choice(mod, &tq, &odd);
    data_free(&odd);
    setenv("GG_TUNE", "off", 1);
    gg_tuned off = tune(mod, &d, GG_TUNE_FROM_DEFAULT, "GG_TUNE=off");
    CHECK(strcmp(off.kernel, "one") == 0 && off.blocks == 0);
    run_choice(mod, &off, &d);
    unsetenv("GG_TUNE");
    gg_tune_options oo = {.off = 1};
    gg_tuned offo;
    CHECK_OK(gg_session_tune(mod, "step", d.args, 5, &oo, &offo));
    EXPECT(offo.source == GG_TUNE_FROM_DEFAULT && strcmp(offo.kernel, "one") == 0 &&
               offo.blocks == 0 && offo.tune_ms < 100,
           "option off: source %d, \"%s\" %d blocks, %.1f ms (%s)", (int)offo.source,
           offo.kernel, offo.blocks, offo.tune_ms, offo.note);
    run_choice(mod, &offo, &d);
    setenv("GG_TUNE", "maybe", 1);
    gg_tuned bad;
    CHECK(gg_session_tune(mod, "step", d.args, 5, NULL, &bad) == GG_ERR_INVALID);
    printf("GG_TUNE=maybe: %s\n", gg_error_detail());
    unsetenv("GG_TUNE");
    CHECK(gg_session_tune(mod, "nosuch", d.args, 5, NULL, &bad) == GG_ERR_NOT_FOUND);
    printf("nosuch: %s\n", gg_error_detail());
    CHECK(gg_session_tune(mod, "step", d.args, 4, NULL, &bad) == GG_ERR_INVALID);
    printf("4 arguments: %s\n", gg_error_detail());
    const char *none[] = {"nosuch", NULL};
    gg_tune_options o = {.kernels = none};
    CHECK(gg_session_tune(mod, "step", d.args, 5, &o, &bad) == GG_ERR_NOT_FOUND);
    printf("kernel nosuch: %s\n", gg_error_detail());
  } else if (strcmp(mode, "second") == 0) {
    gg_tuned t = tune(mod, &d, GG_TUNE_FROM_RECORD, "nothing measured");
    same_choice(&t);
    EXPECT(t.tune_ms < 100, "reading the record took %.1f ms", t.tune_ms);
    run_choice(mod, &t, &d);
  } else if (strcmp(mode, "race") == 0) {
    meet();
    gg_tuned t;
    CHECK_OK(gg_session_tune(mod, "step", d.args, 5, NULL, &t));
    printf("racer %d: source %d, %.0f ms (%s)\n", (int)getpid(), (int)t.source, t.tune_ms,
           t.note);
    check_choice(&t);
    save_race(&t);
    run_choice(mod, &t, &d);
  } else if (strcmp(mode, "corrupt") == 0 || strcmp(mode, "foreign") == 0) {
    gg_tuned t = tune(mod, &d, GG_TUNE_FROM_MEASURING,
                      strcmp(mode, "corrupt") == 0 ? "ignored (cache entry: checksum mismatch"
                                                   : "ignored (cache entry: entry of another key)");
    EXPECT(strstr(t.note, "record written") != NULL, "note: %s", t.note);
    run_choice(mod, &t, &d);
  } else if (strcmp(mode, "third") == 0) {
    gg_tuned t = tune(mod, &d, GG_TUNE_FROM_MEASURING, "is not the measured row of lowest p50");
    EXPECT(strstr(t.note, "record written") != NULL, "note: %s", t.note);
    tune(mod, &d, GG_TUNE_FROM_RECORD, NULL);
    run_choice(mod, &t, &d);
  } else {
    EXPECT(0, "no step \"%s\"", mode);
  }
  data_free(&d);
  gg_module_free(mod);
  gg_context_free(ctx);
  printf("%s: %s\n", mode, failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}

/* The names (in names[], at most max) of the folder's valid tuning
 * records; returns how many.  It reads through the cache, which removes
 * any entry it refuses (the corrupted ones of other keys, later). */
static int records(char names[][40], int max)
{
  ggr_cache *c;
  if (ggr_cache_open(&c, dir, 0, 0)) return 0;
  DIR *dp = opendir(dir);
  struct dirent *de;
  int n = 0;
  while (dp && (de = readdir(dp)) && n < max) {
    unsigned long long hi, lo;
    if (strlen(de->d_name) != 36 || sscanf(de->d_name, "%16llx%16llx.ggc", &hi, &lo) != 2)
      continue;
    void *data;
    size_t size;
    if (ggr_cache_get(c, (ggr_key){lo, hi}, &data, &size)) continue;
    if (size >= 20 && memcmp(data, "gpugen tune record 1", 20) == 0)
      memcpy(names[n++], de->d_name, 37); /* 36 characters and the NUL */
    free(data);
  }
  if (dp) closedir(dp);
  ggr_cache_close(c);
  return n;
}

/* Every tuning record of the folder rewritten, through the cache's own
 * writer (a valid entry), with its choice moved to a slower measured row.
 * Returns how many were planted. */
static int plant(void)
{
  char names[16][40];
  const int n = records(names, 16);
  ggr_cache *c;
  if (ggr_cache_open(&c, dir, 0, 1)) return 0;
  int planted = 0;
  for (int r = 0; r < n; r++) {
    unsigned long long hi, lo;
    if (sscanf(names[r], "%16llx%16llx", &hi, &lo) != 2) continue;
    ggr_key key = {lo, hi};
    void *data;
    size_t size;
    if (ggr_cache_get(c, key, &data, &size)) continue;
    char text[16384];
    if (size >= sizeof text) {
      free(data);
      continue;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    free(data);
    /* the measured rows; the choice moves to one that is not it */
    int choice = -1, other = -1;
    char *ch = strstr(text, "choice ");
    if (!ch || sscanf(ch, "choice %d", &choice) != 1) continue;
    for (char *p = strstr(text, "\nrow "); p; p = strstr(p + 1, "\nrow ")) {
      int i, b, st;
      if (sscanf(p, "\nrow %d %d %d", &i, &b, &st) == 3 && st == 0 && i != choice) other = i;
    }
    if (other < 0) continue;
    snprintf(ch, sizeof text - (size_t)(ch - text), "choice %d\n", other);
    CHECK(ggr_cache_put(c, key, text, strlen(text)) == GG_OK);
    printf("planted: %s now chooses row %d (was %d)\n", names[r], other, choice);
    planted++;
  }
  ggr_cache_close(c);
  return planted;
}

/* A whole file's bytes (malloc'ed; *size) or NULL. */
static unsigned char *slurp(const char *name, size_t *size)
{
  char path[400];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  struct stat sb;
  FILE *f = fopen(path, "rb");
  unsigned char *b = f && fstat(fileno(f), &sb) == 0 && sb.st_size > 0
                         ? malloc((size_t)sb.st_size) : NULL;
  *size = b ? fread(b, 1, (size_t)sb.st_size, f) : 0;
  if (f) fclose(f);
  return b;
}

static void spill(const char *name, const unsigned char *b, size_t size)
{
  char path[400];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb"); /* the file stays the user's, mode 0600 */
  CHECK(f != NULL && fwrite(b, 1, size, f) == size);
  if (f) fclose(f);
}

/* Every record's last payload byte flipped, on disk, past the cache's writer. */
static int corrupt(void)
{
  char names[16][40];
  int n = records(names, 16);
  for (int i = 0; i < n; i++) {
    size_t size;
    unsigned char *b = slurp(names[i], &size);
    CHECK(b != NULL && size > 0);
    if (!b || !size) continue;
    b[size - 1] ^= 0x5a;
    spill(names[i], b, size);
    free(b);
  }
  return n;
}

/* Kept before corrupt(): every record's file, to plant one as a foreigner. */
static struct { char name[40]; unsigned char *b; size_t size; } kept[16];
static int nkept;

static void keep_all(void)
{
  char names[16][40];
  nkept = records(names, 16);
  for (int i = 0; i < nkept; i++) {
    snprintf(kept[i].name, sizeof kept[i].name, "%s", names[i]);
    kept[i].b = slurp(names[i], &kept[i].size);
  }
}

/* The one valid record now (the corrupt child's, n = 1000) replaced, byte
 * for byte, by the kept file of another key.  Returns 1 when done. */
static int plant_foreign(void)
{
  char names[16][40];
  int n = records(names, 16);
  EXPECT(n == 1, "%d valid records after the corrupt step (want the n = 1000 one)", n);
  for (int i = 0; n == 1 && i < nkept; i++)
    if (kept[i].b && strcmp(kept[i].name, names[0]) != 0) {
      spill(names[0], kept[i].b, kept[i].size);
      return 1;
    }
  return 0;
}

static pid_t start_child(const char *self, const char *mode)
{
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    execl(self, self, "child", mode, (char *)NULL);
    _exit(127);
  }
  return pid;
}

static int end_child(pid_t pid)
{
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int run_child(const char *self, const char *mode)
{
  return end_child(start_child(self, mode));
}

/* Two racers in a folder of their own: exactly one measured; both chose
 * the same. */
static void race(const char *self)
{
  char top[sizeof dir - 8];
  snprintf(top, sizeof top, "%.*s", (int)sizeof top - 1, dir);
  snprintf(dir, sizeof dir, "%s/race", top);
  mkdir(dir, 0700);
  setenv("GG_CACHE_DIR", dir, 1);
  pid_t a = start_child(self, "race"), b = start_child(self, "race");
  CHECK(end_child(a) == 0);
  CHECK(end_child(b) == 0);
  int measured = 0, n = 0;
  char first[200] = "";
  DIR *dp = opendir(dir);
  struct dirent *de;
  while (dp && (de = readdir(dp))) {
    if (strncmp(de->d_name, "race-", 5)) continue;
    char path[600], k[64], c[64], line[200];
    int src = -1, blocks = -1;
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    FILE *f = fopen(path, "r");
    if (f && fscanf(f, "%d %63s %63s %d", &src, k, c, &blocks) == 4) {
      n++;
      measured += src == GG_TUNE_FROM_MEASURING;
      snprintf(line, sizeof line, "%s %s %d", k, c, blocks);
      EXPECT(!first[0] || strcmp(first, line) == 0, "racers chose %s and %s", first, line);
      if (!first[0]) snprintf(first, sizeof first, "%s", line);
    }
    if (f) fclose(f);
  }
  if (dp) closedir(dp);
  EXPECT(n == 2 && measured == 1, "%d racer(s) reported, %d measured (want 2 and 1)", n,
         measured);
  snprintf(dir, sizeof dir, "%s", top);
  setenv("GG_CACHE_DIR", dir, 1);
}

int main(int argc, char **argv)
{
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 3 && strcmp(argv[1], "child") == 0) {
    snprintf(dir, sizeof dir, "%s", getenv("GG_CACHE_DIR") ? getenv("GG_CACHE_DIR") : "");
    return child(argv[2]);
  }
  snprintf(dir, sizeof dir, "/tmp/gg-tune-test-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  setenv("GG_CACHE_DIR", dir, 1);
  unsetenv("GG_TUNE");
  int rc = run_child("/proc/self/exe", "first");
  if (rc == 77) return 77;
  CHECK(rc == 0);
  CHECK(run_child("/proc/self/exe", "second") == 0);
  int n = plant();
  EXPECT(n >= 2, "%d tuning records planted (n = 1000 and 1M at least)", n);
  CHECK(run_child("/proc/self/exe", "third") == 0);
  keep_all();
  n = corrupt();
  EXPECT(n >= 2, "%d tuning records corrupted", n);
  CHECK(run_child("/proc/self/exe", "corrupt") == 0);
  CHECK(plant_foreign());
  CHECK(run_child("/proc/self/exe", "foreign") == 0);
  for (int i = 0; i < nkept; i++) free(kept[i].b);
  race("/proc/self/exe");
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) printf("could not remove %s\n", dir);
  printf("%s\n", failures ? "FAILED" : "ok");
  return failures != 0;
}
