/*
 * The examples of docs/language.md (the .lua files of docs/examples) run on a GPU and
 * do what the text says: team_sum/min/max per row, the element order of
 * each layout at rank 3, an empty reduce writes the identity, an
 * exclusive scan starts at the identity, `return;` skips one index, a
 * team reduce writes one result over every team (league 0: the identity).
 * Sizes are not powers of two.  Exits 77 where there is no GPU.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edges.h"
#include "layouts3d.h"
#include "reduce_more.h"
#include "team_reduce.h"
#include "team_total.h"
#include "../gg_check.h"
#include "../expect.h"

#define OK(call) do { gg_status st_ = (call); if (st_) { fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call, gg_strerror(st_), gg_error_detail()); failures++; } } while (0)

static gg_context *ctx;

static gg_array *dev(size_t bytes) {
  gg_array *a = NULL;
  OK(gg_array_alloc(ctx, GG_SPACE_DEVICE, bytes ? bytes : 16, &a));
  return a;
}

static gg_kernel *kernel(gg_module *m, const char *name) {
  gg_kernel *k = NULL;
  OK(gg_kernel_get(m, name, &k));
  return k;
}

static void test_team(gg_module *m) {
  gg_kernel *k = kernel(m, "row_stats");
  const int64_t rows = 37, cols = 1001; /* more columns than a team of 128 threads */
  float *a = malloc(sizeof(float) * rows * cols), got[3][37];
  for (int64_t i = 0; i < rows * cols; i++) a[i] = (float)((i * 7919) % 201 - 100) / 16.0f;
  gg_array *A = dev(sizeof(float) * rows * cols), *out[3];
  for (int o = 0; o < 3; o++) out[o] = dev(sizeof(float) * rows);
  OK(gg_copy_from_host(A, 0, a, sizeof(float) * rows * cols, NULL));
  OK(gg_team_reduce_launch_row_stats(k, NULL, A, out[0], out[1], out[2], rows, cols));
  OK(gg_device_sync(ctx));
  for (int o = 0; o < 3; o++) OK(gg_copy_to_host(got[o], out[o], 0, sizeof(float) * rows, NULL));
  for (int64_t r = 0; r < rows; r++) {
    double s = 0;
    float lo = a[r * cols], hi = lo;
    for (int64_t c = 0; c < cols; c++) {
      float v = a[r * cols + c];
      s += (double)v * v;
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    CHECK(fabs(got[0][r] - s) <= 1e-4 * s);
    CHECK(got[1][r] == lo);
    CHECK(got[2][r] == hi);
  }
  gg_array_free(A);
  for (int o = 0; o < 3; o++) gg_array_free(out[o]);
  free(a);
}

/* T(i, j, k) = i * 10000 + j * 100 + k must land at the offset the docs give */
static void test_layouts(gg_module *m) {
  const int64_t n0 = 5, n1 = 7, n2 = 9, n = n0 * n1 * n2;
  int got[5 * 7 * 9];
  gg_array *T = dev(sizeof got);
  for (int layout = 0; layout < 3; layout++) {
    OK(gg_fill_zero(T, NULL));
    if (layout == 0)
      OK(gg_layouts3d_launch_fill_right(kernel(m, "fill_right"), NULL, T, n0, n1, n2));
    else if (layout == 1)
      OK(gg_layouts3d_launch_fill_left(kernel(m, "fill_left"), NULL, T, n0, n1, n2));
    else /* strides of a left layout, passed as a stride view */
      OK(gg_layouts3d_launch_fill_stride(kernel(m, "fill_stride"), NULL, T, n0, n1, n2, 1, n0,
                                         n0 * n1));
    OK(gg_device_sync(ctx));
    OK(gg_copy_to_host(got, T, 0, sizeof got, NULL));
    int bad = 0;
    for (int64_t i = 0; i < n0; i++)
      for (int64_t j = 0; j < n1; j++)
        for (int64_t k = 0; k < n2; k++) {
          int64_t off = layout == 0 ? (i * n1 + j) * n2 + k : i + (j + k * n1) * n0;
          bad += got[off] != (int)(i * 10000 + j * 100 + k);
        }
    if (bad) fprintf(stderr, "layout %d: %d of %lld elements misplaced\n", layout, bad, (long long)n);
    CHECK(bad == 0);
  }
  gg_array_free(T);
}

static void test_edges(gg_module *m) {
  /* an empty range: min writes +inf */
  gg_array *x = dev(4 * sizeof(float)), *out = dev(sizeof(float));
  float sentinel = -7.0f, r = 0;
  OK(gg_copy_from_host(out, 0, &sentinel, sizeof sentinel, NULL));
  OK(gg_edges_launch_smallest(kernel(m, "smallest"), NULL, x, out, 0));
  OK(gg_device_sync(ctx));
  OK(gg_copy_to_host(&r, out, 0, sizeof r, NULL));
  CHECK(isinf(r) && r > 0);
  gg_array_free(x);
  gg_array_free(out);

  /* exclusive scan: start(0) = 0; and at n = 0 nothing is written */
  const int64_t n = 100003;
  int64_t *cnt = malloc(sizeof(int64_t) * n), *st = malloc(sizeof(int64_t) * n);
  for (int64_t i = 0; i < n; i++) cnt[i] = (i * 31) % 17 + 1;
  gg_array *c = dev(sizeof(int64_t) * n), *s = dev(sizeof(int64_t) * n);
  OK(gg_copy_from_host(c, 0, cnt, sizeof(int64_t) * n, NULL));
  gg_kernel *offsets = kernel(m, "offsets");
  OK(gg_edges_launch_offsets(offsets, NULL, c, s, n));
  OK(gg_device_sync(ctx));
  OK(gg_copy_to_host(st, s, 0, sizeof(int64_t) * n, NULL));
  int64_t run = 0, bad = 0;
  for (int64_t i = 0; i < n; i++) {
    bad += st[i] != run;
    run += cnt[i];
  }
  CHECK(st[0] == 0);
  CHECK(bad == 0);
  int64_t mark = -5, first = 0;
  OK(gg_copy_from_host(s, 0, &mark, sizeof mark, NULL));
  OK(gg_edges_launch_offsets(offsets, NULL, c, s, 0));
  OK(gg_device_sync(ctx));
  OK(gg_copy_to_host(&first, s, 0, sizeof first, NULL));
  CHECK(first == -5);
  gg_array_free(c);
  gg_array_free(s);
  free(cnt);
  free(st);

  /* return; skips one index */
  const int64_t m2 = 1001;
  int v[1001], w[1001];
  for (int i = 0; i < m2; i++) v[i] = i - 500;
  gg_array *xv = dev(sizeof v);
  OK(gg_copy_from_host(xv, 0, v, sizeof v, NULL));
  OK(gg_edges_launch_negate_odd(kernel(m, "negate_odd"), NULL, xv, m2));
  OK(gg_device_sync(ctx));
  OK(gg_copy_to_host(w, xv, 0, sizeof w, NULL));
  int wrong = 0;
  for (int i = 0; i < m2; i++) wrong += w[i] != (v[i] % 2 == 0 ? v[i] : -v[i]);
  CHECK(wrong == 0);
  gg_array_free(xv);
}

/* reduce_more.lua: y^T A x on 33 x 77, min/max/sum and the argmin key on
 * 4097 elements with ties (the smallest index wins). */
static void test_reduce_more(gg_module *m) {
  enum { M = 33, N = 77, L = 4097 };
  static double y[M], A[M * N], x[N];
  static float v[L];
  double want = 0, got = 0;
  for (int i = 0; i < M; i++) y[i] = (i % 5) - 2;
  for (int j = 0; j < N; j++) x[j] = (j % 7) - 3;
  for (int i = 0; i < M * N; i++) A[i] = (i % 11) - 5;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) want += y[i] * A[i * N + j] * x[j];
  gg_array *dy = dev(sizeof y), *dA = dev(sizeof A), *dx = dev(sizeof x), *out = dev(16), *dv = dev(sizeof v);
  OK(gg_copy_from_host(dy, 0, y, sizeof y, NULL));
  OK(gg_copy_from_host(dA, 0, A, sizeof A, NULL));
  OK(gg_copy_from_host(dx, 0, x, sizeof x, NULL));
  OK(gg_reduce_more_launch_ytax(kernel(m, "ytax"), NULL, dy, dA, dx, out, M, N));
  OK(gg_copy_to_host(&got, out, 0, 8, NULL));
  CHECK(got == want);

  float lo = 1e30f, hi = -1e30f, three[3];
  double sum = 0;
  int at = 0;
  for (int i = 0; i < L; i++) {
    v[i] = (float)((i * 37) % 9) - 4.0f; /* -4 first at i = 0, then every 9th */
    lo = v[i] < lo ? v[i] : lo;
    hi = v[i] > hi ? v[i] : hi;
    sum += v[i];
    if (v[i] < v[at]) at = i;
  }
  OK(gg_copy_from_host(dv, 0, v, sizeof v, NULL));
  OK(gg_reduce_more_launch_min_max_sum(kernel(m, "min_max_sum"), NULL, dv, out, L));
  OK(gg_copy_to_host(three, out, 0, 12, NULL));
  CHECK(three[0] == lo && three[1] == hi && fabs(three[2] - sum) < 1e-3);
  unsigned long long key = 0;
  OK(gg_reduce_more_launch_argmin(kernel(m, "argmin"), NULL, dv, out, L));
  OK(gg_copy_to_host(&key, out, 0, 8, NULL));
  CHECK((int)(key & 0xffffffffu) == at);
  gg_array_free(dy); gg_array_free(dA); gg_array_free(dx); gg_array_free(out); gg_array_free(dv);
}

static void test_team_total(gg_module *m) {
  enum { R = 37, C = 1001 };
  static double y[R], A[R * C], x[C];
  static long long I[R * C];
  double want = 0, got = -77;
  long long wmax = -1000000, wneg = 0, rmax[R], total[2] = { -77, -77 };
  for (int i = 0; i < R; i++) y[i] = (i % 5) - 2;
  for (int j = 0; j < C; j++) x[j] = (j % 7) - 3;
  for (int i = 0; i < R * C; i++) A[i] = (i % 11) - 5, I[i] = (i * 7919) % 2001 - 1000;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) want += y[i] * A[i * C + j] * x[j];
  for (int i = 0; i < R * C; i++) wmax = I[i] > wmax ? I[i] : wmax, wneg += I[i] < 0;
  gg_array *dy = dev(sizeof y), *dA = dev(sizeof A), *dx = dev(sizeof x), *out = dev(16), *dI = dev(sizeof I),
           *drow = dev(sizeof rmax);
  OK(gg_copy_from_host(dy, 0, y, sizeof y, NULL));
  OK(gg_copy_from_host(dA, 0, A, sizeof A, NULL));
  OK(gg_copy_from_host(dx, 0, x, sizeof x, NULL));
  OK(gg_copy_from_host(dI, 0, I, sizeof I, NULL));
  OK(gg_team_total_launch_ytax_teams(kernel(m, "ytax_teams"), NULL, dy, dA, dx, out, R, C));
  OK(gg_copy_to_host(&got, out, 0, 8, NULL));
  CHECK(got == want);
  OK(gg_team_total_launch_ytax_teams(kernel(m, "ytax_teams"), NULL, dy, dA, dx, out, 0, C));
  OK(gg_copy_to_host(&got, out, 0, 8, NULL));
  CHECK(got == 0.0); /* league 0: the identity of sum */
  OK(gg_team_total_launch_row_extremes(kernel(m, "row_extremes"), NULL, dI, drow, out, R, C));
  OK(gg_copy_to_host(total, out, 0, 16, NULL));
  OK(gg_copy_to_host(rmax, drow, 0, sizeof rmax, NULL));
  CHECK(total[0] == wmax && total[1] == wneg);
  for (int i = 0; i < R; i++) {
    long long m_ = I[i * C];
    for (int j = 0; j < C; j++) m_ = I[i * C + j] > m_ ? I[i * C + j] : m_;
    CHECK(rmax[i] == m_);
  }
  gg_array_free(dy); gg_array_free(dA); gg_array_free(dx); gg_array_free(out); gg_array_free(dI);
  gg_array_free(drow);
}

int main(void) {
  ctx = gg_check_open(NULL);
  gg_module *team = NULL, *layouts = NULL, *edges = NULL, *more = NULL, *total = NULL;
  OK(gg_module_load(ctx, &gg_module_team_reduce, &team));
  OK(gg_module_load(ctx, &gg_module_layouts3d, &layouts));
  OK(gg_module_load(ctx, &gg_module_edges, &edges));
  OK(gg_module_load(ctx, &gg_module_reduce_more, &more));
  OK(gg_module_load(ctx, &gg_module_team_total, &total));
  if (team) test_team(team);
  if (layouts) test_layouts(layouts);
  if (edges) test_edges(edges);
  if (more) test_reduce_more(more);
  if (total) test_team_total(total);
  gg_context_free(ctx);
  printf("%s\n", failures ? "FAILED" : "every documented example does what the docs say");
  return failures ? 1 : 0;
}
