/*
 * vocab.h - the generator's vocabulary, defined once: how every element
 * type, op, strategy, layout (a view's memory order), space,
 * access, launch mode and arrangement (a persistent kernel's blocks and
 * pseudo-blocks, written `layout = ...` too) is spelled in workload
 * files, and what an element type is in generated code.  The loader
 * parses with these tables, the planner and the emitter print with them;
 * the element types come from GG_DTYPE_LIST (gg_module.h), which the
 * runtime reads too.
 *
 * Name tables are made from each enum's list (X(enum, name): gg_module.h,
 * ir.h), so they are in enum order; they are NULL-terminated, so the
 * loader can offer them as "one of a|b|c" and search them for "did you
 * mean".  Pattern names are the pattern rows' (patterns.h).
 */
#ifndef GGI_VOCAB_H
#define GGI_VOCAB_H

#include "ir.h"

extern const char *const ggi_dtype_names[];     /* gg_dtype, without GG_PTR */
extern const char *const ggi_layout_names[];    /* gg_layout */
extern const char *const ggi_space_names[];     /* gg_space */
extern const char *const ggi_access_names[];    /* gg_access */
extern const char *const ggi_op_names[];        /* ggi_op, without custom (written as combine) */
extern const char *const ggi_strategy_names[];  /* ggi_strategy */
extern const char *const ggi_launch_names[];    /* gg_launch_mode a workload may write */
extern const char *const ggi_arrangement_names[]; /* gg_persistent_layout */
extern const char *const ggi_scan_names[];      /* ggi_scan_kind */
extern const char *const ggi_target_names[];    /* GGI_TARGET_* bit order */
extern const char *const ggi_exchange_names[];  /* ggi_exchange_kind */
extern const gg_pattern ggi_exchange_patterns[]; /* ggi_exchange_kind: its stage kernel's */

/* An element type in generated code: size in bytes, device C type (the
 * kernels), host C type (the module header's mirror structs), enum
 * constant (the descriptor), spelling (messages, explain), whether it is
 * a floating type, and the largest / lowest value as a device literal
 * (the identities of min and max).  GG_PTR is a hidden 8-byte pointer. */
unsigned ggi_dtype_size(gg_dtype t);
const char *ggi_dtype_ctype(gg_dtype t);
const char *ggi_dtype_host_ctype(gg_dtype t);
const char *ggi_dtype_enum(gg_dtype t);
const char *ggi_dtype_name(gg_dtype t);
int ggi_dtype_is_float(gg_dtype t);
/* A 16-bit float (f16, bf16: floating and 2 bytes in GG_DTYPE_LIST):
 * passed from the host as a float, computed and accumulated in f32
 * (ggi_acc_dtype), and a GG_FEAT_HALF feature. */
int ggi_dtype_is_half(gg_dtype t);
const char *ggi_dtype_max(gg_dtype t);
const char *ggi_dtype_lowest(gg_dtype t);

/* Names for messages and reports ("?" outside the enum). */
const char *ggi_op_name(ggi_op op);              /* "custom" included */
const char *ggi_strategy_name(ggi_strategy s);
const char *ggi_arrangement_name(gg_persistent_layout l);
const char *ggi_access_name(gg_access a);
const char *ggi_launch_name(gg_launch_mode l);   /* "persistent" included */

/* Feature bits (GG_FEAT_*) as the C expression the descriptor carries:
 * "GG_FEAT_HALF | GG_FEAT_MAPPED", or "0". */
struct ggi_buf;
void ggi_put_features(struct ggi_buf *b, unsigned feat);

/* Persistent arrangements (the workload's layout = "..." of a persistent
 * kernel): several hardware blocks (many_blocks, hybrid);
 * pseudo-blocks inside a block (thread_groups, hybrid). */
int ggi_arrangement_has_blocks(gg_persistent_layout l);
int ggi_arrangement_has_groups(gg_persistent_layout l);

/* reduce, scan and tile_reduce: a value per index combined by an op. */
int ggi_is_reduce_like(gg_pattern p);
/* A team kernel, or an fft with post, with `into`: its threads
 * contribute() to one result (team_reduce.cuh). */
int ggi_is_team_reduce(const ggi_kernel *k);
/* Reduces with an operator and an accumulator: reduce-like or a team reduce. */
int ggi_has_reduction(const ggi_kernel *k);
/* The type an accumulation of t runs in: t itself, but f32 for the
 * 16-bit floats (their sums lose digits after a few thousand terms).
 * The types for which it is t are those a reduction's type = "..." takes. */
gg_dtype ggi_acc_dtype(gg_dtype t);
/* 1 when a reduce's values have different operators (op = { "min", "max" }). */
int ggi_ops_mixed(const ggi_kernel *k);

/* Does merging with an atomic of op on acc_type (into: the output's
 * element type) need a compare-and-swap loop on target?  A fact of the
 * preludes' atomics, which the loader (to refuse it without allow_cas)
 * and the planner (to emit it) both read here.  target 0: on any target
 * the kernel may run on (the union of what CUDA and HIP lack). */
int ggi_atomic_needs_cas(ggi_op op, gg_dtype acc_type, gg_dtype into, unsigned targets);

#endif
