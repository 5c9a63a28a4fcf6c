/* Sizes that overflow: views whose byte count wraps, strides, ranges,
 * leagues, workspaces, copies and allocations.  Every one must be refused
 * with GG_ERR_INVALID and a message naming what and how much, and never
 * reach the (pretend) driver.  CPU only: gg_pack_args is pure, and the
 * launch path runs on the fake device of fake_gpu.h. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fake_gpu.h"
#include "../expect.h"

#define P_VIEW(nm, dt, rk, e0, e1, e2, lay, off) \
  {nm, GG_PARAM_VIEW, dt, rk, {{0, e0}, {0, e1}, {0, e2}}, lay, GG_SPACE_DEVICE, GG_ACCESS_INOUT, 0, off, 8}
#define P_EXT(nm, off) {nm, GG_PARAM_EXTENT, GG_I64, 0, {{0, -1}, {0, -1}, {0, -1}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_IN, 0, off, 8}
#define P_STRIDE(nm, off) {nm, GG_PARAM_STRIDE, GG_I64, 0, {{0, -1}, {0, -1}, {0, -1}}, GG_LAYOUT_RIGHT, GG_SPACE_DEVICE, GG_ACCESS_IN, 0, off, 8}

/* struct { float *x; long long n; } over range n */
static const gg_param_desc p_vec[] = {
  P_VIEW("x", GG_F32, 1, 1, -1, -1, GG_LAYOUT_RIGHT, 0),
  P_EXT("n", 8),
};
static const gg_kernel_desc k_vec = {
  .name = "vec", .symbol = "gg_vec", .rank = 1, .range = {{0, 1}, {0, -1}, {0, -1}},
  .block_size = 256, .items_per_thread = 1, .grid_rule = GG_GRID_COVER,
  .args_size = 16, .args_align = 8, .nparams = 2, .params = p_vec,
};

/* struct { double *A; long long a, b, c; } : A[a][b][c] */
static const gg_param_desc p_cube[] = {
  P_VIEW("A", GG_F64, 3, 1, 2, 3, GG_LAYOUT_RIGHT, 0),
  P_EXT("a", 8), P_EXT("b", 16), P_EXT("c", 24),
};
static const gg_kernel_desc k_cube = {
  .name = "cube", .symbol = "gg_cube", .rank = 3, .range = {{0, 1}, {0, 2}, {0, 3}},
  .block_size = 128, .items_per_thread = 1, .grid_rule = GG_GRID_COVER,
  .args_size = 32, .args_align = 8, .nparams = 4, .params = p_cube,
};

/* struct { float *S; long long n, m, S_s0, S_s1; } : S[n][m], layout stride */
static const gg_param_desc p_strided[] = {
  P_VIEW("S", GG_F32, 2, 1, 2, -1, GG_LAYOUT_STRIDE, 0),
  P_EXT("n", 8), P_EXT("m", 16), P_STRIDE("S_s0", 24), P_STRIDE("S_s1", 32),
};
static const gg_kernel_desc k_strided = {
  .name = "strided", .symbol = "gg_strided", .rank = 2, .range = {{0, 1}, {0, 2}, {0, -1}},
  .block_size = 64, .items_per_thread = 1, .grid_rule = GG_GRID_COVER,
  .args_size = 40, .args_align = 8, .nparams = 5, .params = p_strided,
};

static gg_array fake_array(size_t bytes) {
  gg_array a;
  memset(&a, 0, sizeof a);
  a.space = GG_SPACE_DEVICE;
  a.bytes = bytes;
  a.dptr = 0x10000;
  return a;
}

/* Pack; err gets the calling thread's detail of a failure. */
static gg_status pack(const gg_kernel_desc *kd, const gg_arg *args, int n, char *err) {
  unsigned char buf[256];
  gg_status st = gg_pack_args(kd, args, n, buf, sizeof buf);
  snprintf(err, 512, "%s", st ? gg_error_detail() : "");
  return st;
}

static void test_view_bytes(void) {
  char err[512];
  gg_array x16 = fake_array(16); /* four floats */
  gg_arg a[2] = {gg_arg_array(&x16), gg_arg_i64(4)};
  CHECK(pack(&k_vec, a, 2, err) == GG_OK);
  a[1] = gg_arg_i64(5);
  CHECK(pack(&k_vec, a, 2, err) == GG_ERR_INVALID && strstr(err, "x") && strstr(err, "20 bytes"));
  /* n * 4 wraps to 0, and to 12: both "fit" a 16-byte array unless checked */
  const int64_t wraps[] = {INT64_C(1) << 62, (INT64_C(1) << 62) + 3, INT64_MAX};
  for (int i = 0; i < 3; i++) {
    a[1] = gg_arg_i64(wraps[i]);
    err[0] = 0;
    CHECK(pack(&k_vec, a, 2, err) == GG_ERR_INVALID);
    CHECK(strstr(err, "x") && strstr(err, "overflow"));
  }
  /* rank 3: the element count fits in 64 bits, the bytes do not */
  gg_array big = fake_array(1000);
  gg_arg c[4] = {gg_arg_array(&big), gg_arg_i64(INT64_C(1) << 31), gg_arg_i64(INT64_C(1) << 30),
                 gg_arg_i64(7)};
  CHECK(pack(&k_cube, c, 4, err) == GG_ERR_INVALID && strstr(err, "A") && strstr(err, "overflow"));
  c[1] = gg_arg_i64(3037000499); c[2] = gg_arg_i64(3037000499); c[3] = gg_arg_i64(3);
  CHECK(pack(&k_cube, c, 4, err) == GG_ERR_INVALID && strstr(err, "overflow"));
  c[1] = gg_arg_i64(5); c[2] = gg_arg_i64(5); c[3] = gg_arg_i64(5); /* 1000 bytes: fits */
  CHECK(pack(&k_cube, c, 4, err) == GG_OK);
  c[3] = gg_arg_i64(6);
  CHECK(pack(&k_cube, c, 4, err) == GG_ERR_INVALID && strstr(err, "1200 bytes"));
  /* an empty extent needs nothing, whatever the others say */
  c[1] = gg_arg_i64(0); c[2] = gg_arg_i64(INT64_MAX); c[3] = gg_arg_i64(INT64_MAX);
  CHECK(pack(&k_cube, c, 4, err) == GG_OK);
  /* negative extents */
  a[1] = gg_arg_i64(-3);
  CHECK(pack(&k_vec, a, 2, err) == GG_ERR_INVALID && strstr(err, "-3"));
}

static void test_strides(void) {
  char err[512];
  gg_array s = fake_array(25 * 4); /* 5 x 5 floats, column-major */
  gg_arg a[5] = {gg_arg_array(&s), gg_arg_i64(5), gg_arg_i64(5), gg_arg_i64(1), gg_arg_i64(5)};
  CHECK(pack(&k_strided, a, 5, err) == GG_OK);
  a[4] = gg_arg_i64(6); /* largest index 4 + 4 * 6 = 28 */
  CHECK(pack(&k_strided, a, 5, err) == GG_ERR_INVALID && strstr(err, "S") && strstr(err, "116 bytes"));
  /* padded: n = 3 rows inside a leading dimension of 7 -> 2 + 4 * 7 + 1 = 31 elements */
  gg_array s31 = fake_array(31 * 4);
  a[0] = gg_arg_array(&s31); a[1] = gg_arg_i64(3); a[4] = gg_arg_i64(7);
  CHECK(pack(&k_strided, a, 5, err) == GG_OK);
  a[1] = gg_arg_i64(4);
  CHECK(pack(&k_strided, a, 5, err) == GG_ERR_INVALID);
  /* strides that wrap the index */
  a[1] = gg_arg_i64(5); a[4] = gg_arg_i64(INT64_C(1) << 62);
  CHECK(pack(&k_strided, a, 5, err) == GG_ERR_INVALID && strstr(err, "overflow"));
  a[4] = gg_arg_i64(INT64_MAX / 3);
  CHECK(pack(&k_strided, a, 5, err) == GG_ERR_INVALID && strstr(err, "overflow"));
  /* zero and negative strides */
  a[4] = gg_arg_i64(0);
  CHECK(pack(&k_strided, a, 5, err) == GG_ERR_INVALID && strstr(err, "S_s1") && strstr(err, "stride 0"));
  a[4] = gg_arg_i64(5); a[3] = gg_arg_i64(-1);
  CHECK(pack(&k_strided, a, 5, err) == GG_ERR_INVALID && strstr(err, "S_s0"));
  /* a stride view whose descriptor lists no strides is refused, not trusted */
  gg_param_desc p[3];
  memcpy(p, p_strided, sizeof p);
  gg_kernel_desc kd = k_strided;
  kd.params = p;
  kd.nparams = 3;
  gg_arg b[3] = {gg_arg_array(&s), gg_arg_i64(5), gg_arg_i64(5)};
  CHECK(pack(&kd, b, 3, err) == GG_ERR_INVALID && strstr(err, "stride"));
}

static gg_module_desc module_of(const gg_kernel_desc *kernels, int n) {
  gg_module_desc d;
  memset(&d, 0, sizeof d);
  d.abi = GG_MODULE_ABI;
  d.name = "hostile";
  d.cuda_source = "";
  d.nkernels = n;
  d.kernels = kernels;
  return d;
}

/* The launch path of gg_launch: nothing that overflows reaches the driver. */
static void test_launch(void) {
  gg_context *ctx = fake_context();
  gg_kernel_desc ks[3] = {k_vec, k_cube, k_vec};
  ks[1].cap_resident = 1;
  ks[2].name = "vec3";
  ks[2].items_per_thread = 3;
  gg_module_desc md = module_of(ks, 3);
  gg_module *mod = NULL;
  CHECK(ggr_module_load_with(ctx, &md, &fake_builder, &mod) == GG_OK);
  if (!mod) return;
  gg_kernel *vec = NULL, *cube = NULL, *vec3 = NULL;
  CHECK(gg_kernel_get(mod, "vec", &vec) == GG_OK);
  CHECK(gg_kernel_get(mod, "cube", &cube) == GG_OK);
  CHECK(gg_kernel_get(mod, "vec3", &vec3) == GG_OK);
  gg_array *x = NULL, *big = NULL;
  CHECK(gg_array_alloc(ctx, GG_SPACE_DEVICE, 16, &x) == GG_OK);
  CHECK(gg_array_alloc(ctx, GG_SPACE_DEVICE, 1000, &big) == GG_OK);

  /* n = 2^62 over a 16-byte array: n * 4 bytes wraps to 0 */
  gg_arg a[2] = {gg_arg_array(x), gg_arg_i64(INT64_C(1) << 62)};
  fake.launches = 0;
  CHECK(gg_launch(vec, NULL, a, 2) == GG_ERR_INVALID);
  CHECK(fake.launches == 0);
  CHECK(strstr(gg_error_detail(), "x") && strstr(gg_error_detail(), "overflow"));
  CHECK(gg_launch_grid(vec, NULL, 1, a, 2) == GG_ERR_INVALID && fake.launches == 0);
  a[1] = gg_arg_i64(4);
  CHECK(gg_launch(vec, NULL, a, 2) == GG_OK && fake.launches == 1 && fake.grid == 1);

  /* grid = ceil(work / (block * items)), work not a power of two */
  gg_array *y = NULL;
  CHECK(gg_array_alloc(ctx, GG_SPACE_DEVICE, 4000012, &y) == GG_OK);
  gg_arg b[2] = {gg_arg_array(y), gg_arg_i64(1000003)};
  CHECK(gg_launch(vec3, NULL, b, 2) == GG_OK && fake.grid == 1303 && fake.block == 256);
  CHECK(gg_launch(vec, NULL, b, 2) == GG_OK && fake.grid == 3907);

  /* a range whose work passes 2^62 (here: passes INT64_MAX) is refused,
   * even with the grid capped at the co-resident blocks */
  gg_arg c[4] = {gg_arg_array(big), gg_arg_i64(0), gg_arg_i64(3037000500), gg_arg_i64(3037000500)};
  /* the view is empty (a = 0) so only the range matters; its work is 0 */
  CHECK(gg_launch(cube, NULL, c, 4) == GG_OK);
  gg_kernel_desc *kc = (gg_kernel_desc *)&ks[1];
  kc->range[0] = (gg_extent_desc){1, -1}; /* range 1 x b x c: no longer empty */
  fake.launches = 0;
  CHECK(gg_launch(cube, NULL, c, 4) == GG_ERR_INVALID && fake.launches == 0);
  CHECK(strstr(gg_error_detail(), "3037000500") && strstr(gg_error_detail(), "2^62"));
  c[2] = gg_arg_i64(INT64_C(1) << 31); c[3] = gg_arg_i64(INT64_C(1) << 31); /* 2^62: allowed */
  CHECK(gg_launch(cube, NULL, c, 4) == GG_OK && fake.grid == 200); /* capped: 2 x 100 SMs */
  c[3] = gg_arg_i64((INT64_C(1) << 31) + 1);
  CHECK(gg_launch(cube, NULL, c, 4) == GG_ERR_INVALID);

  gg_array_free(x);
  gg_array_free(big);
  gg_array_free(y);
  gg_context_free(ctx);
}

/* struct { long long teams; } */
static const gg_param_desc p_team[] = {P_EXT("teams", 0)};

static void test_league(void) {
  gg_context *ctx = fake_context();
  gg_kernel_desc kd = {
    .name = "team", .symbol = "gg_team", .rank = 1, .league = {0, 0}, .block_size = 96,
    .items_per_thread = 1, .grid_rule = GG_GRID_LEAGUE, .cap_resident = 1,
    .args_size = 8, .args_align = 8, .nparams = 1, .params = p_team,
  };
  gg_module_desc md = module_of(&kd, 1);
  gg_module *mod = NULL;
  CHECK(ggr_module_load_with(ctx, &md, &fake_builder, &mod) == GG_OK);
  gg_kernel *k = NULL;
  if (mod) CHECK(gg_kernel_get(mod, "team", &k) == GG_OK);
  if (!k) return;
  gg_arg a[1] = {gg_arg_i64(77)};
  CHECK(gg_launch(k, NULL, a, 1) == GG_OK && fake.grid == 77);
  a[0] = gg_arg_i64((INT64_C(1) << 62) + 1);
  fake.launches = 0;
  CHECK(gg_launch(k, NULL, a, 1) == GG_ERR_INVALID && fake.launches == 0);
  CHECK(strstr(gg_error_detail(), "league"));
  gg_context_free(ctx);
}

/* A gemm's grid: league (the batch) x league_blocks (C's tiles), the
 * product refused before it overflows. */
static void test_league_blocks(void) {
  gg_context *ctx = fake_context();
  gg_kernel_desc kd = {
    .name = "mm", .symbol = "gg_mm", .league = {0, 0}, .block_size = 128,
    .items_per_thread = 1, .grid_rule = GG_GRID_LEAGUE, .league_blocks = 21,
    .args_size = 8, .args_align = 8, .nparams = 1, .params = p_team,
  };
  gg_module_desc md = module_of(&kd, 1);
  gg_module *mod = NULL;
  CHECK(ggr_module_load_with(ctx, &md, &fake_builder, &mod) == GG_OK);
  gg_kernel *k = NULL;
  if (mod) CHECK(gg_kernel_get(mod, "mm", &k) == GG_OK);
  if (!k) return;
  gg_arg a[1] = {gg_arg_i64(37)};
  CHECK(gg_launch(k, NULL, a, 1) == GG_OK && fake.grid == 37 * 21);
  a[0] = gg_arg_i64(1);
  CHECK(gg_launch(k, NULL, a, 1) == GG_OK && fake.grid == 21);
  a[0] = gg_arg_i64((INT64_C(1) << 62) / 21 + 1);
  fake.launches = 0;
  CHECK(gg_launch(k, NULL, a, 1) == GG_ERR_INVALID && fake.launches == 0);
  CHECK(strstr(gg_error_detail(), "league"));
  gg_context_free(ctx);
}

/* Workspace = ws_fixed + ws_per_block * max_grid, computed at load. */
static void test_workspace(void) {
  gg_context *ctx = fake_context();
  gg_kernel_desc kd = k_vec;
  kd.grid_rule = GG_GRID_FIXED;
  kd.grid_fixed = 1000;
  kd.ws_fixed = 8;
  kd.ws_per_block = 64;
  gg_module_desc md = module_of(&kd, 1);
  gg_module *mod = NULL;
  CHECK(ggr_module_load_with(ctx, &md, &fake_builder, &mod) == GG_OK);
  CHECK(fake.last_alloc == 64008);
  gg_module_free(mod);
  /* 2^40 blocks x 2^31 bytes wraps size_t to 8 + 0 bytes */
  const int64_t grids[] = {INT64_C(1) << 40, INT64_C(3000000000017)};
  for (int i = 0; i < 2; i++) {
    kd.grid_fixed = grids[i];
    kd.ws_per_block = i ? 12345 : 1u << 31;
    fake.last_alloc = 0;
    mod = NULL;
    CHECK(ggr_module_load_with(ctx, &md, &fake_builder, &mod) == GG_ERR_INVALID && !mod);
    CHECK(fake.last_alloc == 0);
    CHECK(strstr(gg_error_detail(), "vec") && strstr(gg_error_detail(), "blocks"));
  }
  /* a driver that reports absurd occupancy: the co-resident count stays a
   * valid grid (int overflow otherwise) */
  gg_kernel_desc kr = k_vec;
  kr.grid_rule = GG_GRID_RESIDENT;
  gg_module_desc mr = module_of(&kr, 1);
  fake.occupancy = 0x7fffffff;
  mod = NULL;
  CHECK(ggr_module_load_with(ctx, &mr, &fake_builder, &mod) == GG_OK);
  gg_kernel *k = NULL;
  int blocks = 0;
  if (mod) CHECK(gg_kernel_get(mod, "vec", &k) == GG_OK);
  if (k) CHECK(gg_kernel_max_resident_blocks(k, &blocks) == GG_OK && blocks > 0 && blocks <= 0x7fffffff);
  gg_context_free(ctx);
}

static void test_arrays_and_copies(void) {
  gg_context *ctx = fake_context(), *other = fake_context();
  gg_array *a = NULL, *b = NULL;
  CHECK(gg_array_alloc(ctx, GG_SPACE_DEVICE, SIZE_MAX, &a) == GG_ERR_INVALID && !a);
  CHECK(strstr(gg_error_detail(), "bytes"));
  CHECK(gg_array_alloc(ctx, (gg_space)7, 64, &a) == GG_ERR_INVALID && !a);
  CHECK(gg_array_alloc(ctx, (gg_space)-1, 64, &a) == GG_ERR_INVALID && !a);
  CHECK(gg_array_alloc(ctx, GG_SPACE_DEVICE, 100, &a) == GG_OK);
  CHECK(gg_array_alloc(ctx, GG_SPACE_DEVICE, 100, &b) == GG_OK);
  char host[100] = {0};
  /* offset + bytes wrapping size_t */
  CHECK(gg_copy_from_host(a, SIZE_MAX - 3, host, 8, NULL) == GG_ERR_INVALID);
  CHECK(gg_copy_to_host(host, a, 96, SIZE_MAX - 50, NULL) == GG_ERR_INVALID);
  CHECK(gg_copy(a, 1, b, SIZE_MAX, 99, NULL) == GG_ERR_INVALID);
  CHECK(gg_copy(a, 0, b, 0, 101, NULL) == GG_ERR_INVALID);
  CHECK(gg_copy(a, 1, b, 0, 99, NULL) == GG_OK);
  /* a host range that wraps the address space never reaches the driver */
  void *top = (void *)(UINTPTR_MAX - 7);
  CHECK(gg_copy_to_host(top, a, 0, 16, NULL) == GG_ERR_INVALID);
  CHECK(gg_copy_from_host(a, 0, top, 16, NULL) == GG_ERR_INVALID);
  CHECK(strstr(gg_error_detail(), "wraps"));
  /* a stream of another context */
  gg_stream s = {other, NULL, 0};
  CHECK(gg_copy(a, 0, b, 0, 8, &s) == GG_ERR_INVALID);
  CHECK(gg_copy_from_host(a, 0, host, 8, &s) == GG_ERR_INVALID);
  CHECK(gg_copy_to_host(host, a, 0, 8, &s) == GG_ERR_INVALID);
  CHECK(gg_fill_zero(a, &s) == GG_ERR_INVALID);
  gg_array_free(a);
  gg_array_free(b);
  gg_context_free(other);
  gg_context_free(ctx);
}

int main(void) {
  test_view_bytes();
  test_strides();
  test_launch();
  test_league();
  test_league_blocks();
  test_workspace();
  test_arrays_and_copies();
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("hostile sizes: all checks passed\n");
  return failures ? 1 : 0;
}
