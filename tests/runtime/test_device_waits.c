/*
 * test_device_waits.c - what a running persistent kernel makes wait, on
 * every context of its device (runtime/device.c), on the pretend device of
 * fake_gpu.h: while one runs, frees on any context of the device are put
 * off until the last one ends, module loads and the whole-device context's
 * synchronize are refused with GG_ERR_STATE, and another device is not
 * touched by the rules.  The driver calls themselves are measured on the
 * GPU (tests/isolation/test_side_by_side_gpu.c); this checks the rules.
 */
#include <string.h>

#include "../expect.h"
#include "fake_gpu.h"
#include "gg_session.h"

static const gg_kernel_desc kd = {.name = "k", .symbol = "gg_k", .block_size = 32,
                                  .items_per_thread = 1, .grid_rule = GG_GRID_FIXED,
                                  .grid_fixed = 1};

static gg_module_desc module_desc(const char *name) {
  gg_module_desc md;
  memset(&md, 0, sizeof md);
  md.abi = GG_MODULE_ABI;
  md.name = name;
  md.cuda_source = "";
  md.nkernels = 1;
  md.kernels = &kd;
  return md;
}

int main(void) {
  gg_context *a = fake_context(), *b = fake_context(), *other = fake_context();
  other->device = 1;
  b->green = NULL; /* b: the device's whole (primary) context */
  a->green = (void *)0x1; /* a: an SM partition (never destroyed: fake) */
  gg_module_desc md1 = module_desc("one"), md2 = module_desc("two");
  gg_module *m1 = NULL, *m2 = NULL, *m3 = NULL;
  gg_array *x = NULL, *y = NULL, *z = NULL, *w = NULL;
  EXPECT(ggr_module_load_with(b, &md1, &fake_builder, &m1) == GG_OK, "load before: %s", gg_error_detail());
  EXPECT(gg_array_alloc(b, GG_SPACE_DEVICE, 1000, &x) == GG_OK, "alloc");
  EXPECT(gg_array_alloc(b, GG_SPACE_MAPPED, 999, &y) == GG_OK, "alloc mapped");
  EXPECT(gg_array_alloc(other, GG_SPACE_DEVICE, 77, &w) == GG_OK, "alloc on device 1");

  /* a persistent kernel of a (the partition) runs */
  ggr_kernel_started(a);
  EXPECT(ggr_device_running(b) == 1 && ggr_device_running(other) == 0, "counted per device");

  int frees = fake.frees, unloads = fake.unloads;
  gg_array_free(x);
  gg_array_free(y);
  EXPECT(fake.frees == frees, "frees on another context of the device wait: %d done",
         fake.frees - frees);
  gg_module_free(m1);
  EXPECT(fake.unloads == unloads && fake.frees == frees, "module unload put off");
  EXPECT(gg_array_alloc(b, GG_SPACE_DEVICE, 5, &z) == GG_OK, "allocation is not put off");
  gg_status st = ggr_module_load_with(b, &md2, &fake_builder, &m2);
  EXPECT(st == GG_ERR_STATE && !m2, "module load while a persistent kernel runs: %d", (int)st);
  EXPECT(strstr(gg_error_detail(), "persistent session is running on this device"),
         "the reason: %s", gg_error_detail());
  EXPECT(gg_device_sync(b) == GG_ERR_STATE, "the whole device's context: sync refused");
  EXPECT(strstr(gg_error_detail(), "SM partitions"), "says why: %s", gg_error_detail());
  EXPECT(gg_device_sync(a) == GG_OK, "a partition without sessions of its own syncs: %s",
         gg_error_detail());
  EXPECT(gg_fill_zero(z, NULL) == GG_OK, "a fill that finishes: %s", gg_error_detail());

  /* device 1 is not held */
  int f1 = fake.frees;
  gg_array_free(w);
  EXPECT(fake.frees == f1 + 1, "another device's free is not put off");
  EXPECT(ggr_module_load_with(other, &md2, &fake_builder, &m3) == GG_OK, "another device loads");
  EXPECT(gg_device_sync(other) == GG_OK, "another device syncs");

  /* a context freed meanwhile: its own frees, then itself, later */
  gg_context *c = fake_context();
  gg_array *v = NULL;
  EXPECT(gg_array_alloc(c, GG_SPACE_DEVICE, 12, &v) == GG_OK, "alloc on c");
  gg_array_free(v);
  gg_context_free(c);
  EXPECT(fake.frees == f1 + 1, "still put off");

  /* the kernel ends: everything put off is freed, in order */
  ggr_kernel_ended(a);
  EXPECT(fake.frees == f1 + 1 + 3 && fake.unloads == unloads + 1,
         "put-off frees done at the end: %d frees, %d unloads", fake.frees - f1 - 1,
         fake.unloads - unloads);
  EXPECT(ggr_module_load_with(b, &md2, &fake_builder, &m2) == GG_OK, "loads again: %s",
         gg_error_detail());
  EXPECT(gg_device_sync(b) == GG_OK, "syncs again");
  frees = fake.frees;
  gg_array_free(z);
  EXPECT(fake.frees == frees + 1, "frees at once again");

  /* a kernel whose session is gone before it ended (a terminate that timed
   * out): counted until its stream is done */
  ggr_kernel_started(a);
  a->sessions_running = 1; /* as session.c counts it on its context too */
  fake.busy_stream = (void *)0x77;
  ggr_kernel_watch(a, (void *)0x77);
  EXPECT(ggr_device_running(b) == 1, "a watched kernel that runs is counted");
  EXPECT(gg_array_alloc(b, GG_SPACE_DEVICE, 5, &z) == GG_OK, "alloc");
  frees = fake.frees;
  gg_array_free(z);
  EXPECT(fake.frees == frees, "and frees wait for it");
  fake.busy_stream = NULL;
  EXPECT(ggr_device_running(b) == 0, "its stream done: no longer counted");
  EXPECT(fake.frees == frees + 1, "and the put-off free is done");
  EXPECT(a->sessions_running == 0, "nor counted on its context: %d", a->sessions_running);

  gg_module_free(m2);
  gg_module_free(m3);
  a->green = NULL;
  gg_context_free(a);
  gg_context_free(b);
  gg_context_free(other);
  printf("%s\n", failures ? "FAILED" : "ok");
  return failures != 0;
}
