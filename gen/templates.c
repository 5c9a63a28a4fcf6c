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

static char *read_file(const char *path, char *err, unsigned err_size)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (err) snprintf(err, err_size, "cannot open template %s", path);
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
        if (err) snprintf(err, err_size, "out of memory reading %s", path);
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
    if (err) snprintf(err, err_size, "cannot read template %s", path);
    return NULL;
  }
  if (!text) text = calloc(1, 1);
  else text[len] = 0;
  if (text && strlen(text) != len) {
    free(text);
    if (err) snprintf(err, err_size, "template %s contains a NUL byte", path);
    return NULL;
  }
  return text;
}

const char *ggi_template_get(const char *templates_dir, const char *path, char **owned,
                             char *err, unsigned err_size)
{
  *owned = NULL;
  if (!path_ok(path)) {
    if (err) snprintf(err, err_size, "bad template path '%s'", path);
    return NULL;
  }
  if (templates_dir) {
    size_t n = strlen(templates_dir) + strlen(path) + 2;
    char *full = malloc(n);
    if (!full) {
      if (err) snprintf(err, err_size, "out of memory");
      return NULL;
    }
    snprintf(full, n, "%s/%s", templates_dir, path);
    *owned = read_file(full, err, err_size);
    free(full);
    return *owned;
  }
  for (const struct ggi_template *t = ggi_templates; t->path; t++)
    if (strcmp(t->path, path) == 0) return t->text;
  if (err) snprintf(err, err_size, "no template '%s' is built into gpugen", path);
  return NULL;
}
