/*
 * tune.c - gg_session_tune (gg_session.h): the candidates (persistent
 * kernel, command, block count) of one frame measured on this device with
 * the caller's arguments, the fastest chosen, the choice kept as a record
 * in the kernel cache (tune.h) under a key of everything that can change
 * it.  The sessions it opens are ordinary ones (session.c): what tuning
 * measures is what the application will run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "describe.h"
#include "internal.h"
#include "tune.h"
#include "gg_session.h"

#define WARM_FRAMES 10        /* untimed frames before a burst's timed ones, plus a tenth of them */
#define ROUNDS 3              /* bursts a candidate, in turn with the others (measure_all) */
#define DEFAULT_FRAMES 600u   /* timed frames a candidate, over its bursts */
#define SCREEN_SHARE 6        /* the first (screening) burst: frames / 6, the two others split the rest */
#define SLOW_RATIO 1.15       /* a screening burst this many times the best one's p50 ends a candidate */
#define CUT_FRAMES 8          /* frames of a screening burst before it may be cut short ... */
#define CUT_RATIO 2.0         /* ... when even its fastest frame is this many times the best p50 */
#define DEFAULT_BUDGET_MS 2000u
#define DEFAULT_FRAME_TIMEOUT_MS 2000u
#define MAX_FRAME_TIMEOUT_MS 600000u
#define MAX_FRAMES 20000u     /* x GG_TUNE_ROWS candidates x 8 bytes: 20 MB of samples at most */

static int listed(const char *const *names, const char *name)
{
  if (!names)
    return 1;
  for (; *names; names++)
    if (strcmp(*names, name) == 0)
      return 1;
  return 0;
}

/* Kernel k is the command or one of the alternatives. */
static int named(const gg_kernel_desc *k, const char *command, const char *const *alternatives)
{
  return strcmp(k->name, command) == 0 || (alternatives && listed(alternatives, k->name));
}

/* Kernel k is a candidate: named, or a tile variant (gemm tile = "auto",
 * gg_module.h: variant_of) of a named kernel. */
static int wanted(const gg_module_desc *md, int k, const char *command,
                  const char *const *alternatives)
{
  const gg_kernel_desc *kd = &md->kernels[k];
  if (named(kd, command, alternatives))
    return 1;
  int base = kd->variant_of - 1;
  return base >= 0 && base < md->nkernels && base != k &&
         named(&md->kernels[base], command, alternatives);
}

static void add_row(gg_tuned *t, const char *kernel, const char *command, int blocks)
{
  for (int i = 0; i < t->nrows; i++) /* one count may come from two rules (SMs = resident) */
    if (t->row[i].kernel == kernel && t->row[i].command == command && t->row[i].blocks == blocks)
      return;
  if (t->nrows == GG_TUNE_ROWS) {
    t->left_out++;
    return;
  }
  gg_tune_row *r = &t->row[t->nrows++];
  r->kernel = kernel;
  r->command = command;
  r->blocks = blocks;
  r->state = GG_TUNE_NOT_REACHED;
}

/* Block counts of a many-block kernel: every co-resident block, two per
 * SM, one per SM and its halves down to 1/8, the declared count, and the
 * powers of two from 8 (a frame's work often comes in such counts: one
 * block per FFT of a batch of 64), largest first; none above the resident
 * count, which cannot run. */
static gg_status add_kernel(gg_module *mod, const gg_persistent_desc *pd, const char *command,
                            gg_tuned *t)
{
  if (pd->layout == GG_PLAYOUT_ONE_BLOCK || pd->layout == GG_PLAYOUT_THREAD_GROUPS) {
    add_row(t, pd->name, command, 1);
    return GG_OK;
  }
  int resident = 0, sms = mod->ctx->sm_count;
  gg_status st = gg_session_max_blocks(mod, pd->name, &resident);
  if (st)
    return st;
  enum { NCOUNTS = 7 + 31 };
  int counts[NCOUNTS] = {resident, 2 * sms, sms, sms / 2, sms / 4, sms / 8, pd->blocks}, n = 7;
  for (int p = 8; p < resident && p <= (1 << 30) / 2; p *= 2)
    counts[n++] = p;
  for (int pass = 0; pass < n; pass++) { /* largest first */
    int best = -1;
    for (int i = 0; i < n; i++)
      if (counts[i] >= 1 && counts[i] <= resident && (best < 0 || counts[i] > counts[best]))
        best = i;
    if (best < 0)
      break;
    add_row(t, pd->name, command, counts[best]);
    for (int i = 0; i < n; i++) /* drop it and its duplicates */
      if (i != best && counts[i] == counts[best])
        counts[i] = 0;
    counts[best] = 0;
  }
  return GG_OK;
}

static gg_status candidates(gg_module *mod, const char *command, const gg_tune_options *o,
                            gg_tuned *t)
{
  const gg_module_desc *md = mod->desc;
  for (const char *const *k = o->kernels; k && *k; k++) {
    int found = 0;
    for (int i = 0; i < md->npersistent; i++)
      found |= strcmp(md->persistent[i].name, *k) == 0;
    if (!found) {
      char msg[1024];
      ggr_missing_persistent(md, *k, msg, sizeof msg);
      return ggr_set_error(GG_ERR_NOT_FOUND, "tuning: %s", msg);
    }
  }
  for (int i = 0; i < md->npersistent; i++) {
    const gg_persistent_desc *pd = &md->persistent[i];
    if (!listed(o->kernels, pd->name) || pd->gpus > 1)
      continue;
    for (int c = 0; c < pd->ncommands; c++) { /* in the kernel's order: variants follow theirs */
      int k = pd->commands[c];
      gg_status st = k >= 0 && k < md->nkernels && wanted(md, k, command, o->alternatives)
                         ? add_kernel(mod, pd, md->kernels[k].name, t) : GG_OK;
      if (st)
        return st;
    }
  }
  if (t->nrows == 0)
    return ggr_set_error(GG_ERR_NOT_FOUND, "tuning: no persistent kernel of module \"%s\"%s has "
                         "command \"%s\"%s (kernels whose frames run on several GPUs are not "
                         "tuned)", md->name, o->kernels ? " among those named" : "", command,
                         o->alternatives ? " or one of its alternatives" : "");
  return GG_OK;
}

/* Everything the choice depends on: the module's binary (its source,
 * compiler and driver: the module's own cache key), the device, the
 * candidates in order, and the arguments' shape. */
static ggr_key record_key(gg_module *mod, const gg_tuned *t, const gg_arg *args, int nargs,
                          int *whole)
{
  char desc[16384];
  size_t len = 0;
  const gg_context *ctx = mod->ctx;
  *whole = 1; /* 0: a line did not fit, so the key would not tell two shapes apart */
#define ADD(...)                                                                         \
  do {                                                                                   \
    int w_ = snprintf(desc + len, sizeof desc - len, __VA_ARGS__);                       \
    if (w_ > 0 && (size_t)w_ < sizeof desc - len)                                        \
      len += (size_t)w_;                                                                 \
    else                                                                                 \
      *whole = 0;                                                                        \
  } while (0)
  ADD("gpugen tune key 1\nmodule %016llx%016llx\ndevice %s, %d SMs, %s\n",
      (unsigned long long)mod->key_hi, (unsigned long long)mod->key_lo, ctx->device_name,
      ctx->sm_count, ctx->arch);
  for (int i = 0; i < t->nrows; i++)
    ADD("candidate %s %s %d\n", t->row[i].kernel, t->row[i].command, t->row[i].blocks);
  for (int i = 0; i < nargs; i++) {
    const gg_arg *a = &args[i];
    if (a->type == GG_ARG_ARRAY)
      ADD("arg %d array space %d bytes %zu\n", i, a->v.array ? (int)a->v.array->space : -1,
          a->v.array ? a->v.array->bytes : 0);
    else if (a->type == GG_ARG_I32 || a->type == GG_ARG_U32 || a->type == GG_ARG_I64 ||
             a->type == GG_ARG_U64)
      ADD("arg %d int %d %llu\n", i, (int)a->type, (unsigned long long)(a->type == GG_ARG_I32
          ? (uint64_t)(int64_t)a->v.i32 : a->type == GG_ARG_U32 ? a->v.u32 : a->v.u64));
    else
      ADD("arg %d type %d\n", i, (int)a->type); /* a floating-point scalar: its value is no shape */
  }
#undef ADD
  ggr_key_parts p = {.source = desc, .arch = ctx->arch, .compiler = "gg_session_tune",
                     .driver_version = ctx->driver_version,
                     .gpugen_version = mod->desc->gpugen_version, .abi = GG_MODULE_ABI};
  return ggr_cache_key(&p);
}

/* What the caller may do after a candidate's session ended in status st,
 * its terminate in end. */
static const char *after_words(gg_status st, gg_status end)
{
  if (st == GG_ERR_KERNEL_FAULT)
    return "; the context is lost: free it and open a new one";
  if (end == GG_ERR_TIMEOUT)
    return "; its kernel did not exit: the device stays held until it does (free the context; "
           "docs/tuning.md)";
  return "; its session was terminated: the context is usable";
}

/* A failed frame ends the candidate's session; the detail says what
 * became of the kernel and of the context. */
static gg_status frame_failed(gg_session *s, const gg_tune_row *r, gg_status st)
{
  char why[2048];
  snprintf(why, sizeof why, "%s", gg_error_detail());
  gg_status end = gg_session_terminate(s); /* what became of the kernel decides the advice */
  gg_session_free(s);
  if (st == GG_ERR_KERNEL_FAULT || end == GG_ERR_KERNEL_FAULT)
    st = GG_ERR_KERNEL_FAULT;
  else if (end == GG_ERR_TIMEOUT)
    st = GG_ERR_TIMEOUT;
  /* the session's own detail may already say the context is lost */
  const char *after = st == GG_ERR_KERNEL_FAULT && strstr(why, "context is lost") ? ""
                                                                                 : after_words(st, end);
  return ggr_set_error(st, "tuning stopped at candidate \"%s\" command \"%s\" on %d block(s): "
                       "%s%s", r->kernel, r->command, r->blocks, why, after);
}


/* One burst of row r: a session, `warm` untimed frames, then n timed
 * ones on the host's clock appended at ns.  cut_ns > 0 (a screening burst
 * after the first whole one): once CUT_FRAMES timed frames have run, a
 * burst whose fastest of them is over cut_ns stops there and sets *cut -
 * a candidate that far behind has lost whatever its other frames do, and
 * its frames are the longest of all (one block over 1M floats: 120
 * frames of ~640 us, where the warm ones and 8 more tell it). */
static gg_status burst(gg_module *mod, gg_tune_row *r, const gg_arg *args, int nargs,
                       const gg_tune_options *o, uint32_t n, double *ns, uint32_t *got,
                       uint64_t deadline, double cut_ns, int *cut)
{
  gg_session_options so = {0};
  so.buffering = 1;
  so.blocks = r->blocks;
  /* an open waits for SMs at most the budget's time left (at least 100 ms) */
  const uint64_t now0 = gg_rt_now_ns();
  const uint64_t left_ms = deadline > now0 ? (deadline - now0) / 1000000u : 0;
  so.open_timeout_ms = left_ms < 100 ? 100 : left_ms > 10000 ? 10000 : (uint32_t)left_ms;
  *got = 0;
  gg_session *s;
  gg_status st = gg_session_open(mod, r->kernel, &so, &s);
  if (st == GG_ERR_NOT_CORESIDENT) {
    r->state = GG_TUNE_NO_FIT;
    return GG_OK;
  }
  if (st)
    return ggr_set_error(st, "tuning: candidate \"%s\" on %d block(s) did not open: %s",
                         r->kernel, r->blocks, gg_error_detail());
  int cmd = 0;
  st = gg_session_command(s, r->command, &cmd);
  const uint32_t warm = WARM_FRAMES + n / 10;
  const int64_t limit = (int64_t)o->frame_timeout_ms * 1000000;
  double fastest = 0;
  *cut = 0;
  for (uint32_t i = 0; !st && i < warm + n; i++) {
    uint64_t t0 = gg_rt_now_ns();
    if (i > warm && t0 > deadline)
      break; /* the budget is spent: the frames timed so far stand */
    if (cut_ns > 0 && i >= warm + CUT_FRAMES && fastest > cut_ns) {
      *cut = 1;
      break;
    }
    st = gg_session_start(s, cmd, args, nargs, NULL);
    if (!st)
      st = gg_session_wait(s, limit);
    const double took = (double)(gg_rt_now_ns() - t0);
    if (!st && i >= warm) {
      ns[(*got)++] = took;
      if (fastest == 0 || took < fastest)
        fastest = took;
    }
  }
  if (st)
    return frame_failed(s, r, st);
  st = gg_session_terminate(s);
  gg_session_free(s);
  if (st)
    return ggr_set_error(st, "tuning: candidate \"%s\" did not end cleanly: %s%s", r->kernel,
                         gg_error_detail(), after_words(st, st));
  return GG_OK;
}

/* Row r's figures from its pooled samples. */
static void figures(gg_tune_row *r, double *ns, uint32_t n)
{
  gg_stats s; /* libgg's one rule for a p50 (session_stats.c) */
  gg_stats_compute(ns, n, &s);
  r->p50_ns = s.p50_ns;
  r->mean_ns = s.mean_ns;
  r->state = GG_TUNE_MEASURED;
}

/* The p50 of n samples, left unsorted (0 when out of memory: no cut) */
static double p50_of(const double *samples, uint32_t n)
{
  double *tmp = malloc(n * sizeof *tmp);
  if (!tmp)
    return 0;
  memcpy(tmp, samples, n * sizeof *tmp);
  gg_stats s; /* libgg's one rule for a p50 (session_stats.c) */
  gg_stats_compute(tmp, n, &s);
  free(tmp);
  return s.p50_ns;
}

/* After the first (screening) round: a candidate whose p50 there
 * (screen_p50, 0 for one without a whole screening burst) is over
 * SLOW_RATIO times the best one's has lost (one block over 1M floats: 638
 * us a frame against 8) and runs no more; its figures are that burst's. */
static void drop_slow(const gg_tuned *t, const double *screen_p50, double best,
                      unsigned char *live)
{
  for (int i = 0; i < t->nrows; i++)
    if (screen_p50[i] > SLOW_RATIO * best)
      live[i] = 0;
}

static void append_note(gg_tuned *t, const char *what)
{
  size_t used = strlen(t->note);
  snprintf(t->note + used, sizeof t->note - used, "%s%s", used ? "; " : "", what);
}

/* ROUNDS rounds, the candidates in turn, the order rotated by one each
 * round; a candidate's samples pooled.  The first round screens: a short
 * burst (frames / SCREEN_SHARE) each, after which the clear losers stop
 * (drop_slow); the survivors' two bursts share the rest of the frames.
 * Measured on an H200 (frame_bench, 32K floats): one burst of 200 frames
 * a candidate chose rows 4-7 % slower than the best in 2 of 24 chains;
 * sessions opened in turn differ by ~0.2 us with the order alone
 * (bench/soak_bench's cost passes), and the machine drifts - so the
 * choice rests on the pooled bursts, not on one.  A screening burst of
 * 100 frames tells 1.15x apart: a candidate that far behind (a block
 * count far from the best, the wrong tile) then costs one session instead
 * of three (0.06-0.1 ms an open and terminate once the context keeps a
 * mailbox, mapped_keep.c; 0.8-1.4 ms without).  Once one candidate has
 * a whole screening burst, a later one whose fastest of its first
 * CUT_FRAMES timed frames is over CUT_RATIO times the best whole
 * screening burst's p50 stops there (burst); its figures are those
 * frames', and the note counts such candidates.  The budget is looked
 * at before each burst: a candidate with no burst yet when it is spent
 * stays GG_TUNE_NOT_REACHED. */
static gg_status measure_all(gg_module *mod, gg_tuned *t, const gg_arg *args, int nargs,
                             const gg_tune_options *o, uint64_t t0)
{
  const uint32_t screen = o->frames / SCREEN_SHARE > 0 ? o->frames / SCREEN_SHARE : 1;
  const uint32_t rest = o->frames > screen ? o->frames - screen : ROUNDS - 1;
  const uint32_t per = (rest + ROUNDS - 2) / (ROUNDS - 1), n = screen + per * (ROUNDS - 1);
  double *ns = malloc((size_t)t->nrows * n * sizeof *ns);
  uint32_t *have = calloc((size_t)t->nrows, sizeof *have); /* samples so far */
  unsigned char *live = calloc((size_t)t->nrows, 1);       /* runs in the next round */
  double *screen_p50 = calloc((size_t)t->nrows, sizeof *screen_p50); /* of whole screenings */
  if (!ns || !have || !live || !screen_p50) {
    free(ns);
    free(have);
    free(live);
    free(screen_p50);
    return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "tuning: %d x %u frame times", t->nrows, n);
  }
  gg_status st = GG_OK;
  int spent = 0;
  double best_screen = 0; /* the best p50 of a whole screening burst so far */
  int ncut = 0;           /* candidates whose screening burst was cut short */
  for (int round = 0; !st && !spent && round < ROUNDS; round++) {
    if (round == 1)
      drop_slow(t, screen_p50, best_screen, live);
    for (int k = 0; !st && k < t->nrows; k++) {
      int i = (k + round) % t->nrows;
      gg_tune_row *r = &t->row[i];
      if (round > 0 && !live[i])
        continue;
      if ((round > 0 || k > 0) && gg_rt_now_ns() - t0 > (uint64_t)o->budget_ms * 1000000u) {
        spent = 1;
        break;
      }
      uint32_t got = 0;
      int cut = 0;
      st = burst(mod, r, args, nargs, o, round ? per : screen, ns + (size_t)i * n + have[i], &got,
                 t0 + (uint64_t)o->budget_ms * 1000000u, round ? 0 : CUT_RATIO * best_screen,
                 &cut);
      live[i] = !st && r->state != GG_TUNE_NO_FIT && got > 0 && !cut;
      have[i] += got;
      ncut += cut;
      if (!st && round == 0 && got == screen) {
        screen_p50[i] = p50_of(ns + (size_t)i * n, screen);
        if (screen_p50[i] > 0 && (best_screen == 0 || screen_p50[i] < best_screen))
          best_screen = screen_p50[i];
      }
    }
  }
  for (int i = 0; !st && i < t->nrows; i++)
    if (have[i])
      figures(&t->row[i], ns + (size_t)i * n, have[i]);
  if (!st && ncut > 0) {
    char what[120];
    snprintf(what, sizeof what, "%d cut short after %d timed frames (over %.0fx the best)", ncut,
             CUT_FRAMES, CUT_RATIO);
    append_note(t, what);
  }
  free(ns);
  free(have);
  free(live);
  free(screen_p50);
  return st;
}

/* The record of this key, when there is one to believe. */
static int read_record(gg_context *ctx, ggr_key key, gg_tuned *t, int *choice)
{
  void *data = NULL;
  size_t size = 0;
  const char *bad = NULL;
  if (ggr_cache_read(ctx->cache, key, &data, &size, &bad) != GG_OK) {
    if (bad) /* the cache's own checks refused the file, and removed it */
      snprintf(t->note, sizeof t->note, "the record was ignored (cache entry: %s)", bad);
    else if (!t->note[0]) /* a second read (under the lock) keeps what the first found */
      snprintf(t->note, sizeof t->note, "no record yet");
    return 0;
  }
  char why[200];
  int ok = ggr_tune_record_parse(data, size, t->row, t->nrows, choice, why, sizeof why) == 0;
  free(data);
  if (!ok) {
    snprintf(t->note, sizeof t->note, "the record was ignored (%s)", why);
    for (int i = 0; i < t->nrows; i++) { /* parsing may have filled some */
      t->row[i].state = GG_TUNE_NOT_REACHED;
      t->row[i].p50_ns = t->row[i].mean_ns = 0;
    }
  }
  return ok;
}

static void write_record(gg_context *ctx, ggr_key key, gg_tuned *t, int choice)
{
  char text[GGR_TUNE_RECORD_MAX];
  size_t n = ggr_tune_record_format(t->row, t->nrows, choice, text, sizeof text);
  if (!ggr_cache_enabled(ctx->cache))
    append_note(t, "the cache is off: no record");
  else if (!n || ggr_cache_put(ctx->cache, key, text, n))
    append_note(t, "the record could not be written");
  else
    append_note(t, "record written");
}

static gg_status tuning_off(const gg_tune_options *o, int *off)
{
  const char *env = getenv("GG_TUNE");
  *off = o->off != 0;
  if (!env || !*env || strcmp(env, "on") == 0)
    return GG_OK;
  if (strcmp(env, "off") == 0) {
    *off = 1;
    return GG_OK;
  }
  return ggr_set_error(GG_ERR_INVALID, "GG_TUNE=\"%.40s\": expected off or on", env);
}

/* Every candidate measured, the fastest chosen (*choice), and the record
 * written where the key is whole and every candidate was reached.  The
 * note already says what became of the record read before. */
static gg_status measure_and_record(gg_module *mod, const char *command, const gg_arg *args,
                                    int nargs, const gg_tune_options *o, uint64_t t0,
                                    ggr_key key, int whole, gg_tuned *out, int *choice)
{
  gg_status st = measure_all(mod, out, args, nargs, o, t0);
  if (st)
    return st;
  *choice = ggr_tune_pick(out->row, out->nrows);
  if (*choice < 0)
    return ggr_set_error(GG_ERR_NOT_CORESIDENT, "tuning \"%s\": no candidate's blocks fit on "
                         "the device at once", command);
  int reached = 1;
  for (int i = 0; i < out->nrows; i++)
    reached &= out->row[i].state != GG_TUNE_NOT_REACHED;
  if (whole && reached)
    write_record(mod->ctx, key, out, *choice);
  else if (!reached) /* a later call, with more budget, measures them all */
    append_note(out, "not recorded: the budget ran out before every candidate was measured");
  return GG_OK;
}

/* The choice (*choice) from the key's record, else measured.  One
 * process measures a key at a time: two measuring at once would slow
 * each other's frames, and each record what it saw.  A second waits for
 * the first's lock (at most half its budget), then reads what the first
 * recorded. */
static gg_status from_record_or_measured(gg_module *mod, const char *command, const gg_arg *args,
                                         int nargs, const gg_tune_options *o, uint64_t t0,
                                         gg_tuned *out, int *choice)
{
  int whole = 1, lock = -1, busy = 0;
  ggr_key key = record_key(mod, out, args, nargs, &whole);
  int have = whole && !o->retune && read_record(mod->ctx, key, out, choice);
  if (have) {
    snprintf(out->note, sizeof out->note, "nothing measured");
  } else if (whole) {
    ggr_cache_lock(mod->ctx->cache, key, ggr_now_ms() + o->budget_ms / 2.0, &lock, &busy);
    have = lock >= 0 && !o->retune && read_record(mod->ctx, key, out, choice);
    if (have)
      snprintf(out->note, sizeof out->note, "recorded by another process while this one "
               "waited for the key's lock");
  }
  gg_status st = GG_OK;
  if (have) {
    out->source = GG_TUNE_FROM_RECORD;
  } else {
    if (!whole) /* two shapes could share the key: neither read nor write a record */
      snprintf(out->note, sizeof out->note, "no record: the key's description did not fit");
    else if (o->retune)
      snprintf(out->note, sizeof out->note, "measured again (retune)");
    if (busy)
      append_note(out, "another process held the key's lock for half the budget: measured "
                  "beside it");
    st = measure_and_record(mod, command, args, nargs, o, t0, key, whole, out, choice);
  }
  ggr_cache_unlock(lock);
  return st;
}

gg_status gg_session_tune(gg_module *mod, const char *command, const gg_arg *args, int nargs,
                          const gg_tune_options *opt, gg_tuned *out)
{
  if (!mod || !command || !out || (nargs > 0 && !args))
    return GGR_NULL_ARG();
  if (nargs < 0)
    return ggr_set_error(GG_ERR_INVALID, "tuning: %d arguments", nargs);
  memset(out, 0, sizeof *out);
  uint64_t t0 = gg_rt_now_ns();
  gg_tune_options o = {0};
  if (opt)
    o = *opt;
  if (o.frames == 0)
    o.frames = DEFAULT_FRAMES;
  if (o.frames > MAX_FRAMES)
    return ggr_set_error(GG_ERR_INVALID, "tuning: %u frames a candidate; at most %u", o.frames,
                         MAX_FRAMES);
  if (o.budget_ms == 0)
    o.budget_ms = DEFAULT_BUDGET_MS;
  if (o.frame_timeout_ms == 0)
    o.frame_timeout_ms = DEFAULT_FRAME_TIMEOUT_MS;
  if (o.frame_timeout_ms > MAX_FRAME_TIMEOUT_MS)
    return ggr_set_error(GG_ERR_INVALID, "tuning: a frame timeout of %u ms; at most %u (a "
                         "record's figures stay under 1000 s)", o.frame_timeout_ms,
                         MAX_FRAME_TIMEOUT_MS);
  int off = 0, choice = 0;
  gg_status st = tuning_off(&o, &off);
  if (!st)
    st = candidates(mod, command, &o, out);
  if (st)
    return st;
  if (off) { /* the first kernel that has the command itself, not an alternative or variant */
    out->source = GG_TUNE_FROM_DEFAULT;
    while (choice + 1 < out->nrows && strcmp(out->row[choice].command, command) != 0)
      choice++;
    if (strcmp(out->row[choice].command, command) != 0)
      choice = 0;
    snprintf(out->note, sizeof out->note, "tuning off (%s): the first kernel with the command, "
             "as declared", o.off ? "gg_tune_options.off" : "GG_TUNE=off");
  } else {
    st = from_record_or_measured(mod, command, args, nargs, &o, t0, out, &choice);
    if (st)
      return st;
  }
  out->kernel = out->row[choice].kernel;
  out->command = out->row[choice].command;
  out->blocks = off ? 0 : out->row[choice].blocks;
  out->tune_ms = (double)(gg_rt_now_ns() - t0) / 1e6;
  return GG_OK;
}

gg_status gg_tuned_print(const gg_tuned *t, FILE *f)
{
  if (!t || !f || !t->kernel)
    return GGR_NULL_ARG();
  static const char *const source[] = {"measured", "from the record", "tuning off"};
  static const char *const state[] = {"", "does not fit", "not reached"};
  fprintf(f, "tuned: \"%s\" command \"%s\", %d block(s) (%s: %d candidates, %.0f ms; %s)\n",
          t->kernel, t->command, t->blocks, source[t->source], t->nrows, t->tune_ms, t->note);
  if (t->left_out)
    fprintf(f, "  %d more candidates past the first %d were not tried\n", t->left_out,
            GG_TUNE_ROWS);
  fprintf(f, "  %-24s %-20s %7s %10s %10s\n", "kernel", "command", "blocks", "p50 us", "mean us");
  for (int i = 0; i < t->nrows; i++) {
    const gg_tune_row *r = &t->row[i];
    if (r->state == GG_TUNE_MEASURED)
      fprintf(f, "  %-24s %-20s %7d %10.3f %10.3f%s\n", r->kernel, r->command, r->blocks,
              r->p50_ns / 1e3, r->mean_ns / 1e3,
              r->kernel == t->kernel && r->command == t->command && r->blocks == t->blocks
                  ? "  <- chosen" : "");
    else
      fprintf(f, "  %-24s %-20s %7d %21s\n", r->kernel, r->command, r->blocks,
              t->source == GG_TUNE_FROM_DEFAULT ? "-" : state[r->state]);
  }
  return GG_OK;
}
