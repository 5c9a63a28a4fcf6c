/*
 * render.c - templates: a template's text with every {{KEY}} replaced
 * from a dictionary.  Templates hold no decisions; an unknown key or
 * template is an error naming both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "templates.h"

int ggi_dict_set(ggi_dict *dict, const char *key, const char *value)
{
  for (int i = 0; i < dict->n; i++)
    if (strcmp(dict->keys[i], key) == 0) {
      dict->values[i] = value;
      return 0;
    }
  if (dict->n == GGI_DICT_MAX) return -1;
  dict->keys[dict->n] = key;
  dict->values[dict->n++] = value;
  return 0;
}

const char *ggi_dict_get(const ggi_dict *dict, const char *key, size_t len)
{
  for (int i = 0; i < dict->n; i++)
    if (strlen(dict->keys[i]) == len && memcmp(dict->keys[i], key, len) == 0)
      return dict->values[i];
  return NULL;
}

/* Length of the placeholder name at s ("NAME}}"), or 0 when s does not
 * start one: C++ may have "{{" of its own (nested initializers). */
static size_t key_len(const char *s)
{
  size_t n = 0;
  while ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= '0' && s[n] <= '9') || s[n] == '_') n++;
  if (n == 0 || !(s[0] >= 'A' && s[0] <= 'Z') || s[n] != '}' || s[n + 1] != '}') return 0;
  return n;
}

/* "{{> common/x.cuh}}" at s: the length of the whole marker, with the
 * piece's path copied into path; 0 when s is not one.  A template uses it
 * for a piece that two patterns share whole (no choice in it: what is
 * chosen per kernel is the plan's list of pieces). */
static size_t piece_marker(const char *s, char *path, size_t size)
{
  if (strncmp(s, "{{> ", 4) != 0) return 0;
  const char *end = strstr(s + 4, "}}");
  size_t n = end ? (size_t)(end - (s + 4)) : 0;
  if (n == 0 || n >= size || memchr(s + 4, '\n', n)) return 0;
  memcpy(path, s + 4, n);
  path[n] = 0;
  return n + 6;
}

static int render_text(const char *templates_dir, const char *path, const ggi_dict *dict,
                       ggi_buf *out, ggi_diag *d, int depth)
{
  char *owned = NULL;
  char piece[128];
  if (depth > 4) return ggi_fail(d, "template %s: pieces nested too deep", path);
  const char *text = ggi_template_get(templates_dir, path, &owned, d);
  if (!text) return -1;
  const char *s = text;
  int rc = 0;
  while (*s) {
    const char *open = strstr(s, "{{");
    size_t n = open ? key_len(open + 2) : 0;
    size_t m = open && !n ? piece_marker(open, piece, sizeof piece) : 0;
    if (!open) {
      ggi_buf_puts(out, s);
      break;
    }
    ggi_buf_putn(out, s, (size_t)(open - s) + (n || m ? 0 : 2));
    s = open + 2;
    if (m) {
      rc = render_text(templates_dir, piece, dict, out, d, depth + 1);
      if (rc != 0) break;
      s = open + m;
      continue;
    }
    if (!n) continue;
    const char *v = ggi_dict_get(dict, open + 2, n);
    if (!v) {
      rc = ggi_fail(d, "template %s: unknown key {{%.*s}}", path, (int)n, open + 2);
      break;
    }
    ggi_buf_puts(out, v);
    s = open + 2 + n + 2;
  }
  free(owned);
  if (rc == 0 && !ggi_buf_ok(out)) rc = ggi_fail(d, "out of memory rendering %s", path);
  return rc;
}

int ggi_render_template(const char *templates_dir, const char *path, const ggi_dict *dict,
                        ggi_buf *out, ggi_diag *d)
{
  return render_text(templates_dir, path, dict, out, d, 0);
}

/* A snippet from the workload file, framed by #line so that compiler
 * messages name FILE.lua:LINE, then a #line back to the generated file. */
