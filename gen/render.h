/* render.h - templates with {{KEY}} values (render.c). */
#ifndef GGI_RENDER_H
#define GGI_RENDER_H

#include <stddef.h>
#include "ir.h"
#include "strbuf.h"

/* A dictionary of {{KEY}} values.  Keys and values are not copied: they
 * must outlive the dictionary (arena or static strings). */
#define GGI_DICT_MAX 96
typedef struct ggi_dict {
  int n;
  const char *keys[GGI_DICT_MAX];
  const char *values[GGI_DICT_MAX];
} ggi_dict;

/* Sets (or replaces) key.  Returns 0, or -1 when the dictionary is full. */
int ggi_dict_set(ggi_dict *dict, const char *key, const char *value);

/* The value of the first len bytes of key, or NULL. */
const char *ggi_dict_get(const ggi_dict *dict, const char *key, size_t len);

/* Appends template `path` (relative to templates/, from templates_dir or
 * the embedded table) to out with every {{KEY}} replaced from dict.  An
 * unknown key or template is an error naming both.  Returns 0 or -1. */
int ggi_render_template(const char *templates_dir, const char *path, const ggi_dict *dict,
                        ggi_buf *out, ggi_diag *d);

#endif
