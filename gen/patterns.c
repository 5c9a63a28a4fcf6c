/* patterns.c - the rows of patterns.h, in gg_pattern order. */
#include <string.h>

#include "patterns.h"
#include "frame.h"
#include "plan.h"

/* What each declaration may give.  Each pattern accepts only the knobs
 * it uses: scan loads element by element (no vector); tile_reduce's items
 * come from its tile and it has one way to reduce (no strategy, no
 * atomics). */
static const char *const for_fields[] = {"pattern", "range", "index", "params", "body", "block",
                                         "items", "vector", "launch", NULL};
static const char *const reduce_fields[] = {
  "pattern", "range", "index", "params", "block", "items", "vector", "launch", "value", "op",
  "combine", "identity", "into", "type", "strategy", "allow_cas", NULL};
static const char *const scan_fields[] = {
  "pattern", "range", "index", "params", "block", "items", "launch", "value", "op",
  "combine", "identity", "into", "type", "kind", NULL};
static const char *const team_fields[] = {"pattern", "params", "body", "launch", "league",
                                          "team_size", "scratch", "op", "combine", "identity",
                                          "into", "type", "strategy", NULL};
static const char *const tile_fields[] = {
  "pattern", "range", "index", "params", "block", "launch", "value", "op",
  "combine", "identity", "into", "type", "tile", NULL};
static const char *const gemm_fields[] = {"pattern", "params", "size", "type", "math", "a", "b",
                                          "c", "op_a", "op_b", "alpha", "beta", "block", "tile",
                                          "split_k", "post", "op", "combine", "identity", "into", "strategy",
                                          NULL};
static const char *const fft_fields[] = {"pattern", "params", "size", "direction", "type",
                                         "input", "output", "block", "post", "between", "op", "combine",
                                         "identity", "into", "strategy", NULL};

/* A kernel: launched by gg_launch through its own function gg_<name>. */
#define KERNEL_ .kind = "kernel", .symbol_prefix = "", .start_call = "gg_launch"

static const ggi_pattern_row rows[] = {
  [GG_PATTERN_FOR] = {
    .name = "for", .enum_name = "GG_PATTERN_FOR", KERNEL_,
    .props = GGI_PAT_RANGE_ND | GGI_PAT_HALO | GGI_PAT_BF16_ACC_HIP | GGI_PAT_GRID_LOOP |
             GGI_PAT_STRIDE,
    .fields = for_fields, .read_shape = ggi_read_range_shape, .read_rest = ggi_read_for_rest,
    .specialize = ggi_spec_for, .plan = ggi_plan_for, .keys = ggi_dict_for,
    .helpers = "global/for_helpers.cuh"},
  [GG_PATTERN_REDUCE] = {
    .name = "reduce", .enum_name = "GG_PATTERN_REDUCE", KERNEL_,
    .props = GGI_PAT_REDUCE_LIKE | GGI_PAT_OP_LIST | GGI_PAT_RANGE_ND | GGI_PAT_FOLD |
             GGI_PAT_NOTES,
    .fields = reduce_fields, .read_shape = ggi_read_range_shape,
    .read_rest = ggi_read_reduce_rest, .specialize = ggi_spec_reduce, .plan = ggi_plan_reduce},
  [GG_PATTERN_SCAN] = {
    .name = "scan", .enum_name = "GG_PATTERN_SCAN", KERNEL_, .props = GGI_PAT_REDUCE_LIKE,
    .fields = scan_fields, .read_shape = ggi_read_range_shape, .read_rest = ggi_read_scan_rest,
    .specialize = ggi_spec_reduce, .plan = ggi_plan_scan},
  [GG_PATTERN_TEAM] = {
    .name = "team", .enum_name = "GG_PATTERN_TEAM", KERNEL_,
    .props = GGI_PAT_CONTRIBUTE | GGI_PAT_OP_LIST | GGI_PAT_LEAGUE |
             GGI_PAT_BF16_ACC_HIP | GGI_PAT_GRID_LOOP | GGI_PAT_TEAMS | GGI_PAT_NOTES,
    .fields = team_fields, .read_shape = ggi_read_team, .read_rest = ggi_read_team_rest,
    .specialize = ggi_spec_team, .plan = ggi_plan_team,
    .league_text = "league: one block per team",
    .contribute_field = "body", .contribute_what = "body then calls",
    .item_only = ggi_body_own_item},
  [GG_PATTERN_TILE_REDUCE] = {
    .name = "tile_reduce", .enum_name = "GG_PATTERN_TILE_REDUCE", KERNEL_, .props = GGI_PAT_REDUCE_LIKE,
    .fields = tile_fields, .read_shape = ggi_read_range_shape, .read_rest = ggi_read_tile_rest,
    .specialize = ggi_spec_reduce, .plan = ggi_plan_tile_reduce},
  [GG_PATTERN_GEMM] = {
    .name = "gemm", .enum_name = "GG_PATTERN_GEMM", KERNEL_,
    .props = GGI_PAT_CONTRIBUTE | GGI_PAT_OP_LIST | GGI_PAT_LEAGUE | GGI_PAT_NOTES |
             GGI_PAT_OWN_TYPE,
    .fields = gemm_fields, .read_shape = ggi_read_gemm, .specialize = ggi_spec_gemm,
    .plan = ggi_gemm_plan, .helpers = "global/gemm_panel.cuh", .mathdx_header = "cublasdx.hpp",
    .league_text = "league: one block per tile of C (and range of K, with split_k) per batch item",
    .contribute_field = "post", .contribute_what = "post statements then call"},
  [GG_PATTERN_FFT] = {
    .name = "fft", .enum_name = "GG_PATTERN_FFT", KERNEL_,
    .props = GGI_PAT_CONTRIBUTE | GGI_PAT_OP_LIST | GGI_PAT_LEAGUE | GGI_PAT_NOTES |
             GGI_PAT_OWN_TYPE,
    .fields = fft_fields, .read_shape = ggi_read_fft, .specialize = ggi_spec_fft,
    .plan = ggi_fft_plan, .keys = ggi_dict_fft, .mathdx_header = "cufftdx.hpp",
    .league_text = "league: one block per batch item",
    .contribute_field = "post", .contribute_what = "post statements then call",
    .item_only = ggi_fft_own_item},
  /* a frame's { exchange = "allreduce" | "broadcast" | "allgather" |
     "alltoall" | "halo", ... } stage: its kernel is made by the loader
     (load_exchange.c), kept by the frame, never a kernel's pattern and
     never launched */
  [GG_PATTERN_ALLREDUCE] = {
    .name = "allreduce", .enum_name = "GG_PATTERN_ALLREDUCE", .kind = "exchange",
    .symbol_prefix = "", .start_call = "a frame's stage", .props = GGI_PAT_PEERS,
    .specialize = ggi_spec_allreduce, .plan = ggi_plan_allreduce,
    .sym_bytes = ggi_allreduce_sym_bytes, .explain_peers = ggi_allreduce_explain},
  [GG_PATTERN_BROADCAST] = {
    .name = "broadcast", .enum_name = "GG_PATTERN_BROADCAST", .kind = "exchange",
    .symbol_prefix = "", .start_call = "a frame's stage", .props = GGI_PAT_PEERS,
    .specialize = ggi_spec_gather, .plan = ggi_plan_gather,
    .sym_bytes = ggi_gather_sym_bytes, .explain_peers = ggi_gather_explain},
  [GG_PATTERN_ALLGATHER] = {
    .name = "allgather", .enum_name = "GG_PATTERN_ALLGATHER", .kind = "exchange",
    .symbol_prefix = "", .start_call = "a frame's stage", .props = GGI_PAT_PEERS,
    .specialize = ggi_spec_gather, .plan = ggi_plan_gather,
    .sym_bytes = ggi_gather_sym_bytes, .explain_peers = ggi_gather_explain},
  [GG_PATTERN_ALLTOALL] = {
    .name = "alltoall", .enum_name = "GG_PATTERN_ALLTOALL", .kind = "exchange",
    .symbol_prefix = "", .start_call = "a frame's stage", .props = GGI_PAT_PEERS,
    .specialize = ggi_spec_alltoall, .plan = ggi_plan_alltoall,
    .sym_bytes = ggi_gather_sym_bytes, .explain_peers = ggi_alltoall_explain},
  [GG_PATTERN_HALO] = {
    .name = "halo", .enum_name = "GG_PATTERN_HALO", .kind = "exchange",
    .symbol_prefix = "", .start_call = "a frame's stage", .props = GGI_PAT_PEERS,
    .specialize = ggi_spec_halo, .plan = ggi_plan_halo,
    .sym_bytes = ggi_halo_sym_bytes, .explain_peers = ggi_halo_explain},
  /* declared with frame "name" { ... } (load_persistent.c), never a
     kernel's pattern: no fields, no readers; specialized after its stages
     (kernels come first in m->kernels) */
  [GG_PATTERN_FRAME] = {
    .name = "frame", .enum_name = "GG_PATTERN_FRAME", .kind = "frame", .symbol_prefix = "frame_",
    .start_call = "gg_session_start", .props = GGI_PAT_CHAIN, .specialize = ggi_spec_frame,
    .plan = ggi_frame_plan, .render = ggi_render_frame, .helpers = "cuda/frame.cuh",
    .helpers_hip = "hip/frame.hip", .explain = ggi_frame_explain},
};

const ggi_pattern_row *ggi_pattern_of(gg_pattern p)
{
  return (unsigned)p < sizeof rows / sizeof rows[0] ? &rows[p] : NULL;
}

const char *ggi_pattern_name(gg_pattern p)
{
  const ggi_pattern_row *r = ggi_pattern_of(p);
  return r ? r->name : "?";
}

/* Made from the rows on first use: C has no way to filter a table at
 * compile time.  The kernel rows come first, so names[p] is row p's. */
const char *const *ggi_pattern_names(void)
{
  static const char *names[sizeof rows / sizeof rows[0] + 1];
  if (!names[0])
    for (size_t p = 0; p < sizeof rows / sizeof rows[0] && strcmp(rows[p].kind, "kernel") == 0; p++)
      names[p] = rows[p].name;
  return names;
}

int ggi_pattern_is(const ggi_kernel *k, unsigned props)
{
  const ggi_pattern_row *r = ggi_pattern_of(k->pattern);
  return r && (r->props & props) == props;
}
