/*
 * arena.c - every string and array of a module lives in one arena, freed
 * at once by ggi_module_free().  The loader may bail out from deep inside
 * a table walk (a Lua error), so nothing it allocates may need a matching
 * free: the arena is what makes that safe.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* Chunks are chained; a request larger than a chunk gets its own. */
#define GGI_CHUNK 8192

typedef struct ggi_chunk {
  struct ggi_chunk *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
} ggi_chunk;

struct ggi_arena {
  ggi_chunk *head;
};

static ggi_chunk *chunk_new(size_t size, ggi_chunk *next) {
  ggi_chunk *c = malloc(sizeof *c + size);
  if (!c) return NULL;
  c->next = next;
  c->used = 0;
  c->size = size;
  return c;
}

/* Zero-filled, 16-byte aligned; NULL only when malloc fails. */
void *ggi_alloc(ggi_arena *a, size_t n) {
  size_t need = (n + 15) & ~(size_t)15;
  if (need < n) return NULL; /* overflow */
  ggi_chunk *c = a->head;
  if (!c || c->size - c->used < need) {
    size_t size = need > GGI_CHUNK ? need : GGI_CHUNK;
    if (!(c = chunk_new(size, a->head))) return NULL;
    a->head = c;
  }
  void *p = c->data + c->used;
  c->used += need;
  memset(p, 0, n);
  return p;
}

const char *ggi_strdup(ggi_arena *a, const char *s) {
  size_t n = strlen(s) + 1;
  char *p = ggi_alloc(a, n);
  if (p) memcpy(p, s, n);
  return p;
}

ggi_module *ggi_module_new(const char *file) {
  ggi_arena *a = calloc(1, sizeof *a);
  if (!a) return NULL;
  ggi_module *m = ggi_alloc(a, sizeof *m);
  if (!m) {
    free(a);
    return NULL;
  }
  m->arena = a;
  m->file = ggi_strdup(a, file ? file : "");
  if (!m->file) {
    ggi_module_free(m);
    return NULL;
  }
  return m;
}

/* The module itself lives in its arena, so read the arena pointer first. */
void ggi_module_free(ggi_module *m) {
  if (!m) return;
  ggi_arena *a = m->arena;
  ggi_chunk *c = a->head;
  while (c) {
    ggi_chunk *next = c->next;
    free(c);
    c = next;
  }
  free(a);
}
