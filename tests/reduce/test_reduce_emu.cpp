/*
 * test_reduce_emu.cpp - the reduce, scan and tile_reduce templates, as
 * gpugen renders them, run on host threads (emu/prelude.cuh) and checked
 * against a CPU reference.  No GPU needed: this is what CI runs of them.
 *
 * Grids of 1 block x 64 threads (the one-block path), 3 blocks x 96
 * threads (multi-block: tickets, partials, look-back with concurrent
 * blocks, a block size that is not a power of two) and 8 blocks x 32
 * (a one-warp block; scans of 20000 i32 then have 53 tiles of 384, so
 * look-backs cross windows of aggregates).  Sizes 0 (an empty range:
 * reductions write the identity, scans and tiles nothing), 1, 31, 1000,
 * 4097, 20000, the reduce inputs starting 0..3 elements past a 16-byte
 * boundary.  Each kernel keeps its workspace across launches, as the
 * runtime does, so tickets, accumulators and scan flags must be left as
 * found (or tagged by gg_seq).  Integers compare exactly; f64 sums within
 * 1e-12 of sum|x|, products within 1e-9 relative.
 *
 * for kernels with staged loads (gen/plan.c, plan_staging) run on the
 * same grids and on pseudo-blocks, against a CPU loop (check_staged).
 *
 * Reductions and scans also run on the persistent kernels' pseudo-blocks
 * (pseudo_grids: blocks split into 2, 3 or 4 groups, each with its own
 * barrier), where every pseudo-block must also pass as many barriers as
 * the others (check_even_barriers).
 */
#include <cstdio>
#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>
#include <thread>
#include <vector>

#include "reduce_emu.cu"

static int failures, checks;

struct workspace {
  std::vector<unsigned long long> words = std::vector<unsigned long long>(1 << 20); /* 8 MiB, zeroed */
  unsigned seq = 0;
};

/* gg_sync calls of each thread of the last launch. */
static std::vector<unsigned> syncs_of;

/* Run kernel k over nblocks x nthreads host threads, all at once; with
 * groups > 1 each block holds that many pseudo-blocks (gg_emu_grid). */
template <class A>
static void launch(void (*k)(A), const A &args, unsigned nblocks, unsigned nthreads, unsigned groups = 1)
{
  std::barrier<> grid_bar(nblocks * nthreads);
  std::vector<gg_emu_block *> blocks;
  for (unsigned b = 0; b < nblocks; b++) {
    gg_emu_block *eb = new gg_emu_block();
    eb->block_bar = new std::barrier<>(nthreads);
    for (unsigned g = 0; g < groups; g++) eb->group_bar[g] = new std::barrier<>(nthreads / groups);
    for (unsigned w = 0; w < nthreads / 32; w++) eb->warp_bar[w] = new std::barrier<>(32);
    blocks.push_back(eb);
  }
  syncs_of.assign(nblocks * nthreads, 0);
  std::vector<std::thread> threads;
  for (unsigned b = 0; b < nblocks; b++)
    for (unsigned t = 0; t < nthreads; t++)
      threads.emplace_back([=, &grid_bar, &blocks] {
        gg_emu = gg_emu_thread{ b, nblocks, t, nthreads, groups, blocks[b], &grid_bar, 0 };
        k(args);
        syncs_of[b * nthreads + t] = gg_emu.syncs;
      });
  for (auto &t : threads) t.join();
  for (auto *eb : blocks) {
    delete eb->block_bar;
    for (unsigned g = 0; g < groups; g++) delete eb->group_bar[g];
    for (unsigned w = 0; w < nthreads / 32; w++) delete eb->warp_bar[w];
    delete eb;
  }
}

/* After a launch on pseudo-blocks: did every pseudo-block pass as many
 * barriers as the others?  Where one of them, chosen at run time, passes
 * more, compute-sanitizer's racecheck reports hazards that are not there
 * (tests/sanitizer/named_barriers.cu, mode ticket), so the templates keep
 * the counts equal (reduce_finish_ticket.cuh, scan.cuh). */
static void check_even_barriers(const char *name, const unsigned *gr, long long n)
{
  const auto [lo, hi] = std::minmax_element(syncs_of.begin(), syncs_of.end());
  checks++;
  if (*lo != *hi) {
    failures++;
    std::printf("FAIL %s grid %ux%u in %u groups n=%lld: pseudo-blocks passed %u to %u barriers\n",
                name, gr[0], gr[1], gr[2], n, *lo, *hi);
  }
}

template <class A> static void set_hidden(A &a, workspace &ws)
{
  a.gg_ws = ws.words.data();
  if constexpr (requires { a.gg_seq; }) a.gg_seq = ++ws.seq;
}

/* 0: an empty range writes the identity (reduce) or nothing (scan, tiles) */
static const long long sizes[] = { 0, 1, 31, 1000, 4097, 20000 };
static const unsigned grids[][3] = { { 1, 64, 1 }, { 3, 96, 1 }, { 8, 32, 1 } };
/* blocks x threads in groups pseudo-blocks: 4 of 64 on 2 blocks, 9 of 32
 * on 3 blocks, 4 of 32 in one block (hybrid and thread_groups) */
static const unsigned pseudo_grids[][3] = { { 2, 128, 2 }, { 3, 96, 3 }, { 1, 128, 4 } };

static unsigned long long rng = 0x9E3779B97F4A7C15ull;
static long long next_int(long long lo, long long hi)
{
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return lo + (long long)(rng % (unsigned long long)(hi - lo + 1));
}

enum { SUM, MIN, MAX, PROD };

template <class T> static std::vector<T> input(int op, long long n)
{
  std::vector<T> x(n);
  for (auto &v : x) {
    if (op == PROD) v = std::is_integral<T>::value ? (T)(next_int(0, 15) == 0 ? next_int(-3, 3) | 1 : 1)
                                                   : (T)(1.0 + next_int(-1000, 1000) * 1e-6);
    else v = std::is_integral<T>::value ? (T)next_int(-1000, 1000) : (T)(next_int(-1000000, 1000000) * 1e-6);
  }
  return x;
}

template <class T> static T reference(const std::vector<T> &x, int op)
{
  if (op == SUM || op == PROD) {
    if constexpr (std::is_integral<T>::value) { /* wrapping, as the GPU */
      unsigned u = op == SUM ? 0u : 1u;
      for (T v : x) u = op == SUM ? u + (unsigned)v : u * (unsigned)v;
      return (T)u;
    } else {
      T r = op == SUM ? 0 : 1;
      for (T v : x) r = op == SUM ? r + v : r * v;
      return r;
    }
  }
  if (x.empty()) /* the identity of min / max */
    return std::numeric_limits<T>::has_infinity ? (op == MIN ? 1 : -1) * std::numeric_limits<T>::infinity()
           : op == MIN ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
  T r = x[0];
  for (T v : x) r = op == MIN ? (v < r ? v : r) : (v > r ? v : r);
  return r;
}

template <class T> static bool close(T got, T want, int op, double mag)
{
  if constexpr (std::is_integral<T>::value) return got == want;
  else if (op == SUM) return std::fabs(got - want) <= 1e-12 * mag + 1e-300;
  else if (op == PROD) return std::fabs(got - want) <= 1e-9 * std::fabs(want);
  else return got == want;
}

template <class T, class A>
static void check_reduce(const char *name, void (*k)(A), int op, const unsigned (*gr_list)[3] = grids)
{
  workspace ws;
  int off = 0;
  for (int gi = 0; gi < 3; gi++)
    for (long long n : sizes) {
      const unsigned *gr = gr_list[gi];
      std::vector<T> x = input<T>(op, n);
      /* the view starts 0..3 elements past a 16-byte boundary: the vector
       * loads' scalar head and tail */
      off = (off + 1) % 4;
      std::vector<T> buf(n + 4);
      std::copy(x.begin(), x.end(), buf.begin() + off);
      T out[2] = { (T)-77, (T)-77 };
      A a{};
      a.x = buf.data() + off;
      a.out = out;
      a.n = n;
      set_hidden(a, ws);
      launch(k, a, gr[0], gr[1], gr[2]);
      if (gr[2] > 1) check_even_barriers(name, gr, n);
      double mag = 0;
      for (T v : x) mag += std::fabs((double)v);
      T want = reference(x, op);
      checks++;
      if (!close(out[0], want, op, mag)) {
        failures++;
        std::printf("FAIL %s grid %ux%u n=%lld: got %.17g want %.17g\n", name, gr[0], gr[1], n,
                    (double)out[0], (double)want);
      }
    }
}

/* Scan kernel k on `nb` grids gr (blocks x threads), in one workspace. */
template <class T, class A>
static void scan_grids(const char *name, void (*k)(A), bool inclusive, const unsigned (*gr_list)[3], int nb)
{
  workspace ws;
  for (int gi = 0; gi < nb; gi++) {
    const unsigned *gr = gr_list[gi];
    for (long long n : sizes)
      for (int rep = 0; rep < 2; rep++) { /* the second launch meets the first one's flags */
        std::vector<T> x = input<T>(SUM, n), y(n + 1, (T)-77); /* y[n]: nothing past the end */
        A a{};
        a.x = x.data();
        a.y = y.data();
        a.n = n;
        set_hidden(a, ws);
        launch(k, a, gr[0], gr[1], gr[2]);
        if (gr[2] > 1) check_even_barriers(name, gr, n);
        checks++;
        if (y[n] != (T)-77) {
          failures++;
          std::printf("FAIL %s grid %ux%u n=%lld: wrote past the end\n", name, gr[0], gr[1], n);
        }
        T run = 0;
        double mag = 0;
        for (long long i = 0; i < n; i++) {
          T before = run;
          run = (T)(run + x[i]);
          mag += std::fabs((double)x[i]);
          T want = inclusive ? run : before;
          if (!close(y[i], want, SUM, mag)) {
            failures++;
            std::printf("FAIL %s grid %ux%u n=%lld at %lld: got %.17g want %.17g\n", name, gr[0],
                        gr[1], n, i, (double)y[i], (double)want);
            break;
          }
        }
      }
  }
}

/* A scan's classic launch runs exactly its block (the scan body for a
 * whole block strides by that constant), on 1, 3 and 8 blocks; `body`,
 * the persistent kernels' entry (on gg_emu_grid), runs blocks of 64, 96
 * and 32 threads, then pseudo-blocks of 64 and 32 (pseudo_grids), at most
 * the block. */
template <class T, class A>
static void check_scan(const char *name, void (*k)(A), bool inclusive, unsigned block,
                       void (*body)(A) = nullptr)
{
  const unsigned classic[][3] = { { 1, block, 1 }, { 3, block, 1 }, { 8, block, 1 } };
  scan_grids<T>(name, k, inclusive, classic, 3);
  if (body) {
    scan_grids<T>(name, body, inclusive, grids, 3);
    scan_grids<T>(name, body, inclusive, pseudo_grids, 3);
  }
}

template <class A> static void check_tile(const char *name, void (*k)(A), int tile)
{
  for (auto &gr : grids)
    for (long long n : sizes) {
      long long nt = (n + tile - 1) / tile;
      std::vector<int> x = input<int>(SUM, n), out(nt + 1, -77); /* out[nt]: nothing past the end */
      A a{};
      a.x = x.data();
      a.out = out.data();
      a.n = n;
      a.nt = nt;
      launch(k, a, gr[0], gr[1]);
      checks++;
      if (out[nt] != -77) {
        failures++;
        std::printf("FAIL %s grid %ux%u n=%lld: wrote past the end\n", name, gr[0], gr[1], n);
      }
      for (long long t = 0; t < nt; t++) {
        int want = 0;
        for (long long i = t * tile; i < n && i < (t + 1) * tile; i++) want += x[i];
        if (out[t] != want) {
          failures++;
          std::printf("FAIL %s grid %ux%u n=%lld tile %lld: got %d want %d\n", name, gr[0], gr[1],
                      n, t, out[t], want);
          break;
        }
      }
    }
}

static void check_moments()
{
  workspace ws;
  for (auto &gr : grids)
    for (long long n : sizes) {
      std::vector<double> x = input<double>(SUM, n);
      double out[2] = { -77, -77 }, s = 0, s2 = 0, mag = 0;
      gg_args_e_moments a{};
      a.x = x.data();
      a.out = out;
      a.n = n;
      set_hidden(a, ws);
      launch(gg_e_moments, a, gr[0], gr[1]);
      for (double v : x) { s += v; s2 += v * v; mag += std::fabs(v); }
      checks++;
      if (!close(out[0], s, SUM, mag) || !close(out[1], s2, SUM, s2)) {
        failures++;
        std::printf("FAIL e_moments n=%lld: got %.17g %.17g want %.17g %.17g\n", n, out[0], out[1], s, s2);
      }
    }
}

/* y^T A x over an m x n range (A right-major), every grid, several shapes. */
template <class A> static void check_md2(const char *name, void (*k)(A))
{
  static const long long shapes[][2] = { { 0, 5 }, { 1, 1 }, { 33, 77 }, { 7, 300 }, { 300, 7 } };
  workspace ws;
  for (auto &gr : grids)
    for (auto &sh : shapes) {
      long long m = sh[0], n = sh[1];
      std::vector<long long> y(m), x(n), M(m * n);
      for (auto &v : y) v = next_int(-50, 50);
      for (auto &v : x) v = next_int(-50, 50);
      for (auto &v : M) v = next_int(-50, 50);
      long long out = -77, want = 0;
      for (long long i = 0; i < m; i++)
        for (long long j = 0; j < n; j++) want += y[i] * M[i * n + j] * x[j];
      A a{};
      a.y = y.data(); a.A = M.data(); a.x = x.data(); a.out = &out; a.m = m; a.n = n;
      set_hidden(a, ws);
      launch(k, a, gr[0], gr[1]);
      checks++;
      if (out != want) {
        failures++;
        std::printf("FAIL %s grid %ux%u %lldx%lld: got %lld want %lld\n", name, gr[0], gr[1], m, n, out, want);
      }
    }
}

/* sum of T(p,q,r) * (1 + p + 3q + 7r) over an a x b x c range, T
 * layout left (p contiguous): a wrong decode weighs the wrong index. */
template <class A> static void check_md3(const char *name, void (*k)(A))
{
  static const long long shapes[][3] = { { 0, 3, 3 }, { 1, 1, 1 }, { 5, 7, 9 }, { 13, 1, 40 }, { 33, 17, 3 } };
  workspace ws;
  for (auto &gr : grids)
    for (auto &sh : shapes) {
      long long na = sh[0], nb = sh[1], nc = sh[2];
      std::vector<long long> T(na * nb * nc);
      for (auto &v : T) v = next_int(-50, 50);
      long long out = -77, want = 0;
      for (long long p = 0; p < na; p++)
        for (long long q = 0; q < nb; q++)
          for (long long r = 0; r < nc; r++) want += T[p + (q + r * nb) * na] * (1 + p + 3 * q + 7 * r);
      A a{};
      a.T = T.data(); a.out = &out; a.a = na; a.b = nb; a.c = nc;
      set_hidden(a, ws);
      launch(k, a, gr[0], gr[1]);
      checks++;
      if (out != want) {
        failures++;
        std::printf("FAIL %s grid %ux%u %lldx%lldx%lld: got %lld want %lld\n", name, gr[0], gr[1], na,
                    nb, nc, out, want);
      }
    }
}

/* The static 5x7x9 range (right-major), values with ops { sum, max }. */
template <class A> static void check_md3s(const char *name, void (*k)(A))
{
  workspace ws;
  for (auto &gr : grids) {
    std::vector<long long> T(5 * 7 * 9);
    for (auto &v : T) v = next_int(-50, 50);
    long long out[2] = { -77, -77 }, want = 0, mx = T[0];
    for (long long i = 0; i < 5; i++)
      for (long long j = 0; j < 7; j++)
        for (long long l = 0; l < 9; l++) {
          long long v = T[(i * 7 + j) * 9 + l];
          want += v * (1 + i + 3 * j + 7 * l);
          mx = v > mx ? v : mx;
        }
    A a{};
    a.T = T.data(); a.out = out;
    set_hidden(a, ws);
    launch(k, a, gr[0], gr[1]);
    checks++;
    if (out[0] != want || out[1] != mx) {
      failures++;
      std::printf("FAIL %s grid %ux%u: got %lld %lld want %lld %lld\n", name, gr[0], gr[1], out[0], out[1], want, mx);
    }
  }
}

/* op = { min, max, sum, prod } over one pass. */
template <class A> static void check_mixed(const char *name, void (*k)(A))
{
  workspace ws;
  for (auto &gr : grids)
    for (long long n : sizes) {
      std::vector<int> x = input<int>(SUM, n);
      int out[4] = { -77, -77, -77, -77 };
      int mn = std::numeric_limits<int>::max(), mx = std::numeric_limits<int>::lowest();
      unsigned sum = 0, prod = 1;
      for (int v : x) {
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
        sum += (unsigned)v;
        prod *= v % 3 == 0 ? 2u : 1u;
      }
      A a{};
      a.x = x.data(); a.out = out; a.n = n;
      set_hidden(a, ws);
      launch(k, a, gr[0], gr[1]);
      checks++;
      if (out[0] != mn || out[1] != mx || out[2] != (int)sum || out[3] != (int)prod) {
        failures++;
        std::printf("FAIL %s grid %ux%u n=%lld: got %d %d %d %d want %d %d %d %d\n", name, gr[0], gr[1], n,
                    out[0], out[1], out[2], out[3], mn, mx, (int)sum, (int)prod);
      }
    }
}

/* The packed key: the smallest value, and of its ties the smallest index
 * (few distinct values, so ties are everywhere). */
template <class A> static void check_minloc(const char *name, void (*k)(A))
{
  workspace ws;
  for (auto &gr : grids)
    for (long long n : sizes) {
      std::vector<int> x(n);
      for (auto &v : x) v = (int)next_int(-3, 3);
      unsigned long long out = 77;
      long long at = -1;
      for (long long i = 0; i < n; i++)
        if (at < 0 || x[i] < x[at]) at = i;
      A a{};
      a.x = x.data(); a.out = &out; a.n = n;
      set_hidden(a, ws);
      launch(k, a, gr[0], gr[1]);
      checks++;
      unsigned long long want = n == 0 ? ~0ull : (unsigned long long)((unsigned)x[at] ^ 0x80000000u) << 32 | (unsigned long long)at;
      if (out != want) {
        failures++;
        std::printf("FAIL %s grid %ux%u n=%lld: got index %llu value %d want index %lld value %d\n", name,
                    gr[0], gr[1], n, out & 0xffffffffull, (int)((unsigned)(out >> 32) ^ 0x80000000u), at,
                    at >= 0 ? x[at] : 0);
      }
    }
}

/* Team reduces: leagues 0 (the identity), 1, 7 and 1000 rows of 1, 3 or
 * 40 columns, on grids with fewer blocks than teams; contributions from
 * every thread of every team, weighted by the row. */
template <class T, class A> static void check_team(const char *name, void (*k)(A), int op)
{
  static const long long leagues[] = { 0, 1, 7, 1000 }, widths[] = { 1, 3, 40 };
  workspace ws;
  for (auto &gr : grids)
    for (long long rows : leagues)
      for (long long cols : widths) {
        std::vector<T> M(rows * cols);
        for (auto &v : M) v = std::is_integral<T>::value ? (T)next_int(-1000, 1000) : (T)(next_int(-1000000, 1000000) * 1e-6);
        std::vector<T> w;
        for (long long r = 0; r < rows; r++)
          for (long long c = 0; c < cols; c++) w.push_back(M[r * cols + c] * (T)(1 + r % 5));
        T want;
        if (op == SUM) { want = 0; for (T v : w) want += v; }
        else want = reference(w, MAX);
        double mag = 0;
        for (T v : w) mag += std::fabs((double)v);
        T out = (T)-77;
        A a{};
        a.A = M.data(); a.out = &out; a.rows = rows; a.cols = cols;
        set_hidden(a, ws);
        launch(k, a, gr[0], gr[1]);
        checks++;
        if (!close(out, want, op, mag)) {
          failures++;
          std::printf("FAIL %s grid %ux%u %lldx%lld: got %.17g want %.17g\n", name, gr[0], gr[1], rows, cols,
                      (double)out, (double)want);
        }
      }
}

/* op = { min, max, sum }: sum counts the contributions; threads past the
 * row's width return before contributing. */
static void check_team_mixed()
{
  static const long long leagues[] = { 0, 1, 7, 1000 }, widths[] = { 1, 3, 40 };
  workspace ws;
  for (auto &gr : grids)
    for (long long rows : leagues)
      for (long long cols : widths) {
        std::vector<long long> M(rows * cols);
        for (auto &v : M) v = next_int(-1000, 1000);
        long long mn = std::numeric_limits<long long>::max(), mx = std::numeric_limits<long long>::lowest();
        for (long long v : M) { mn = v < mn ? v : mn; mx = v > mx ? v : mx; }
        long long out[3] = { -77, -77, -77 };
        gg_args_team_mixed a{};
        a.A = M.data(); a.out = out; a.rows = rows; a.cols = cols;
        set_hidden(a, ws);
        launch(gg_team_mixed, a, gr[0], gr[1]);
        checks++;
        if (out[0] != mn || out[1] != mx || out[2] != rows * cols) {
          failures++;
          std::printf("FAIL team_mixed grid %ux%u %lldx%lld: got %lld %lld %lld want %lld %lld %lld\n", gr[0], gr[1],
                      rows, cols, out[0], out[1], out[2], mn, mx, rows * cols);
        }
      }
}

#define TEAM(s)                                                                                 \
  check_team<long long>("team_" #s "_sum_i64", gg_team_##s##_sum_i64, SUM);                     \
  check_team<long long>("team_" #s "_max_i64", gg_team_##s##_max_i64, MAX);                     \
  check_team<double>("team_" #s "_sum_f64", gg_team_##s##_sum_f64, SUM);                        \
  check_team<double>("team_" #s "_max_f64", gg_team_##s##_max_f64, MAX);

#define MD(s)                                                                                   \
  check_md2("md2_" #s, gg_md2_##s);                                                             \
  check_md3("md3_" #s, gg_md3_##s);                                                             \
  check_md3s("md3s_" #s, gg_md3s_##s);                                                          \
  check_minloc("minloc_" #s, gg_minloc_##s);

#define STRAT(s)                                                                                \
  check_reduce<int>("e_" #s "_sum_i32", gg_e_##s##_sum_i32, SUM);                               \
  check_reduce<int>("e_" #s "_min_i32", gg_e_##s##_min_i32, MIN);                               \
  check_reduce<int>("e_" #s "_max_i32", gg_e_##s##_max_i32, MAX);                               \
  check_reduce<int>("e_" #s "_prod_i32", gg_e_##s##_prod_i32, PROD);                            \
  check_reduce<double>("e_" #s "_sum_f64", gg_e_##s##_sum_f64, SUM);                            \
  check_reduce<double>("e_" #s "_min_f64", gg_e_##s##_min_f64, MIN);                            \
  check_reduce<double>("e_" #s "_max_f64", gg_e_##s##_max_f64, MAX);                            \
  check_reduce<double>("e_" #s "_prod_f64", gg_e_##s##_prod_f64, PROD);                         \
  std::printf("strategy %s: %d failures so far\n", #s, failures);                               \
  std::fflush(stdout);

/* A reduction's body on the persistent kernels' pseudo-blocks
 * (pseudo_grids): every strategy a persistent kernel may run (grid_sync
 * needs a cooperative launch), an i32 sum and an f64 product (two of the
 * four operators and both types: the tails do not depend on them). */
#define REDUCE_BODY(name) +[](gg_args_##name a) { GG_NS_##name::gg_body(a, gg_emu_grid()); }
#define PSEUDO(s)                                                                               \
  check_reduce<int>("e_" #s "_sum_i32 (pseudo-blocks)", REDUCE_BODY(e_##s##_sum_i32), SUM,        \
                    pseudo_grids);                                                              \
  check_reduce<double>("e_" #s "_prod_f64 (pseudo-blocks)", REDUCE_BODY(e_##s##_prod_f64), PROD,  \
                       pseudo_grids);

/* The for kernels of emu.lua whose loads the plan staged: every grid,
 * pseudo-blocks too (as a persistent kernel runs the body), every size,
 * against the body run index by index on the CPU.  That the plan stages
 * them is checked by their explain goldens (tests/gen/list/emu.explain.*). */

template <class T> static void expect_same(const char *what, const std::vector<T> &got,
                                           const std::vector<T> &want, long long n, unsigned b, unsigned t)
{
  checks++;
  for (size_t i = 0; i < want.size(); i++)
    if (got[i] != want[i]) {
      failures++;
      std::printf("FAIL %s n=%lld grid %ux%u: [%zu] = %lld, want %lld\n", what, n, b, t, i,
                  (long long)got[i], (long long)want[i]);
      return;
    }
}

static void check_staged()
{
  std::vector<std::array<unsigned, 3>> all;
  for (auto &gr : grids) all.push_back({ gr[0], gr[1], gr[2] });
  for (auto &gr : pseudo_grids) all.push_back({ gr[0], gr[1], gr[2] });
  for (auto &gr : all)
    for (long long n : sizes) {
      std::vector<int> x = input<int>(SUM, n), y = input<int>(SUM, n), z(n, -77);
      std::vector<int> wx = x, wz = z;
      for (long long i = 0; i < n; i++) {
        if (y[i] % 5 == 0) continue;
        wx[i] = wx[i] * 3 + y[i];
        if (y[i] % 2 == 0) wz[i] = wx[i] - 1;
      }
      gg_args_f_affine a{};
      a.x = x.data(); a.y = y.data(); a.z = z.data(); a.n = n;
      launch(+[](gg_args_f_affine a) { GG_NS_f_affine::gg_body(a, gg_emu_grid()); }, a, gr[0], gr[1], gr[2]);
      expect_same("f_affine x", x, wx, n, gr[0], gr[1]);
      expect_same("f_affine z", z, wz, n, gr[0], gr[1]);

      std::vector<long long> v = input<long long>(SUM, n), wv = v;
      for (auto &e : wv) e = e * 2 + 1;
      gg_args_f_vec b{};
      b.x = v.data(); b.n = n;
      launch(+[](gg_args_f_vec a) { GG_NS_f_vec::gg_body(a, gg_emu_grid()); }, b, gr[0], gr[1], gr[2]);
      expect_same("f_vec", v, wv, n, gr[0], gr[1]);

      /* m x q, q = 7: rows of a length that is no multiple of anything */
      const long long q = 7, m = n / q;
      std::vector<int> A = input<int>(SUM, m * q), B = input<int>(SUM, m * q), wA = A;
      for (long long i = 0; i < m; i++)
        for (long long j = 0; j < q; j++) wA[i * q + j] += 7 * B[i + j * m]; /* A right, B left */
      gg_args_f_md c{};
      c.A = A.data(); c.B = B.data(); c.m = m; c.n = q;
      launch(+[](gg_args_f_md a) { GG_NS_f_md::gg_body(a, gg_emu_grid()); }, c, gr[0], gr[1], gr[2]);
      expect_same("f_md", A, wA, m * q, gr[0], gr[1]);
    }
}

int main()
{
  STRAT(global_atomic)
  STRAT(shared_atomic)
  STRAT(warp_shuffle)
  STRAT(shared_tree)
  STRAT(cg_tile)
  STRAT(grid_sync)
  STRAT(deterministic)
  PSEUDO(global_atomic)
  PSEUDO(shared_atomic)
  PSEUDO(warp_shuffle)
  PSEUDO(shared_tree)
  PSEUDO(cg_tile)
  PSEUDO(deterministic)
  std::printf("reductions on pseudo-blocks: %d failures so far\n", failures);
  std::fflush(stdout);
  check_moments();
  MD(global_atomic)
  MD(shared_atomic)
  MD(warp_shuffle)
  MD(shared_tree)
  MD(cg_tile)
  MD(grid_sync)
  MD(deterministic)
  check_mixed("mixed_warp_shuffle", gg_mixed_warp_shuffle);
  check_mixed("mixed_shared_tree", gg_mixed_shared_tree);
  check_mixed("mixed_cg_tile", gg_mixed_cg_tile);
  check_mixed("mixed_grid_sync", gg_mixed_grid_sync);
  check_mixed("mixed_deterministic", gg_mixed_deterministic);
  std::printf("2-D/3-D, mixed operators, minloc: %d failures so far\n", failures);
  TEAM(warp_shuffle)
  TEAM(shared_tree)
  TEAM(cg_tile)
  TEAM(deterministic)
  check_team_mixed();
  std::printf("team reduces: %d failures so far\n", failures);
#define SCAN_BODY(name) +[](gg_args_##name a) { GG_NS_##name::gg_body(a, gg_emu_grid()); }
  check_scan<int>("s_inclusive_i32", gg_s_inclusive_i32, true, 96, SCAN_BODY(s_inclusive_i32));
  check_scan<int>("s_exclusive_i32", gg_s_exclusive_i32, false, 96, SCAN_BODY(s_exclusive_i32));
  check_scan<double>("s_inclusive_f64", gg_s_inclusive_f64, true, 96, SCAN_BODY(s_inclusive_f64));
  check_scan<double>("s_exclusive_f64", gg_s_exclusive_f64, false, 96, SCAN_BODY(s_exclusive_f64));
  check_scan<int>("s_inclusive_i32_b32", gg_s_inclusive_i32_b32, true, 32);
  check_scan<unsigned long long>("s_inclusive_u64_b32", gg_s_inclusive_u64_b32, true, 32);
  std::printf("scans: %d failures so far\n", failures);
  check_tile("t_2", gg_t_2, 2);
  check_tile("t_3", gg_t_3, 3);
  check_tile("t_16", gg_t_16, 16);
  check_tile("t_33", gg_t_33, 33);
  check_tile("t_100", gg_t_100, 100);
  check_tile("t_1024", gg_t_1024, 1024);
  check_staged();
  std::printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
