/*
 * lex.h - text of CUDA/HIP code split as the preprocessor splits it:
 * comments, string and character literals (raw strings too), pp-numbers,
 * identifiers and punctuation.  The load-time checks (body_check.c,
 * text_rules.c) and the planner's proofs (own_index.c) read bodies
 * through it, so that all of them agree on what a token is.
 */
#ifndef GGI_LEX_H
#define GGI_LEX_H

#include <stddef.h>

/* Identifiers as the compilers take them: with '$' and UTF-8 letters too
 * (clang accepts both), so that `$x(a, b)` is never read as a view x. */
static inline int ggi_is_id0(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
         (unsigned char)c >= 0x80;
}
static inline int ggi_is_digit(char c) { return c >= '0' && c <= '9'; }
static inline int ggi_is_id(char c) { return ggi_is_id0(c) || ggi_is_digit(c); }
static inline int ggi_is_space(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* What a token is: GGI_T_END past the text's end. */
typedef enum ggi_tok {
  GGI_T_END, GGI_T_SPACE, GGI_T_COMMENT, GGI_T_LITERAL, GGI_T_NUMBER, GGI_T_IDENT, GGI_T_PUNCT
} ggi_tok;

/* The token at p (p < n) as the preprocessor splits text: its kind and
 * its end.  Unterminated comments and literals end the text. */
size_t ggi_token(const char *s, size_t n, size_t p, ggi_tok *kind);
/* The next token at or after p that is not space or a comment. */
size_t ggi_skip_space(const char *s, size_t n, size_t p);
/* The next significant token at or after p: its start (n at the end)
 * and *e its end. */
size_t ggi_next_tok(const char *s, size_t n, size_t p, size_t *e, ggi_tok *k);
/* Whether [a, b) of s is the word w (w NULL: no). */
int ggi_same_word(const char *s, size_t a, size_t b, const char *w);
/* Text that can rename an index, take an address or hide a use from the
 * token scans of the proofs (own_index.c): digraphs and trigraphs (%:define, <: for [), decltype
 * declarations, parameter packs, std::addressof, line splices (a
 * backslash before a newline joins S and p into Sp), _Pragma (a directive
 * without '#': pop_macro("x") would give a view back its memory macro).
 * Found anywhere, even in a comment, the proof gives up: a barrier too
 * many costs time, one too few a race. */
int ggi_opaque_text(const char *s);

/* The first call name(...) in s with other than want arguments: their
 * count, *lines the newlines before it; -1 when there is none. */
int ggi_call_arity(const char *s, const char *name, int want, int *lines);
/* Whether identifier `name` appears in text s (outside comments and
 * literals); and whether s may name it - it appears, or a directive or
 * an opaque spelling could make it up: 0 proves it never does. */
int ggi_text_names(const char *s, const char *name);
int ggi_text_may_name(const char *s, const char *name);

#endif
