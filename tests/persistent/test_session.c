/*
 * test_session.c - persistent sessions on a GPU (label gpu; exit 77
 * without one).
 *
 * Every layout x {one command, three commands} x {single, double, ring of
 * 5} runs GG_FRAMES frames (default 2000; 42000 gives a million frames
 * over the suite) with inputs that change every frame, each frame checked
 * against a CPU reference.  Inputs and outputs live in mapped memory, one
 * buffer set per slot, so the test also proves the slot ownership: a set
 * is rewritten only after its previous frame was waited for.
 *
 * Then: start refused when every slot is in flight; too many blocks ->
 * GG_ERR_NOT_CORESIDENT; terminate then reopen; a stale heartbeat; a
 * command that runs past the wait's timeout -> GG_ERR_TIMEOUT, then it
 * completes and the session goes on; a command that traps ->
 * GG_ERR_KERNEL_FAULT, a new context works.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gg.h"
#include "gg_session.h"
#include "layouts.h"

#include "../gg_check.h"
#include "check.h"

#define NMAX 5000 /* elements per frame at most */

static const gg_module_desc *g_desc;

/* Open a context and load the module, or exit 77 when there is no GPU. */
static void open_all(gg_context **ctx, gg_module **mod)
{
  *ctx = gg_check_open(NULL);
  CHECK_OK(gg_module_load(*ctx, g_desc, mod));
}

static void *mapped(gg_context *ctx, size_t bytes, gg_array **a)
{
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, bytes, a));
  return gg_array_host(*a);
}

static void *dptr(gg_array *a) { return gg_array_native(a); }

/* One buffer set (one per slot). */
typedef struct bufset {
  gg_array *xf, *yf, *xi, *yi, *part;
  float *hxf, *hyf;
  int32_t *hxi, *hyi;
  int64_t *hpart;
  int cmd;
  int64_t n;
  float a, b;
  uint64_t frame;
} bufset;

static void bufset_alloc(gg_context *ctx, bufset *s)
{
  s->hxf = mapped(ctx, NMAX * sizeof(float), &s->xf);
  s->hyf = mapped(ctx, NMAX * sizeof(float), &s->yf);
  s->hxi = mapped(ctx, NMAX * sizeof(int32_t), &s->xi);
  s->hyi = mapped(ctx, NMAX * sizeof(int32_t), &s->yi);
  s->hpart = mapped(ctx, 4096 * sizeof(int64_t), &s->part);
}

static void bufset_free(bufset *s)
{
  gg_array_free(s->xf);
  gg_array_free(s->yf);
  gg_array_free(s->xi);
  gg_array_free(s->yi);
  gg_array_free(s->part);
}

/* Virtual grid of a layout: blocks x groups pseudo-blocks of block/groups threads. */
static void vgrid(const hm_persistent *h, int hw_blocks, int *nblocks, int *nthreads)
{
  int groups = h->groups > 0 ? h->groups : 1;
  *nblocks = hw_blocks * groups;
  *nthreads = h->block / groups;
}

/* Fill set s for frame f and start it. */
static void start_frame(gg_session *se, gg_context *ctx, const hm_persistent *h, bufset *s,
                        uint64_t f)
{
  int which = (int)(f % (uint64_t)h->ncommands);
  s->cmd = h->commands[which];
  s->n = 1 + (int64_t)((f * 2654435761u) % NMAX);
  if (f % 7 == 0)
    s->n = (int64_t)1 << (f % 12); /* powers of two too */
  s->a = (float)((int)(f % 5) - 2);
  s->b = (float)((int)(f % 11) - 5);
  s->frame = f;
  for (int64_t i = 0; i < s->n; i++) {
    s->hxf[i] = (float)((int64_t)((f + (uint64_t)i * 31) % 201) - 100);
    s->hxi[i] = (int32_t)((f * 3 + (uint64_t)i * 17) % 1001) - 500;
  }
  uint64_t got = 0;
  if (s->cmd == HM_AXPB) {
    memset(s->hyf, 0xff, (size_t)s->n * sizeof(float));
    if (f % 2) { /* through the packing start */
      gg_arg args[5] = {gg_arg_array(s->xf), gg_arg_array(s->yf), gg_arg_f32(s->a),
                        gg_arg_f32(s->b), gg_arg_i64(s->n)};
      CHECK_OK(gg_session_start(se, which, args, 5, &got));
    } else {
      hm_axpb_args a = {dptr(s->xf), dptr(s->yf), s->a, s->b, s->n};
      CHECK_OK(gg_session_start_packed(se, which, &a, sizeof a, &got));
    }
  } else if (s->cmd == HM_PSUM) {
    memset(s->hpart, 0xff, 4096 * sizeof(int64_t));
    hm_psum_args a = {dptr(s->xi), dptr(s->part), s->n};
    CHECK_OK(gg_session_start_packed(se, which, &a, sizeof a, &got));
  } else {
    memset(s->hyi, 0xff, (size_t)s->n * sizeof(int32_t));
    hm_rev_args a = {dptr(s->xi), dptr(s->yi), s->n};
    CHECK_OK(gg_session_start_packed(se, which, &a, sizeof a, &got));
  }
  CHECK(got == f);
}

static void verify_frame(const hm_persistent *h, const bufset *s, int nblocks, int nthreads)
{
  if (s->cmd == HM_AXPB) {
    for (int64_t i = 0; i < s->n; i++)
      if (s->hyf[i] != s->a * s->hxf[i] + s->b) {
        fprintf(stderr, "%s frame %llu axpb: y[%lld] = %g, want %g\n", h->name,
                (unsigned long long)s->frame, (long long)i, s->hyf[i], s->a * s->hxf[i] + s->b);
        exit(1);
      }
  } else if (s->cmd == HM_PSUM) {
    for (int b = 0; b < nblocks; b++) {
      int64_t want = 0;
      for (int64_t base = (int64_t)b * nthreads; base < s->n; base += (int64_t)nblocks * nthreads)
        for (int t = 0; t < nthreads && base + t < s->n; t++)
          want += s->hxi[base + t];
      if (s->hpart[b] != want) {
        fprintf(stderr, "%s frame %llu psum: part[%d] = %lld, want %lld\n", h->name,
                (unsigned long long)s->frame, b, (long long)s->hpart[b], (long long)want);
        exit(1);
      }
    }
  } else {
    for (int64_t i = 0; i < s->n; i++)
      if (s->hyi[s->n - 1 - i] != 2 * s->hxi[i]) {
        fprintf(stderr, "%s frame %llu rev: wrong at %lld\n", h->name,
                (unsigned long long)s->frame, (long long)i);
        exit(1);
      }
  }
}

static uint64_t frames_run(gg_context *ctx, gg_module *mod, const hm_persistent *h, int nslots,
                           uint64_t frames)
{
  /* Arrays first: compute-sanitizer checks a kernel against the
   * allocations that existed when it was launched. */
  bufset *sets = calloc((size_t)nslots, sizeof *sets);
  CHECK(sets);
  for (int i = 0; i < nslots; i++)
    bufset_alloc(ctx, &sets[i]);
  gg_session_options opt = {.buffering = nslots, .stats_frames = frames};
  gg_session *se;
  CHECK_OK(gg_session_open(mod, h->name, &opt, &se));
  CHECK(gg_session_nslots(se) == nslots);
  int nblocks, nthreads;
  vgrid(h, gg_session_blocks(se), &nblocks, &nthreads);
  const int64_t timeout = 2000000000; /* 2 s: a frame takes microseconds */
  for (uint64_t f = 1; f <= frames; f++) {
    if (gg_session_started(se) - gg_session_completed(se) == (uint64_t)nslots) {
      uint64_t oldest = gg_session_completed(se) + 1;
      CHECK_OK(gg_session_wait(se, timeout));
      verify_frame(h, &sets[gg_session_frame_slot(se, oldest)], nblocks, nthreads);
    }
    start_frame(se, ctx, h, &sets[gg_session_frame_slot(se, f)], f);
  }
  while (gg_session_completed(se) < gg_session_started(se)) {
    uint64_t oldest = gg_session_completed(se) + 1;
    CHECK_OK(gg_session_wait(se, timeout));
    verify_frame(h, &sets[gg_session_frame_slot(se, oldest)], nblocks, nthreads);
  }
  CHECK(gg_session_completed(se) == frames);
  gg_stats st;
  CHECK_OK(gg_session_stats(se, &st));
  CHECK(st.count == frames);
  CHECK_OK(gg_session_terminate(se));
  printf("%-9s %d hw block(s) x %d group(s), %d slot(s): %llu frames correct, "
         "mean %.2f us, p99 %.2f us, max %.2f us\n",
         h->name, gg_session_blocks(se), h->groups > 0 ? h->groups : 1, nslots,
         (unsigned long long)frames, st.mean_ns / 1e3, st.p99_ns / 1e3, st.max_ns / 1e3);
  gg_session_free(se);
  for (int i = 0; i < nslots; i++)
    bufset_free(&sets[i]);
  free(sets);
  return frames;
}

static const hm_persistent *layout(const char *name)
{
  for (int i = 0; i < N_TEST_LAYOUTS; i++)
    if (strcmp(test_layouts[i].name, name) == 0)
      return &test_layouts[i];
  return NULL;
}

/* A few axpb frames on a fresh session: the GPU is usable. */
static void smoke(gg_context *ctx, gg_module *mod)
{
  frames_run(ctx, mod, layout("one_1"), 2, 50);
}

static void state_errors(gg_context *ctx, gg_module *mod)
{
  gg_session *se;
  gg_session_options opt = {.buffering = 2};
  bufset s;
  bufset_alloc(ctx, &s);
  CHECK_OK(gg_session_open(mod, "one_1", &opt, &se));
  hm_axpb_args a = {dptr(s.xf), dptr(s.yf), 1, 0, 8};
  CHECK(gg_session_wait(se, 1000) == GG_ERR_STATE); /* nothing in flight */
  CHECK_OK(gg_session_start_packed(se, 0, &a, sizeof a, NULL));
  CHECK_OK(gg_session_start_packed(se, 0, NULL, 0, NULL)); /* same args */
  CHECK(gg_session_start_packed(se, 0, &a, sizeof a, NULL) == GG_ERR_STATE); /* both slots */
  CHECK(gg_session_start_packed(se, 5, &a, sizeof a, NULL) == GG_ERR_NOT_FOUND);
  CHECK_OK(gg_session_wait(se, -1));
  CHECK_OK(gg_session_wait(se, -1));
  /* a command id out of range, and a wrong argument count: refused,
   * nothing posted (gg_session.h) */
  gg_arg ga[6] = {gg_arg_array(s.xf), gg_arg_array(s.yf), gg_arg_f32(1), gg_arg_f32(0),
                  gg_arg_i64(8), gg_arg_i64(8)};
  CHECK(gg_session_start(se, -1, ga, 5, NULL) == GG_ERR_NOT_FOUND);
  CHECK(gg_session_start(se, gg_session_ncommands(se), ga, 5, NULL) == GG_ERR_NOT_FOUND);
  CHECK(gg_session_start(se, 0, ga, 4, NULL) == GG_ERR_INVALID);
  CHECK(gg_session_start(se, 0, ga, 6, NULL) == GG_ERR_INVALID);
  CHECK(gg_session_started(se) == 2);
  int cmd = -1;
  CHECK_OK(gg_session_command(se, "axpb", &cmd));
  CHECK(cmd == 0);
  CHECK(gg_session_command(se, "nope", &cmd) == GG_ERR_NOT_FOUND);
  CHECK(strstr(gg_error_detail(), "its commands: axpb"));
  /* a device-wide sync would wait for the session's kernel forever: it is
   * refused (the alarm ends the test instead of hanging if it is not) */
  alarm(60);
  CHECK(gg_device_sync(ctx) == GG_ERR_STATE);
  printf("device sync during a session: %s\n", gg_error_detail());
  CHECK(strstr(gg_error_detail(), "gg_session_terminate"));
  CHECK_OK(gg_session_start_packed(se, 0, &a, sizeof a, NULL)); /* the session is unharmed */
  CHECK_OK(gg_session_wait(se, 2000000000));
  CHECK_OK(gg_session_terminate(se));
  CHECK_OK(gg_device_sync(ctx)); /* the kernel has exited: fine again */
  alarm(0);
  CHECK_OK(gg_session_terminate(se)); /* idempotent */
  CHECK(gg_session_start_packed(se, 0, &a, sizeof a, NULL) == GG_ERR_STATE);
  gg_session_free(se);
  /* terminate, then reopen at once on the same context */
  frames_run(ctx, mod, layout("one_1"), 1, 100);

  gg_session_options big = {.blocks = 1000000};
  CHECK(gg_session_open(mod, "many_1", &big, &se) == GG_ERR_NOT_CORESIDENT);
  printf("not co-resident: %s\n", gg_error_detail());
  CHECK(gg_session_open(mod, "no_such", NULL, &se) == GG_ERR_NOT_FOUND);

  /* the relay is for rank 0 of a team, following for its other ranks: a
   * kernel whose frames run on one GPU refuses both */
  gg_session_options relay = {.relay = 1};
  CHECK(gg_session_open(mod, "one_1", &relay, &se) == GG_ERR_INVALID);
  printf("relay off a team: %s\n", gg_error_detail());
  CHECK_OK(gg_session_open(mod, "one_1", NULL, &se));
  CHECK(gg_session_follow(se, 0, ga, 5) == GG_ERR_INVALID);
  printf("follow off a team: %s\n", gg_error_detail());
  CHECK_OK(gg_session_terminate(se));
  gg_session_free(se);

  /* heartbeat: no sign of life for 300 ms with a 50 ms limit -> the kernel exits */
  gg_session_options hb = {.buffering = 1, .heartbeat_ms = 50};
  CHECK_OK(gg_session_open(mod, "one_1", &hb, &se));
  struct timespec nap = {0, 300000000};
  nanosleep(&nap, NULL);
  CHECK_OK(gg_session_start_packed(se, 0, &a, sizeof a, NULL));
  gg_status st = gg_session_wait(se, 2000000000);
  CHECK(st == GG_ERR_STATE);
  printf("stale heartbeat: %s\n", gg_error_detail());
  gg_session_free(se);
  bufset_free(&s);
  puts("state errors, reopen and heartbeat: as expected");
}

/* A command that never returns, or one that traps; the process carries on. */
static void fault(gg_context **ctx, gg_module **mod, int trap)
{
  gg_session *se;
  gg_session_options opt = {.buffering = 1, .terminate_ms = 200};
  gg_array *flag;
  int32_t *hflag = mapped(*ctx, 64, &flag);
  *hflag = 0;
  CHECK_OK(gg_session_open(*mod, "faults", &opt, &se));
  if (trap) {
    hm_empty_args a = {0};
    CHECK_OK(gg_session_start_packed(se, 2, &a, sizeof a, NULL));
    gg_status st = gg_session_wait(se, 5000000000);
    printf("trap: %s: %s\n", gg_strerror(st), gg_error_detail());
    CHECK(st == GG_ERR_KERNEL_FAULT);
    CHECK(gg_session_terminate(se) == GG_ERR_KERNEL_FAULT);
  } else {
    /* A command that does not finish in time: the wait says so, the frame
     * stays in flight; once the command ends (here: the flag is set) the
     * frame completes and the session terminates cleanly.  A command that
     * never ends cannot be stopped: the driver's context reset blocks
     * until the kernel ends (measured), see gg_session_terminate. */
    hm_spin_args a = {dptr(flag)};
    CHECK_OK(gg_session_start_packed(se, 1, &a, sizeof a, NULL));
    gg_status st = gg_session_wait(se, 50000000); /* 50 ms */
    printf("spin: %s: %s\n", gg_strerror(st), gg_error_detail());
    CHECK(st == GG_ERR_TIMEOUT);
    __atomic_store_n(hflag, 1, __ATOMIC_RELEASE);
    CHECK_OK(gg_session_wait(se, 2000000000));
    CHECK_OK(gg_session_terminate(se));
  }
  gg_session_free(se);
  gg_array_free(flag);
  if (trap) { /* the context is lost: a fresh one */
    gg_module_free(*mod);
    gg_context_free(*ctx);
    open_all(ctx, mod);
  }
  smoke(*ctx, *mod);
  printf("%s: recovered%s\n", trap ? "trap" : "late command",
         trap ? " with a fresh context" : ", same context");
}

int main(void)
{
  setvbuf(stdout, NULL, _IOLBF, 0); /* progress survives a timeout */
  const char *env = getenv("GG_FRAMES");
  uint64_t frames = env ? strtoull(env, NULL, 10) : 2000;
  if (frames < 10)
    frames = 10;
  char err[1024];
  g_desc = hm_module(test_layouts, N_TEST_LAYOUTS, err, sizeof err);
  if (!g_desc) {
    fprintf(stderr, "module: %s\n", err);
    return 1;
  }
  gg_context *ctx;
  gg_module *mod;
  open_all(&ctx, &mod);
  printf("device: %s (%s)\n", gg_context_device_name(ctx), gg_context_arch(ctx));
  const int slots[] = {1, 2, 5};
  uint64_t total = 0;
  for (int l = 0; l < N_FRAME_LAYOUTS; l++)
    for (int s = 0; s < 3; s++)
      total += frames_run(ctx, mod, &test_layouts[l], slots[s], frames);
  printf("all layouts: %llu frames correct\n", (unsigned long long)total);
  state_errors(ctx, mod);
  const char *faults = getenv("GG_NO_FAULTS");
  if (!faults || !*faults) {
    fault(&ctx, &mod, 0);
    /* The trap case runs in test_faults.c, in a child process: after a
     * fault this process's primary context stays poisoned (measured). */
  }
  gg_module_free(mod);
  gg_context_free(ctx);
  hm_module_free(g_desc);
  return 0;
}
