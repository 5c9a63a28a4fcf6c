/* own_index.c - the planner's proofs that a kernel touches a view only
 * at its own thread's element (plan.h says what each proves and who reads
 * it): a scan of the body's tokens, conservative on purpose. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"
#include "patterns.h"
#include "plan.h"

/* The call whose '(' is at p: 1 when its arguments are exactly the
 * identifiers idx[0..rank-1], with *end just past its ')'. */
static int own_call(const char *s, size_t n, size_t p, const char *const *idx, int rank,
                    size_t *end)
{
  size_t e;
  ggi_tok k;
  for (int d = 0; d < rank; d++) {
    p = ggi_next_tok(s, n, p + 1, &e, &k); /* past '(' or ',' */
    if (k != GGI_T_IDENT || !ggi_same_word(s, p, e, idx[d])) return 0;
    p = ggi_next_tok(s, n, e, &e, &k);
    if (k != GGI_T_PUNCT || s[p] != (d == rank - 1 ? ')' : ',')) return 0;
  }
  *end = e;
  return 1;
}

/* The call whose '(' follows s[..e): 1 when its first argument is exactly
 * the identifier `first` (then ',' or ')'), with *end just past it. */
static int call_from(const char *s, size_t n, size_t e, const char *first, size_t *end)
{
  size_t p, pe;
  ggi_tok k;
  p = ggi_next_tok(s, n, e, &pe, &k);
  if (k != GGI_T_PUNCT || s[p] != '(') return 0;
  p = ggi_next_tok(s, n, pe, &pe, &k);
  if (k != GGI_T_IDENT || !ggi_same_word(s, p, pe, first)) return 0;
  *end = pe;
  p = ggi_next_tok(s, n, pe, &pe, &k);
  return k == GGI_T_PUNCT && (s[p] == ',' || s[p] == ')');
}

/* The next identifier at or after p, *e its end: n at the end of the
 * text, SIZE_MAX when a '#' (a directive), '&' (an address or reference)
 * or '[' (a lambda, capture or structured binding) comes first - text
 * the proofs below give up on. */
static size_t next_ident(const char *s, size_t n, size_t p, size_t *e)
{
  ggi_tok k;
  for (; (p = ggi_next_tok(s, n, p, e, &k)) < n; p = *e) {
    if (k == GGI_T_PUNCT && (s[p] == '#' || s[p] == '&' || s[p] == '[')) return SIZE_MAX;
    if (k == GGI_T_IDENT) return p;
  }
  return n;
}

/* The kernel's views by name: the scans below meet every identifier of
 * a body, and a walk over up to 1000 parameters for each made a kernel
 * of 1000 views take seconds (the scans run once per view: the cube of
 * the size).  An open-addressing table of the views; NULL slots empty. */
typedef struct view_set {
  const ggi_param **slot;
  size_t mask;
} view_set;

static size_t name_hash(const char *s, size_t n)
{
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return (size_t)h;
}

/* 0, or -1 when out of memory (the caller then proves nothing). */
static int view_set_open(view_set *vs, const ggi_kernel *kn)
{
  size_t cap = 16;
  while (cap < 2 * (size_t)kn->nparams) cap *= 2;
  vs->mask = cap - 1;
  if (!(vs->slot = calloc(cap, sizeof *vs->slot))) return -1;
  for (int i = 0; i < kn->nparams; i++) {
    const ggi_param *pp = &kn->params[i];
    if (pp->rank < 1 || !pp->name) continue;
    size_t h = name_hash(pp->name, strlen(pp->name)) & vs->mask;
    while (vs->slot[h]) h = (h + 1) & vs->mask;
    vs->slot[h] = pp;
  }
  return 0;
}

static void view_set_free(view_set *vs) { free(vs->slot); }

/* The view named s[p..e) (an identifier), or NULL. */
static const ggi_param *view_at(const view_set *vs, const char *s, size_t p, size_t e)
{
  for (size_t h = name_hash(s + p, e - p) & vs->mask; vs->slot[h]; h = (h + 1) & vs->mask)
    if (ggi_same_word(s, p, e, vs->slot[h]->name)) return vs->slot[h];
  return NULL;
}

/* The call of a halo view whose '(' is at p: just past its matching ')'
 * (n when unbalanced); 0 when a '(' inside it opens a statement
 * expression "({", the one way to declare a name inside an argument. */
static size_t halo_call_end(const char *s, size_t n, size_t p)
{
  int depth = 0;
  size_t e;
  ggi_tok k;
  for (; (p = ggi_next_tok(s, n, p, &e, &k)) < n; p = e) {
    if (k != GGI_T_PUNCT) continue;
    if (s[p] == '(') {
      size_t q, qe;
      ggi_tok qk;
      q = ggi_next_tok(s, n, e, &qe, &qk);
      if (qk == GGI_T_PUNCT && s[q] == '{') return 0;
      depth++;
    } else if (s[p] == ')' && --depth == 0) {
      return e;
    }
  }
  return n;
}

/* 1 when every use of `view` in the body is V(i, j, ...) with the range's
 * index names in order, and the index names appear nowhere else: only as
 * the whole argument list of some view's call, or inside the arguments of
 * a call of a view declared with a halo (H(i - 1): its macro checks the
 * index at run time).  So no statement can
 * rename, shift or redeclare an index (i = i + 1, long long a = ..., i = a,
 * [u, i], auto... i: each puts an index outside such a call) and the body
 * holds no '&' (no address, no reference bound to V(i), no rvalue
 * reference), no '[' (no lambda, capture or structured binding), no
 * directive, no name of gpugen's own (gg_...) and none of opaque_text's
 * spellings.  Conservative on
 * purpose: a stage that fails keeps its grid barrier. */
static int own_index_marks(const ggi_kernel *kn, const view_set *vs, const char *s,
                           char *otherwise);
/* Each view j of the kernel: own[j] = 1 when text s touches it only as
 * V(i, ...), by the rules above; one scan of s for every view. */
static void own_index_text(const ggi_kernel *kn, const char *s, char *own)
{
  memset(own, 0, (size_t)kn->nparams);
  if (!s || kn->rank < 1 || ggi_opaque_text(s)) return;
  for (int d = 0; d < kn->rank; d++)
    if (!kn->index[d]) return; /* unnamed: the body cannot say V(i) */
  view_set vs;
  char *otherwise = calloc((size_t)kn->nparams + 1, 1);
  if (!otherwise || view_set_open(&vs, kn)) {
    free(otherwise);
    return;
  }
  if (own_index_marks(kn, &vs, s, otherwise))
    for (int j = 0; j < kn->nparams; j++)
      own[j] = kn->params[j].rank == kn->rank && !otherwise[j];
  view_set_free(&vs);
  free(otherwise);
}
/* The scan: 0 when s breaks a rule every view shares; else 1, with
 * otherwise[j] set for each view j used other than as V(i, ...).  (A view
 * used otherwise is then scanned on as any other view: the views judged
 * together give what each judged alone would.) */
static int own_index_marks(const ggi_kernel *kn, const view_set *vs, const char *s,
                           char *otherwise)
{
  size_t n = strlen(s), p, e, in_halo = 0; /* index names allowed before in_halo */
  for (p = 0; (p = next_ident(s, n, p, &e)) < n; p = e) {
    /* gpugen's own names (gg_s, the staged registers; gg_args_<k>, a way
       to the views' pointers; gg_lin): the body could reach an element
       past its view's macro */
    if (e - p > 3 && strncmp(s + p, "gg_", 3) == 0) return 0;
    const ggi_param *w = view_at(vs, s, p, e);
    if (w) {
      size_t q, qe, end;
      ggi_tok qk;
      q = ggi_next_tok(s, n, e, &qe, &qk);
      if (qk == GGI_T_PUNCT && s[q] == '(' &&
          own_call(s, n, q, (const char *const *)kn->index, kn->rank, &end)) {
        e = end; /* V(i, ...): the index names in it are this thread's */
        continue;
      }
      otherwise[w - kn->params] = 1; /* this view, used otherwise */
      if (qk == GGI_T_PUNCT && s[q] == '(' && w->halo > 0) {
        /* H(i - 1) of a view with a halo: the index in an argument its
           macro checks; i is const and nothing in the argument can
           redeclare it (no '&', no '[', no "({"), so it stays the own
           index.  The argument is scanned on like the rest of the body:
           a view inside it is judged by the same rules. */
        if (q >= in_halo) { /* a call inside another was scanned with it */
          if ((end = halo_call_end(s, n, q)) == 0) return 0;
          in_halo = end;
        }
        e = qe;
      }
      continue;
    }
    if (p < in_halo) continue; /* inside a halo view's call */
    for (int d = 0; d < kn->rank; d++)
      if (ggi_same_word(s, p, e, kn->index[d])) return 0; /* an index outside V(i, ...) */
  }
  return p == n; /* not SIZE_MAX: no text the proof gives up on */
}

/* A reduce's value expressions are what its body is to a for kernel: the
 * text evaluated at each index (GGI_PAT_FOLD). */
static void own_index_all(const ggi_kernel *kn, char *own)
{
  if (!ggi_pattern_is(kn, GGI_PAT_FOLD)) {
    own_index_text(kn, kn->body, own);
    return;
  }
  memset(own, kn->nvalues > 0, (size_t)kn->nparams);
  char *one = malloc((size_t)kn->nparams + 1);
  if (!one) {
    memset(own, 0, (size_t)kn->nparams);
    return;
  }
  for (int v = 0; v < kn->nvalues; v++) {
    own_index_text(kn, kn->values[v], one);
    for (int j = 0; j < kn->nparams; j++) own[j] &= one[j];
  }
  free(one);
}

const char *ggi_body_own_index_table(const ggi_kernel *kn, ggi_arena *a)
{
  char *own = kn->nparams > 0 ? ggi_alloc(a, (size_t)kn->nparams) : NULL;
  if (own) own_index_all(kn, own);
  return own;
}

int ggi_body_own_index(const ggi_kernel *kn, const ggi_param *view)
{
  if (!view || view < kn->params || view >= kn->params + kn->nparams) return 0;
  if (kn->own_index) return kn->own_index[view - kn->params];
  char *own = malloc((size_t)kn->nparams);
  if (!own) return 0;
  own_index_all(kn, own);
  int r = own[view - kn->params];
  free(own);
  return r;
}

/* 1 when every use of `view` in a team body is V(league_rank, ...): the
 * team's own league item first (any indices after it), and league_rank
 * appears nowhere else but as the first index of some view's call - not
 * assigned, shifted, copied or captured.  The same conservative rules as
 * ggi_body_own_index otherwise: no '&', no '[', no directive, none of
 * opaque_text's spellings.  The indices after the item are trusted to
 * stay inside the view's extents (out of them is out of bounds anyway). */
int ggi_body_own_item(const ggi_kernel *kn, const ggi_param *view)
{
  static const char *const item = "league_rank";
  const char *s = kn->body;
  if (!s || !view || view->rank < 1 || !ggi_pattern_is(kn, GGI_PAT_TEAMS) || ggi_opaque_text(s)) return 0;
  view_set vs;
  if (view_set_open(&vs, kn)) return 0;
  size_t n = strlen(s), p, e;
  int own = 1;
  for (p = 0; own && (p = next_ident(s, n, p, &e)) < n; p = e) {
    if (view_at(&vs, s, p, e)) {
      size_t end;
      if (call_from(s, n, e, item, &end)) {
        e = end; /* W(league_rank, ...: past the item, scan on */
        continue;
      }
      own = !ggi_same_word(s, p, e, view->name); /* the view, used otherwise */
      continue;
    }
    own = !ggi_same_word(s, p, e, item); /* league_rank outside a view's first index */
  }
  view_set_free(&vs);
  return own && p == n;
}

/* For a view that passed ggi_body_own_index: 1 when the body may read
 * it - some use V(i, ...) is not the left side of a plain assignment
 * (V(i) = ..., not V(i) == or V(i) += ...); 0 when the body only
 * assigns it or never names it. */
int ggi_body_reads_own(const ggi_kernel *kn, const ggi_param *view)
{
  const char *s = kn->body;
  if (!s || kn->rank < 1) return 0;
  size_t n = strlen(s), p, e, q, qe, end;
  ggi_tok k;
  for (p = 0; (p = next_ident(s, n, p, &e)) < n; p = e) {
    if (!ggi_same_word(s, p, e, view->name)) continue;
    q = ggi_next_tok(s, n, e, &qe, &k);
    if (k != GGI_T_PUNCT || s[q] != '(' ||
        !own_call(s, n, q, (const char *const *)kn->index, kn->rank, &end))
      return 1; /* not V(i, ...): not what the proof allowed; say it reads */
    q = ggi_next_tok(s, n, end, &qe, &k);
    if (k != GGI_T_PUNCT || s[q] != '=') return 1;
    q = ggi_next_tok(s, n, qe, &qe, &k);
    if (k == GGI_T_PUNCT && s[q] == '=') return 1; /* V(i) == ... */
    e = end;
  }
  return 0;
}

/* 1 when every use of `view` in a for body is a call V(...) - the view's
 * macro, which checks a declared halo at run time (gg_halo_index) - and
 * the check cannot be dodged: no '&' (no pointer to an element, which
 * could be offset), no '[' (no lambda or capture), no directive, none of
 * opaque_text's spellings, and no name of gpugen's own (gg_...: gg_lin,
 * the own index the macro compares with, or a gg_halo_index the body
 * declares to replace the check).  The indices themselves may be any
 * expression. */
int ggi_body_calls_only(const ggi_kernel *kn, const ggi_param *view)
{
  const char *s = kn->body;
  if (!s || !view || view->rank < 1 || !ggi_pattern_is(kn, GGI_PAT_HALO) || ggi_opaque_text(s)) return 0;
  size_t n = strlen(s), p, e;
  for (p = 0; (p = next_ident(s, n, p, &e)) < n; p = e) {
    /* gpugen's own names: gg_lin (the own index the macro compares with),
       gg_halo_index (the check; a body could declare its own) */
    if (e - p > 3 && strncmp(s + p, "gg_", 3) == 0) return 0;
    if (!ggi_same_word(s, p, e, view->name)) continue;
    size_t q, qe;
    ggi_tok qk;
    q = ggi_next_tok(s, n, e, &qe, &qk);
    if (qk != GGI_T_PUNCT || s[q] != '(') return 0; /* the bare pointer */
  }
  return p == n;
}
