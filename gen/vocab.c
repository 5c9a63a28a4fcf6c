/* vocab.c - the tables of vocab.h. */
#include "patterns.h"
#include "vocab.h"
#include "strbuf.h"

/* Each name table is made from its enum's list (gg_module.h, ir.h), so
 * a name sits at its constant's index. */
#define NAME_(e, name, ...) name,
const char *const ggi_dtype_names[] = {GG_DTYPE_LIST(NAME_) NULL};
const char *const ggi_layout_names[] = {GG_LAYOUT_LIST(NAME_) NULL};
const char *const ggi_space_names[] = {GG_SPACE_LIST(NAME_) NULL};
const char *const ggi_access_names[] = {GG_ACCESS_LIST(NAME_) NULL};
const char *const ggi_op_names[] = {GGI_OP_LIST(NAME_) NULL};
const char *const ggi_strategy_names[] = {GGI_STRATEGY_LIST(NAME_) NULL};
const char *const ggi_launch_names[] = {GG_LAUNCH_LIST(NAME_) NULL};
const char *const ggi_arrangement_names[] = {GG_ARRANGEMENT_LIST(NAME_) NULL};
const char *const ggi_scan_names[] = {GGI_SCAN_LIST(NAME_) NULL};
const char *const ggi_target_names[] = {GGI_TARGET_LIST(NAME_) NULL};
const char *const ggi_exchange_names[] = {GGI_EXCHANGE_LIST(NAME_) NULL};
#undef NAME_

#define PATTERN_(e, name, pattern) pattern,
const gg_pattern ggi_exchange_patterns[] = {GGI_EXCHANGE_LIST(PATTERN_)};
#undef PATTERN_

/* The entries of a NULL-terminated table made above. */
#define COUNT_(names) ((int)(sizeof names / sizeof names[0]) - 1)

typedef struct dtype_info {
  unsigned size;
  int is_float;
  const char *name, *enum_name, *ctype, *host_ctype, *max, *lowest;
} dtype_info;

static const dtype_info dtypes[GG_DTYPE_COUNT] = {
#define INFO_(e, name, size, fl, ctype, host, max, lowest) \
  [e] = {size, fl, name, #e, ctype, host, max, lowest},
  GG_DTYPE_LIST(INFO_)
#undef INFO_
  [GG_PTR] = {8, 0, "ptr", "GG_PTR", "void *", "void *", "0", "0"},
};

static const dtype_info *dtype(gg_dtype t)
{
  return (unsigned)t < GG_DTYPE_COUNT ? &dtypes[t] : &dtypes[GG_PTR];
}

unsigned ggi_dtype_size(gg_dtype t) { return dtype(t)->size; }
const char *ggi_dtype_ctype(gg_dtype t) { return dtype(t)->ctype; }
const char *ggi_dtype_host_ctype(gg_dtype t) { return dtype(t)->host_ctype; }
const char *ggi_dtype_enum(gg_dtype t) { return dtype(t)->enum_name; }
const char *ggi_dtype_name(gg_dtype t) { return (unsigned)t < GG_DTYPE_COUNT ? dtype(t)->name : "?"; }
int ggi_dtype_is_float(gg_dtype t) { return dtype(t)->is_float; }
int ggi_dtype_is_half(gg_dtype t) { return dtype(t)->is_float && dtype(t)->size == 2; }
const char *ggi_dtype_max(gg_dtype t) { return dtype(t)->max; }
const char *ggi_dtype_lowest(gg_dtype t) { return dtype(t)->lowest; }

/* Index into a NULL-terminated table, "?" past its end. */
static const char *nth(const char *const *names, int n, int i)
{
  return i >= 0 && i < n ? names[i] : "?";
}

const char *ggi_op_name(ggi_op op)
{
  return op == GGI_OP_CUSTOM ? "custom" : nth(ggi_op_names, COUNT_(ggi_op_names), (int)op);
}

const char *ggi_strategy_name(ggi_strategy s)
{
  return nth(ggi_strategy_names, COUNT_(ggi_strategy_names), (int)s);
}

const char *ggi_arrangement_name(gg_persistent_layout l)
{
  return nth(ggi_arrangement_names, COUNT_(ggi_arrangement_names), (int)l);
}

const char *ggi_access_name(gg_access a)
{
  return nth(ggi_access_names, COUNT_(ggi_access_names), (int)a);
}

const char *ggi_launch_name(gg_launch_mode l)
{
  return l == GG_LAUNCH_PERSISTENT ? "persistent"
                                   : nth(ggi_launch_names, COUNT_(ggi_launch_names), (int)l);
}

int ggi_arrangement_has_blocks(gg_persistent_layout l)
{
  return l == GG_PLAYOUT_MANY_BLOCKS || l == GG_PLAYOUT_HYBRID;
}

int ggi_arrangement_has_groups(gg_persistent_layout l)
{
  return l == GG_PLAYOUT_THREAD_GROUPS || l == GG_PLAYOUT_HYBRID;
}

int ggi_is_reduce_like(gg_pattern p)
{
  const ggi_pattern_row *r = ggi_pattern_of(p);
  return r && (r->props & GGI_PAT_REDUCE_LIKE);
}

int ggi_is_team_reduce(const ggi_kernel *k)
{
  return ggi_pattern_is(k, GGI_PAT_CONTRIBUTE) && k->into != NULL;
}

int ggi_has_reduction(const ggi_kernel *k)
{
  return ggi_is_reduce_like(k->pattern) || ggi_is_team_reduce(k);
}

gg_dtype ggi_acc_dtype(gg_dtype t)
{
  if (t < 0 || t >= GG_PTR || ggi_dtype_is_half(t)) return GG_F32;
  return t;
}

int ggi_ops_mixed(const ggi_kernel *k)
{
  if (!ggi_pattern_is(k, GGI_PAT_OP_LIST) || !ggi_has_reduction(k)) return 0;
  for (int v = 1; v < k->nvalues && v < GGI_MAX_VALUES; v++)
    if (k->ops[v] != k->ops[0]) return 1;
  return 0;
}

/* Native atomics (both preludes): add on every 4/8-byte type (f64
 * since sm_60), min/max on integers, except 64-bit signed min/max on HIP
 * 5.2 (a CAS loop in hip/prelude.hip).  Everything else - float min/max,
 * prod, custom combiners - is a compare-and-swap loop.  f16/bf16 results
 * accumulate in f32 (ggi_acc_dtype), so `into`'s type never decides. */
int ggi_atomic_needs_cas(ggi_op op, gg_dtype acc, gg_dtype into, unsigned targets)
{
  gg_dtype t = ggi_acc_dtype(acc);
  (void)into;
  switch (op) {
  case GGI_OP_SUM: return 0;
  case GGI_OP_MIN: case GGI_OP_MAX:
    if (ggi_dtype_is_float(t)) return 1;
    if (t == GG_I64 && (targets == 0 || (targets & GGI_TARGET_HIP))) return 1;
    return 0;
  default: return 1; /* prod, custom */
  }
}

void ggi_put_features(ggi_buf *b, unsigned feat)
{
#define FEAT_(f) {f, #f}
  static const struct { unsigned bit; const char *name; } feats[] = {
    FEAT_(GG_FEAT_COOPERATIVE), FEAT_(GG_FEAT_FLOAT_ATOMIC), FEAT_(GG_FEAT_DOUBLE_ATOMIC),
    FEAT_(GG_FEAT_CAS_EMULATION), FEAT_(GG_FEAT_HALF), FEAT_(GG_FEAT_MAPPED),
    FEAT_(GG_FEAT_MANAGED), FEAT_(GG_FEAT_PDL), FEAT_(GG_FEAT_MATHDX),
    FEAT_(GG_FEAT_NVSHMEM)};
#undef FEAT_
  int any = 0;
  for (unsigned i = 0; i < sizeof feats / sizeof feats[0]; i++)
    if (feat & feats[i].bit) {
      ggi_buf_printf(b, "%s%s", any ? " | " : "", feats[i].name);
      feat &= ~feats[i].bit;
      any = 1;
    }
  /* a bit not named above still reaches the descriptor */
  if (feat) ggi_buf_printf(b, "%s0x%xu", any ? " | " : "", feat);
  else if (!any) ggi_buf_puts(b, "0");
}

