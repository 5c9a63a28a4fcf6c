/*
 * patterns.h - the patterns, one row each, as Lua's lopcodes.h makes the
 * opcodes one table.  A row says what a pattern is to every stage: the
 * fields a workload may give it, how the loader reads them, how its
 * `auto` choices are made, how it is planned and rendered, and the
 * properties the shared code asks about (league, MathDx, ...).  Stages
 * look the row up (ggi_pattern_row) instead of comparing patterns.
 *
 * Adding a pattern: a GG_PATTERN_* constant (gg_module.h, before
 * GG_PATTERN_FRAME), its row in patterns.c with the name workload files
 * give it, and its own files (reader, planner, templates) whose
 * functions the row names.  The kernel rows come first; an exchange's
 * (kind "exchange": made by the loader for a frame's exchange stage,
 * never written as a pattern) after them.
 *
 * The hooks are declared here, by stage; each is defined in that
 * stage's file (or the pattern's own) and called only through the row.
 */
#ifndef GGI_PATTERNS_H
#define GGI_PATTERNS_H

#include <stdint.h>
#include <stdio.h>

#include "ir.h"

struct ggi_decl;
struct ggi_plan;
struct ggi_buf;
struct ggi_dict;

/* Properties the shared code asks about. */
enum {
  GGI_PAT_REDUCE_LIKE = 1u << 0,  /* a value per index combined by an op (reduce_plan.c) */
  GGI_PAT_CONTRIBUTE = 1u << 1,   /* with `into`, threads contribute() to one result */
  GGI_PAT_OP_LIST = 1u << 2,      /* op may list one operator per value */
  GGI_PAT_RANGE_ND = 1u << 3,     /* its range may have 2 or 3 dimensions */
  GGI_PAT_LEAGUE = 1u << 4,       /* its grid is a league (k->league): one block per item */
  GGI_PAT_HALO = 1u << 5,         /* views may have a halo; halos exchanged, views staged */
  GGI_PAT_BF16_ACC_HIP = 1u << 6, /* acc_type bf16 is not refused on hip: none is used */
  GGI_PAT_GRID_LOOP = 1u << 7,    /* threads loop over indices: no grid barrier allowed */
  GGI_PAT_CHAIN = 1u << 8,        /* a frame: a chain of stages run as one command of a
                                     persistent kernel, started through a session */
  GGI_PAT_TEAMS = 1u << 9,        /* teams: index (league rank, team rank), scratch views */
  /* what a stage does, as the frame schedule's proofs see it (frame_deps.c) */
  GGI_PAT_STRIDE = 1u << 10,      /* maps index i to a thread by a grid-stride loop of its
                                     vector; a rank-1 range in chunks of consecutive
                                     indices (common/for.cuh) */
  GGI_PAT_FOLD = 1u << 11,        /* evaluates its values index by index in a grid-stride
                                     fold that may run a for stage of vector 1 first
                                     (reduce_fold.cuh); own-index proofs read its values
                                     as a for's body */
  GGI_PAT_NOTES = 1u << 12,       /* with into, ends with store(), which leaves a note of
                                     its value (gg_result_note, prelude) */
  GGI_PAT_OWN_TYPE = 1u << 13,    /* field type is its own (fft: the transform's); with
                                     into, the accumulator is into's type */
  GGI_PAT_PEERS = 1u << 14,       /* a frame's exchange stage: talks to the frame's other
                                     GPUs through its area of the symmetric workspace
                                     (sym_bytes); its body returns false when the host
                                     aborted the session while it waited
                                     (frame/run_peers.cuh) */
};

typedef void (*ggi_read_fn)(struct ggi_decl *k, ggi_kernel *kn);
typedef int (*ggi_spec_fn)(ggi_module *m, ggi_kernel *k, ggi_diag *d);
typedef int (*ggi_plan_fn)(const ggi_kernel *k, unsigned target, ggi_arena *a,
                           struct ggi_plan *p, ggi_diag *d);
typedef int (*ggi_keys_fn)(const ggi_module *m, const ggi_kernel *k, struct ggi_dict *dict,
                          ggi_arena *a);
typedef int (*ggi_render_fn)(const ggi_module *m, const ggi_kernel *k, unsigned target,
                             const char *templates_dir, struct ggi_buf *out, ggi_diag *d);

typedef struct ggi_pattern_row {
  const char *name;             /* "for": pattern = "for" in workload files, messages, explain */
  const char *enum_name;        /* "GG_PATTERN_FOR": the descriptor's */
  const char *kind;             /* "kernel" or "frame": messages, list, explain */
  const char *symbol_prefix;    /* the function's symbol: gg_<prefix><name> */
  const char *start_call;       /* the runtime call that takes its arguments */
  unsigned props;               /* GGI_PAT_* */
  const char *const *fields;    /* the fields a declaration may give, NULL-terminated */
  ggi_read_fn read_shape;       /* load: range / league / size, before extents are collected */
  ggi_read_fn read_rest;        /* load: body or reduction and launch, after scope checks */
  ggi_spec_fn specialize;       /* specialize: block, items, vector, strategy, why */
  ggi_plan_fn plan;             /* plan: template, grid rule, shared memory, workspace */
  ggi_render_fn render;         /* render: NULL renders plan->template with the kernel's dict */
  ggi_keys_fn keys;             /* render: template keys of the pattern's own, or NULL */
  const char *helpers;          /* render: file-scope helpers, once per module and target */
  const char *helpers_hip;      /* ... the hip one where it differs */
  const char *mathdx_header;    /* render: a MathDx header to include first */
  const char *league_text;      /* explain: what one block of its league is */
  const char *contribute_field; /* load: the field whose statements call contribute() */
  const char *contribute_what;  /* ... as messages say it: "body then calls" */
  int (*item_only)(const ggi_kernel *k, const ggi_param *view); /* plan: a stage that runs
                                   one league item per (pseudo-)block at a time; whether
                                   it touches view only in its own item (frame_deps.c) */
  void (*explain)(const ggi_module *m, const ggi_kernel *k, FILE *out); /* explain: NULL for the
                                   specialization, why and template of every kernel */
  uint64_t (*sym_bytes)(const ggi_kernel *k); /* plan: GGI_PAT_PEERS, the bytes of the frame's
                                   symmetric workspace the stage takes (its area, laid out
                                   by the frame's schedule) */
  void (*explain_peers)(const ggi_kernel *k, FILE *out); /* explain: GGI_PAT_PEERS, what
                                   the stage moves to each peer and what it waits for */
} ggi_pattern_row;

/* The row of p; NULL outside gg_pattern. */
const ggi_pattern_row *ggi_pattern_of(gg_pattern p);
/* The row's name ("?" outside gg_pattern), "frame" included. */
const char *ggi_pattern_name(gg_pattern p);
/* The names a kernel's pattern = "..." may take, NULL-terminated, each at
 * its gg_pattern's index: every row but frame's. */
const char *const *ggi_pattern_names(void);
/* Whether k's pattern has every property in props. */
int ggi_pattern_is(const ggi_kernel *k, unsigned props);

/* ---- the hooks, by stage ---- */

/* load_kernel.c, load_gemm.c (pattern "gemm", params already read),
 * load_fft.c (pattern "fft", params already read) */
void ggi_read_range_shape(struct ggi_decl *k, ggi_kernel *kn);
void ggi_read_team(struct ggi_decl *k, ggi_kernel *kn);
void ggi_read_gemm(struct ggi_decl *k, ggi_kernel *kn);
void ggi_read_fft(struct ggi_decl *k, ggi_kernel *kn);
void ggi_read_for_rest(struct ggi_decl *k, ggi_kernel *kn);
void ggi_read_team_rest(struct ggi_decl *k, ggi_kernel *kn);
void ggi_read_reduce_rest(struct ggi_decl *k, ggi_kernel *kn);
void ggi_read_scan_rest(struct ggi_decl *k, ggi_kernel *kn);
void ggi_read_tile_rest(struct ggi_decl *k, ggi_kernel *kn);

/* specialize.c */
int ggi_spec_for(ggi_module *m, ggi_kernel *k, ggi_diag *d);
int ggi_spec_team(ggi_module *m, ggi_kernel *k, ggi_diag *d);
int ggi_spec_gemm(ggi_module *m, ggi_kernel *k, ggi_diag *d);
int ggi_spec_fft(ggi_module *m, ggi_kernel *k, ggi_diag *d);
int ggi_spec_reduce(ggi_module *m, ggi_kernel *k, ggi_diag *d);
int ggi_spec_frame(ggi_module *m, ggi_kernel *k, ggi_diag *d);

/* exchange_plan.c: the patterns of a frame's exchange stages: allreduce;
 * broadcast and allgather (gather: each element has one owner GPU);
 * alltoall; halo (the ghost rows at each end of a GPU's part) */
int ggi_spec_allreduce(ggi_module *m, ggi_kernel *k, ggi_diag *d);
int ggi_plan_allreduce(const ggi_kernel *k, unsigned target, ggi_arena *a, struct ggi_plan *p,
                       ggi_diag *d);
uint64_t ggi_allreduce_sym_bytes(const ggi_kernel *k);
void ggi_allreduce_explain(const ggi_kernel *k, FILE *out);
int ggi_spec_gather(ggi_module *m, ggi_kernel *k, ggi_diag *d);
int ggi_plan_gather(const ggi_kernel *k, unsigned target, ggi_arena *a, struct ggi_plan *p,
                    ggi_diag *d);
uint64_t ggi_gather_sym_bytes(const ggi_kernel *k);
void ggi_gather_explain(const ggi_kernel *k, FILE *out);
int ggi_spec_alltoall(ggi_module *m, ggi_kernel *k, ggi_diag *d);
int ggi_plan_alltoall(const ggi_kernel *k, unsigned target, ggi_arena *a, struct ggi_plan *p,
                      ggi_diag *d);
void ggi_alltoall_explain(const ggi_kernel *k, FILE *out);
int ggi_spec_halo(ggi_module *m, ggi_kernel *k, ggi_diag *d);
int ggi_plan_halo(const ggi_kernel *k, unsigned target, ggi_arena *a, struct ggi_plan *p,
                  ggi_diag *d);
uint64_t ggi_halo_sym_bytes(const ggi_kernel *k);
void ggi_halo_explain(const ggi_kernel *k, FILE *out);

/* dict.c */
int ggi_dict_for(const ggi_module *m, const ggi_kernel *k, struct ggi_dict *dict, ggi_arena *a);
int ggi_dict_fft(const ggi_module *m, const ggi_kernel *k, struct ggi_dict *dict, ggi_arena *a);

/* plan.c, reduce_plan.c (reduce, scan, tile_reduce; after ggi_specialize,
 * strings in arena a), gemm_plan.c, fft_plan.c, frame.c; each returns 0,
 * or -1 with d->msg set */
int ggi_plan_for(const ggi_kernel *k, unsigned target, ggi_arena *a, struct ggi_plan *p,
                 ggi_diag *d);
int ggi_plan_team(const ggi_kernel *k, unsigned target, ggi_arena *a, struct ggi_plan *p,
                  ggi_diag *d);
int ggi_plan_reduce(const ggi_kernel *k, unsigned target, ggi_arena *a, struct ggi_plan *p,
                    ggi_diag *d);
int ggi_plan_scan(const ggi_kernel *k, unsigned target, ggi_arena *a, struct ggi_plan *p,
                  ggi_diag *d);
int ggi_plan_tile_reduce(const ggi_kernel *k, unsigned target, ggi_arena *a, struct ggi_plan *p,
                         ggi_diag *d);

/* fft_plan.c: fft's item_only (team's is plan.h's ggi_body_own_item) */
int ggi_fft_own_item(const ggi_kernel *k, const ggi_param *view);

#endif
