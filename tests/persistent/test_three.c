/*
 * test_three.c - the generated module of examples/persistent_three.lua
 * (gpugen's own loader, specializer, emitter and templates): one
 * one_block persistent kernel serving matmul32, sum1k and inc32k with
 * double buffering, every frame checked against a CPU reference.  Label
 * gpu; exit 77 without one.  GG_FRAMES scales the frames (default 2000).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg.h"
#include "gg_session.h"
#include "persistent_three.h"
#include "../gg_check.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

static gg_context *ctx;

typedef struct set {
  gg_array *a, *b, *c, *x, *out, *v;
  float *ha, *hb, *hc, *hx, *hout;
  int32_t *hv;
  int cmd;
  uint64_t frame;
} set;

static void *mapped(size_t bytes, gg_array **a)
{
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, bytes, a));
  return gg_array_host(*a);
}

static void start(gg_session *se, set *s, const int cmds[3], uint64_t f)
{
  s->frame = f;
  s->cmd = (int)(f % 3);
  uint64_t got;
  if (s->cmd == 0) {
    for (int i = 0; i < 32 * 32; i++) {
      s->ha[i] = (float)((int)((f + (uint64_t)i * 7) % 9) - 4);
      s->hb[i] = (float)((int)((f * 3 + (uint64_t)i) % 5) - 2);
      s->hc[i] = -1e30f;
    }
    gg_arg args[3] = {gg_arg_array(s->a), gg_arg_array(s->b), gg_arg_array(s->c)};
    CHECK_OK(gg_session_start(se, cmds[0], args, 3, &got));
  } else if (s->cmd == 1) {
    for (int i = 0; i < 1024; i++)
      s->hx[i] = (float)((int)((f * 13 + (uint64_t)i * 3) % 201) - 100);
    s->hout[0] = -1e30f;
    gg_arg args[2] = {gg_arg_array(s->x), gg_arg_array(s->out)};
    CHECK_OK(gg_session_start(se, cmds[1], args, 2, &got));
  } else {
    for (int i = 0; i < 32768; i++)
      s->hv[i] = (int32_t)((f + (uint64_t)i * 11) % 100003);
    gg_arg args[1] = {gg_arg_array(s->v)};
    CHECK_OK(gg_session_start(se, cmds[2], args, 1, &got));
  }
  CHECK(got == f);
}

static void verify(const set *s)
{
  if (s->cmd == 0) {
    for (int r = 0; r < 32; r++)
      for (int c = 0; c < 32; c++) {
        float want = 0;
        for (int e = 0; e < 32; e++)
          want += s->ha[r * 32 + e] * s->hb[e * 32 + c];
        if (s->hc[r * 32 + c] != want) {
          fprintf(stderr, "frame %llu matmul32: C(%d,%d) = %g, want %g\n",
                  (unsigned long long)s->frame, r, c, s->hc[r * 32 + c], want);
          exit(1);
        }
      }
  } else if (s->cmd == 1) {
    float want = 0;
    for (int i = 0; i < 1024; i++)
      want += s->hx[i];
    if (s->hout[0] != want) {
      fprintf(stderr, "frame %llu sum1k: %g, want %g\n", (unsigned long long)s->frame,
              s->hout[0], want);
      exit(1);
    }
  } else {
    for (int i = 0; i < 32768; i++)
      if (s->hv[i] != (int32_t)((s->frame + (uint64_t)i * 11) % 100003) + 1) {
        fprintf(stderr, "frame %llu inc32k: v[%d] = %d\n", (unsigned long long)s->frame, i,
                s->hv[i]);
        exit(1);
      }
  }
}

int main(void)
{
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char *env = getenv("GG_FRAMES");
  uint64_t frames = env ? strtoull(env, NULL, 10) : 2000;
  if (frames < 3)
    frames = 3;
  ctx = gg_check_open(NULL);
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_persistent_three, &mod));
  set sets[2];
  for (int i = 0; i < 2; i++) {
    set *s = &sets[i];
    s->ha = mapped(32 * 32 * 4, &s->a);
    s->hb = mapped(32 * 32 * 4, &s->b);
    s->hc = mapped(32 * 32 * 4, &s->c);
    s->hx = mapped(1024 * 4, &s->x);
    s->hout = mapped(64, &s->out);
    s->hv = mapped(32768 * 4, &s->v);
  }
  gg_session *se;
  gg_session_options opt = {.stats_frames = frames};
  CHECK_OK(gg_session_open(mod, "loop", &opt, &se));
  CHECK(gg_session_nslots(se) == 2); /* buffering = "double" in the file */
  int cmds[3];
  CHECK_OK(gg_session_command(se, "matmul32", &cmds[0]));
  CHECK_OK(gg_session_command(se, "sum1k", &cmds[1]));
  CHECK_OK(gg_session_command(se, "inc32k", &cmds[2]));
  for (uint64_t f = 1; f <= frames; f++) {
    if (gg_session_started(se) - gg_session_completed(se) == 2) {
      uint64_t oldest = gg_session_completed(se) + 1;
      CHECK_OK(gg_session_wait(se, 2000000000));
      verify(&sets[gg_session_frame_slot(se, oldest)]);
    }
    start(se, &sets[gg_session_frame_slot(se, f)], cmds, f);
  }
  while (gg_session_completed(se) < gg_session_started(se)) {
    uint64_t oldest = gg_session_completed(se) + 1;
    CHECK_OK(gg_session_wait(se, 2000000000));
    verify(&sets[gg_session_frame_slot(se, oldest)]);
  }
  gg_stats stats;
  CHECK_OK(gg_session_stats(se, &stats));
  CHECK_OK(gg_session_terminate(se));
  printf("persistent_three (generated): %llu frames correct, double buffering, mean %.2f us, "
         "p99 %.2f us\n", (unsigned long long)frames, stats.mean_ns / 1e3, stats.p99_ns / 1e3);
  gg_session_free(se);
  gg_module_free(mod);
  gg_context_free(ctx);
  return 0;
}
