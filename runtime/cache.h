/*
 * cache.h - the on-disk cache of compiled kernels (internal, needs no GPU).
 *
 * An entry is one file <dir>/<32 hex digits of the key>.ggc holding a
 * header (magic, format version, key, payload size, XXH64 of the payload)
 * and the payload (cubin / PTX / code object).  Writes go to a temporary
 * file that is renamed into place, so readers never see half an entry and
 * two processes writing the same entry both succeed.  A hit touches the
 * file (mtime), and eviction removes the least recently touched entries
 * until the folder is under the size limit.
 *
 * Anything wrong with the folder (missing and not creatable, read-only,
 * or a place where someone other than the user or root could put a file:
 * see check_trusted in cache.c) disables the cache with one warning on
 * stderr; anything wrong with an entry (corrupt, truncated, foreign, empty,
 * not a regular file of the user's, a symbolic link) is a miss, reported
 * when verbose, and the entry is rewritten after the recompile.
 */
#ifndef GGR_CACHE_H
#define GGR_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "gg.h"

typedef struct ggr_key {
  uint64_t lo, hi;
} ggr_key;

/* Everything that changes the binary. */
typedef struct ggr_key_parts {
  const char *source;
  const char *const *options;  /* NULL-terminated, may be NULL */
  const char *arch;            /* "sm_90", "compute_90", "gfx90a" */
  const char *compiler;        /* "NVRTC 13.0" */
  int driver_version;
  const char *gpugen_version;
  int abi;                     /* GG_MODULE_ABI */
  const char *extra;           /* libraries the source includes or links (the MathDx and
                                  NVSHMEM identities), may be NULL */
} ggr_key_parts;

ggr_key ggr_cache_key(const ggr_key_parts *p);

typedef struct ggr_cache ggr_cache;

/* dir NULL: $GG_CACHE_DIR, else $XDG_CACHE_HOME/gpugen, else
 * ~/.cache/gpugen.  limit 0: 256 MiB.  Never fails for folder problems
 * (the cache is then disabled); fails only without host memory. */
gg_status ggr_cache_open(ggr_cache **out, const char *dir, uint64_t limit, int verbose);
/* A cache that is off on purpose (no_disk_cache): no folder, no warning. */
gg_status ggr_cache_open_none(ggr_cache **out);
void ggr_cache_close(ggr_cache *c);
int ggr_cache_enabled(const ggr_cache *c);
const char *ggr_cache_dir(const ggr_cache *c); /* "" when none could be named */

/* GG_OK with a malloc'ed copy of the payload, or GG_ERR_NOT_FOUND (a miss,
 * including any bad entry, which is removed). */
gg_status ggr_cache_get(ggr_cache *c, ggr_key key, void **data, size_t *size);
/* The same; *bad (may be NULL) is then NULL on a hit or a plain miss, or
 * names what was wrong with the entry that was there (a static string). */
gg_status ggr_cache_read(ggr_cache *c, ggr_key key, void **data, size_t *size, const char **bad);
/* Store an entry, then evict down to the limit.  Failures disable nothing
 * and lose nothing: GG_ERR_CACHE with the reason in msg (may be NULL). */
gg_status ggr_cache_put(ggr_cache *c, ggr_key key, const void *data, size_t size);
/* Remove least recently used entries until the total is <= limit; returns
 * the number removed. */
int ggr_cache_evict(ggr_cache *c);

/* A lock on one key between processes (flock on "<entry>.lock" in the
 * folder): held until ggr_cache_unlock.  Waits until deadline_ms
 * (ggr_now_ms's clock); *fd is then the lock, or -1 when the cache is
 * off, the lock file cannot be made, or another process held it until
 * the deadline (*busy 1).  Lock files are never removed: an empty file
 * per key ever locked, named after no entry, so eviction leaves it. */
void ggr_cache_lock(ggr_cache *c, ggr_key key, double deadline_ms, int *fd, int *busy);
void ggr_cache_unlock(int fd);

/* Entry file name for a key, "<32 hex>.ggc" (for tests). */
void ggr_cache_entry_name(ggr_key key, char name[40]);

/* Counters since open (for tests and verbose reports). */
typedef struct ggr_cache_stats {
  int hits, misses, bad_entries, writes, evictions;
} ggr_cache_stats;
ggr_cache_stats ggr_cache_get_stats(const ggr_cache *c);

#endif /* GGR_CACHE_H */
