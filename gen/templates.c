/*
 * templates.c - find a template by path: in --templates DIR when given,
 * else in the table cmake/embed.cmake compiled into the binary.
 */
#include "templates.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A template path is relative and stays inside the templates folder. */
static int path_ok(const char *path)
{
  return path[0] && path[0] != '/' && !strstr(path, "..");
}

static char *read_file(const char *path, ggi_diag *d)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    ggi_fail(d, "cannot open template %s", path);
    return NULL;
  }
  char *text = NULL;
  size_t len = 0, cap = 0;
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (len + n + 1 > cap) {
      size_t ncap = cap ? cap * 2 : 8192;
      while (ncap < len + n + 1) ncap *= 2;
      char *p = realloc(text, ncap);
      if (!p) {
        free(text);
        fclose(f);
        ggi_fail(d, "out of memory reading %s", path);
        return NULL;
      }
      text = p;
      cap = ncap;
    }
    memcpy(text + len, chunk, n);
    len += n;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(text);
    ggi_fail(d, "cannot read template %s", path);
    return NULL;
  }
  if (!text) text = calloc(1, 1);
  else text[len] = 0;
  if (!text) {
    ggi_fail(d, "out of memory reading %s", path);
    return NULL;
  }
  if (strlen(text) != len) {
    free(text);
    ggi_fail(d, "template %s contains a NUL byte", path);
    return NULL;
  }
  return text;
}

const char *ggi_template_get(const char *templates_dir, const char *path, char **owned,
                             ggi_diag *d)
{
  *owned = NULL;
  if (!path_ok(path)) {
    ggi_fail(d, "bad template path '%s'", path);
    return NULL;
  }
  if (templates_dir) {
    size_t n = strlen(templates_dir) + strlen(path) + 2;
    char *full = malloc(n);
    if (!full) {
      ggi_fail(d, "out of memory");
      return NULL;
    }
    snprintf(full, n, "%s/%s", templates_dir, path);
    *owned = read_file(full, d);
    free(full);
    return *owned;
  }
  for (const struct ggi_template *t = ggi_templates; t->path; t++)
    if (strcmp(t->path, path) == 0) return t->text;
  ggi_fail(d, "no template '%s' is built into gpugen", path);
  return NULL;
}
