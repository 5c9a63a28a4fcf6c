/*
 * test_faults_gpu.c - a frame stage that traps or hangs becomes an error
 * within the wait's timeout, on one block and on 8 blocks (where the other
 * blocks sit in the grid barrier or have finished the stage).  Label gpu;
 * exit 77 without one.  Each case runs in a child process that the parent
 * kills after a deadline, so nothing here can hang ctest (a trapped or
 * hung kernel leaves its context unusable: see tests/persistent/test_faults.c).
 *
 * Each child first runs 50 frames of "ok" (twice, then a mirrored read
 * behind a grid barrier) checked against the CPU, then the faulty frame:
 *   trap  stage 1 calls __trap() at one element: wait -> GG_ERR_KERNEL_FAULT,
 *         terminate -> GG_ERR_KERNEL_FAULT
 *   hang  stage 1 spins on a host flag at one element: wait(50 ms) ->
 *         GG_ERR_TIMEOUT within a second, terminate -> GG_ERR_TIMEOUT within
 *         its terminate_ms plus a second, then the process exits
 *   lie   stage 1 declares halo 1 but reads y(i - 2) at one element: its
 *         view's check traps, so the error is a fault, like trap's
 *   nhang stage 1 hangs at one element (where y = 777), stage 2 reads its
 *         output within halo 1: the neighbours wait for the hung block
 *         in the poll of a tagged word it never publishes (the halo
 *         exchange; on one block, a block barrier), not a grid barrier;
 *         the errors are hang's
 * The element is n - 1 - k for k in {0, 300}: in the last block or not.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "faults_gpu.h"
#include "gg.h"
#include "gg_session.h"
#include "../gg_check.h"
#include "../persistent/check.h"

#define N 1000 /* not a power of two */

static double ms_since(uint64_t t0) { return (double)(gg_rt_now_ns() - t0) / 1e6; }

/* 50 frames of "ok" with new inputs, each checked: z(i) = 2 x(n-1-i) + 1. */
static void frames_ok(gg_session *se, gg_array *xa, gg_array *ya, gg_array *za)
{
  float *x = gg_array_host(xa), *z = gg_array_host(za);
  int cmd;
  CHECK_OK(gg_session_command(se, "ok", &cmd));
  for (int f = 0; f < 50; f++) {
    for (int i = 0; i < N; i++)
      x[i] = (float)((i * 7 + f) % 23);
    gg_arg a[4] = {gg_arg_array(xa), gg_arg_array(ya), gg_arg_array(za), gg_arg_i64(N)};
    CHECK_OK(gg_session_start(se, cmd, a, 4, NULL));
    CHECK_OK(gg_session_wait(se, 2000000000));
    for (int i = 0; i < N; i++)
      if (z[i] != 2.0f * x[N - 1 - i] + 1.0f) {
        fprintf(stderr, "frame %d: z[%d] = %g, want %g\n", f, i, z[i], 2.0f * x[N - 1 - i] + 1.0f);
        exit(1);
      }
  }
}

/* The frames that fail, and how: a hang (on a host flag that is never
 * set) becomes a timeout, a trap a kernel fault. */
typedef struct fault_mode {
  const char *frame;
  int hang;
} fault_mode;
static const fault_mode modes[] = {{"trap", 0}, {"hang", 1}, {"lie", 0}, {"nhang", 1}};
#define NMODES ((int)(sizeof modes / sizeof modes[0]))

static int child(const char *layout, const char *mode, long long at)
{
  int mi = 0;
  while (mi < NMODES - 1 && strcmp(modes[mi].frame, mode) != 0) mi++;
  const int hang = modes[mi].hang, nhang = strcmp(mode, "nhang") == 0;
  gg_context *ctx = gg_check_open(NULL);
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_faults_gpu, &mod));
  gg_array *xa, *ya, *za, *wa, *flag;
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, N * 4, &xa));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, N * 4, &ya));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, N * 4, &za));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, N * 4, &wa));
  CHECK_OK(gg_array_alloc(ctx, GG_SPACE_MAPPED, 64, &flag));
  *(volatile int *)gg_array_host(flag) = 0; /* never set: the stage never returns */
  gg_session *se;
  gg_session_options opt = {.buffering = 1, .terminate_ms = 300};
  CHECK_OK(gg_session_open(mod, layout, &opt, &se));
  frames_ok(se, xa, ya, za);
  int cmd;
  CHECK_OK(gg_session_command(se, mode, &cmd));
  gg_arg a[6];
  int na = 0;
  a[na++] = gg_arg_array(xa);
  a[na++] = gg_arg_array(ya);
  a[na++] = gg_arg_array(za);
  if (nhang) {
    a[na++] = gg_arg_array(wa);
    ((float *)gg_array_host(xa))[at] = 388.5f; /* y = 2 x = 777 there: spin_own hangs */
  }
  if (hang)
    a[na++] = gg_arg_array(flag);
  if (!nhang)
    a[na++] = gg_arg_i64(at);
  a[na++] = gg_arg_i64(N);
  CHECK_OK(gg_session_start(se, cmd, a, na, NULL));
  uint64_t t0 = gg_rt_now_ns();
  gg_status st = gg_session_wait(se, hang ? 50000000 : 5000000000);
  double w = ms_since(t0);
  printf("%s %s at %lld: wait -> %s after %.1f ms: %s\n", layout, mode, at,
         gg_strerror(st), w, st ? gg_error_detail() : "");
  CHECK(st == (hang ? GG_ERR_TIMEOUT : GG_ERR_KERNEL_FAULT));
  CHECK(w < (hang ? 1000 : 5000));
  t0 = gg_rt_now_ns();
  st = gg_session_terminate(se);
  double t = ms_since(t0);
  printf("%s %s: terminate -> %s after %.1f ms\n", layout, mode,
         gg_strerror(st), t);
  CHECK(st == (hang ? GG_ERR_TIMEOUT : GG_ERR_KERNEL_FAULT) && t < 1300);
  CHECK(gg_session_start(se, cmd, a, na, NULL) == GG_ERR_STATE);
  return 0; /* the process exit tears the context down */
}

/* Run "self LAYOUT MODE AT" with a deadline; its exit status, or -1 if killed. */
static int run_child(const char *layout, const char *mode, long long at, int deadline_s)
{
  char atbuf[32];
  snprintf(atbuf, sizeof atbuf, "%lld", at);
  uint64_t t0 = gg_rt_now_ns();
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    execl("/proc/self/exe", "test_faults_gpu", layout, mode, atbuf, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    CHECK(r >= 0);
    if (r == pid)
      break;
    if (ms_since(t0) > deadline_s * 1000.0) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      printf("%s %s: killed after %d s (did not finish)\n", layout, mode, deadline_s);
      return -1;
    }
    struct timespec nap = {0, 10000000};
    nanosleep(&nap, NULL);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 4)
    return child(argv[1], argv[2], atoll(argv[3]));
  static const char *layouts[] = {"one", "many"};
  for (int l = 0; l < 2; l++)
    for (int m = 0; m < NMODES; m++)
      for (int k = 0; k < 2; k++) {
        int rc = run_child(layouts[l], modes[m].frame, N - 1 - 300 * k, 60);
        if (rc == 77)
          return 77;
        CHECK(rc == 0);
      }
  printf("every trapped or hung stage became an error within its timeout\n");
  return 0;
}
