/*
 * test_offsets.c - the generated module files compile as C, and every
 * gg_param_desc offset/size and every args_size the generator computed
 * equals what this C compiler lays out for the mirror struct in the
 * generated header (offsetof / sizeof).  The modules are emitted at build
 * time from examples/ (see CMakeLists.txt).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "saxpy.h"
#include "stencil2d_left.h"
#include "matmul32.h"
#include "strategies.h"
#include "persistent_three.h"
#include "scan_inclusive.h"
#include "coop_reduce.h"
#include "tile_reduce16.h"
#include "half_types.h"

/* The typed API the headers declare: command ids in the persistent
 * kernel's order, a typed starter for each command (same C types as its
 * launcher), a typed launcher for a kernel with an f16 scalar (taken as a
 * float), and no name stutter (module and kernel "saxpy": gg_saxpy_launch,
 * GG_SAXPY_A). */
_Static_assert(GG_PERSISTENT_THREE_LOOP_CMD_MATMUL32 == 0 && GG_PERSISTENT_THREE_LOOP_CMD_SUM1K == 1 &&
               GG_PERSISTENT_THREE_LOOP_CMD_INC32K == 2 && GG_PERSISTENT_THREE_LOOP_NCOMMANDS == 3,
               "command ids");
_Static_assert(GG_SAXPY_A == 0 && GG_SAXPY_N == 3 && GG_SAXPY_NARGS == 4, "saxpy argument indices");
static gg_status (*const saxpy_launch)(gg_kernel *, gg_stream *, float, gg_array *, gg_array *,
                                       int64_t) = gg_saxpy_launch;
static gg_status (*const sum1k_start)(gg_session *, int, uint64_t *, gg_array *, gg_array *) =
    gg_persistent_three_start_sum1k;
static gg_status (*const inc32k_start)(gg_session *, int, uint64_t *, gg_array *) =
    gg_persistent_three_start_inc32k;
static gg_status (*const hscale_launch)(gg_kernel *, gg_stream *, float, gg_array *, gg_array *,
                                        int32_t, int64_t) = gg_half_types_launch_hscale;

static int fails, checked;

static void check(const gg_module_desc *m, int ki, const char *field, size_t off, size_t size,
                  size_t struct_size, size_t struct_align)
{
  const gg_kernel_desc *k = &m->kernels[ki];
  checked++;
  if (k->args_size != struct_size || k->args_align != struct_align) {
    printf("FAIL %s.%s: args_size %u align %u, C says %zu, %zu\n", m->name, k->name,
           (unsigned)k->args_size, (unsigned)k->args_align, struct_size, struct_align);
    fails++;
  }
  for (int i = 0; i < k->nparams; i++) {
    if (strcmp(k->params[i].name, field) != 0) continue;
    if (k->params[i].offset != off || k->params[i].size != size) {
      printf("FAIL %s.%s.%s: offset %u size %u, C says %zu, %zu\n", m->name, k->name, field,
             (unsigned)k->params[i].offset, (unsigned)k->params[i].size, off, size);
      fails++;
    }
    return;
  }
  printf("FAIL %s.%s: no param '%s' in the descriptor\n", m->name, k->name, field);
  fails++;
}

#define CHECK(mod)                                                                      \
  do {                                                                                  \
    const gg_module_desc *m = &mod;
#define FIELD(T, ki, f) \
  check(m, ki, #f, offsetof(T, f), sizeof(((T *)0)->f), sizeof(T), _Alignof(T));
#define END \
  }         \
  while (0)

int main(void)
{
  if (!saxpy_launch || !sum1k_start || !inc32k_start || !hscale_launch) return 1;
  CHECK(gg_module_saxpy) GG_SAXPY_ALL_FIELDS(FIELD) END;
  CHECK(gg_module_stencil2d_left) GG_STENCIL2D_LEFT_ALL_FIELDS(FIELD) END;
  CHECK(gg_module_matmul32) GG_MATMUL32_ALL_FIELDS(FIELD) END;
  CHECK(gg_module_strategies) GG_STRATEGIES_ALL_FIELDS(FIELD) END;
  CHECK(gg_module_persistent_three) GG_PERSISTENT_THREE_ALL_FIELDS(FIELD) END;
  CHECK(gg_module_scan_inclusive) GG_SCAN_INCLUSIVE_ALL_FIELDS(FIELD) END;
  CHECK(gg_module_coop_reduce) GG_COOP_REDUCE_ALL_FIELDS(FIELD) END;
  CHECK(gg_module_tile_reduce16) GG_TILE_REDUCE16_ALL_FIELDS(FIELD) END;
  CHECK(gg_module_half_types) GG_HALF_TYPES_ALL_FIELDS(FIELD) END;
  /* { f16 a; f16 *x; f16 *acc; int c; long long n; }: a at 0, x at 8 */
  const gg_kernel_desc *h = &gg_module_half_types.kernels[0];
  if (h->params[0].size != 2 || h->params[1].offset != 8 || h->params[3].offset != 24 ||
      h->params[4].offset != 32 || h->args_size != 40) {
    printf("FAIL half_types: f16 scalar layout\n");
    fails++;
  }

  /* known values, so a bug shared by both sides can't hide: saxpy is
     { float a; float *x; float *y; long long n; } */
  const gg_kernel_desc *s = &gg_module_saxpy.kernels[0];
  int known = s->nparams == 4 && s->params[0].offset == 0 && s->params[1].offset == 8 &&
              s->params[2].offset == 16 && s->params[3].offset == 24 && s->args_size == 32 &&
              s->params[3].kind == GG_PARAM_EXTENT && s->params[1].extents[0].param == 3;
  if (!known) {
    printf("FAIL saxpy: layout is not {a@0, x@8, y@16, n@24} size 32 with x's extent = param 3\n");
    fails++;
  }
  /* the persistent slot holds the largest command's struct */
  const gg_persistent_desc *p = &gg_module_persistent_three.persistent[0];
  uint32_t biggest = 0;
  for (int c = 0; c < p->ncommands; c++) {
    uint32_t sz = gg_module_persistent_three.kernels[p->commands[c]].args_size;
    if (sz > biggest) biggest = sz;
  }
  if (p->slot_args_size != biggest || p->ncommands != 3) {
    printf("FAIL persistent_three: slot_args_size %u, largest command %u\n",
           (unsigned)p->slot_args_size, (unsigned)biggest);
    fails++;
  }
  printf("%d fields checked, %d failures\n", checked, fails);
  return fails ? 1 : 0;
}
