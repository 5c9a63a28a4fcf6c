/* Two threads launch kernels of one context at the same time, each with
 * its own mistake, and each reads the detail of its own failure from
 * gg_error_detail(): the detail is per thread, so neither sees the other's
 * message.  CPU only: the failures happen while packing, before any
 * driver call (the fake device of fake_gpu.h stands in for the rest). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "fake_gpu.h"

enum { ROUNDS = 100000 };

static const gg_param_desc params[2] = {
  {"x", GG_PARAM_VIEW, GG_F32, 1, {{0, 1}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_IN, 0, 0, 8},
  {"n", GG_PARAM_EXTENT, GG_I64, 0, {{0, -1}}, 0, 0, 0, 0, 8, 8},
};
static const gg_kernel_desc kd = {.name = "k", .symbol = "gg_k", .rank = 1,
                                  .range = {{0, 1}}, .block_size = 96,
                                  .items_per_thread = 1, .args_size = 16,
                                  .nparams = 2, .params = params};

typedef struct job {
  gg_kernel *k;
  gg_arg args[2];
  int nargs;
  const char *want;  /* in this thread's detail after every failure */
  int wrong;         /* failures whose detail was not this thread's */
} job;

static pthread_barrier_t start;

static void *run(void *p) {
  job *j = p;
  pthread_barrier_wait(&start);
  for (int i = 0; i < ROUNDS; i++) {
    gg_status st = gg_launch(j->k, NULL, j->args, j->nargs);
    if (st != GG_ERR_INVALID || !strstr(gg_error_detail(), j->want)) j->wrong++;
  }
  return NULL;
}

int main(void) {
  gg_context *ctx = fake_context();
  gg_module_desc md;
  memset(&md, 0, sizeof md);
  md.abi = GG_MODULE_ABI;
  md.name = "m";
  md.cuda_source = "";
  md.nkernels = 1;
  md.kernels = &kd;
  gg_module *mod = NULL;
  gg_kernel *k = NULL;
  if (ggr_module_load_with(ctx, &md, &fake_builder, &mod) || gg_kernel_get(mod, "k", &k)) {
    fprintf(stderr, "module: %s\n", gg_error_detail());
    return 1;
  }
  gg_array x;
  memset(&x, 0, sizeof x);
  x.ctx = ctx;
  x.space = GG_SPACE_DEVICE;
  x.bytes = 4 * 1000;
  x.dptr = 0x10000;
  /* one thread gives too few arguments, the other a negative extent */
  job a = {k, {gg_arg_array(&x)}, 1, "takes 2 arguments, 1 given", 0};
  job b = {k, {gg_arg_array(&x), gg_arg_i64(-7)}, 2, "extent -7 is negative", 0};
  pthread_barrier_init(&start, NULL, 2);
  pthread_t ta, tb;
  pthread_create(&ta, NULL, run, &a);
  pthread_create(&tb, NULL, run, &b);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  pthread_barrier_destroy(&start);
  /* this thread failed nothing: its detail is still empty */
  int main_clean = gg_error_detail()[0] == 0;
  gg_context_free(ctx);
  printf("error threads: %d and %d of %d failures read another thread's detail; main thread's "
         "detail %s\n", a.wrong, b.wrong, ROUNDS, main_clean ? "empty" : "NOT empty");
  return a.wrong || b.wrong || !main_clean;
}
