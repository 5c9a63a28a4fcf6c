/* cache.c - the on-disk kernel cache; see cache.h. */
#include "cache.h"
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <xxhash.h>

#define CACHE_MAGIC "GGCACHE"   /* 7 chars + NUL = 8 bytes */
#define CACHE_VERSION 1u
#define CACHE_DEFAULT_LIMIT (256ull << 20)
#define CACHE_MAX_ENTRY (1ull << 30) /* refuse absurd sizes from a corrupt header */

typedef struct entry_header {
  char magic[8];
  uint32_t version;
  uint32_t header_size;
  uint64_t key_lo, key_hi;
  uint64_t payload_size;
  uint64_t checksum;          /* XXH64 of the payload, seed 0 */
} entry_header;

struct ggr_cache {
  char dir[1024];
  int enabled;
  int verbose;
  uint64_t limit;
  ggr_cache_stats stats;
};

/* ---- key ---- */

/* Each part goes in with its length first, so ("ab","c") and ("a","bc")
 * hash differently. */
static void add_bytes(XXH3_state_t *st, const void *p, size_t n) {
  uint64_t len = n;
  XXH3_128bits_update(st, &len, sizeof len);
  if (n) XXH3_128bits_update(st, p, n);
}

static void add_str(XXH3_state_t *st, const char *s) {
  if (!s) {
    uint64_t none = UINT64_MAX; /* NULL differs from "" */
    XXH3_128bits_update(st, &none, sizeof none);
    return;
  }
  add_bytes(st, s, strlen(s));
}

static void add_int(XXH3_state_t *st, int64_t v) { XXH3_128bits_update(st, &v, sizeof v); }

ggr_key ggr_cache_key(const ggr_key_parts *p) {
  ggr_key k = {0, 0};
  XXH3_state_t *st = XXH3_createState();
  if (!st) return k;
  XXH3_128bits_reset(st);
  add_str(st, "gpugen cache key v1");
  add_str(st, p->source);
  int n = 0;
  while (p->options && p->options[n]) n++;
  add_int(st, n);
  for (int i = 0; i < n; i++) add_str(st, p->options[i]);
  add_str(st, p->arch);
  add_str(st, p->compiler);
  add_int(st, p->driver_version);
  add_str(st, p->gpugen_version);
  add_int(st, p->abi);
  /* only when set, so the keys of modules without one stay as they were */
  if (p->extra) add_str(st, p->extra);
  XXH128_hash_t h = XXH3_128bits_digest(st);
  XXH3_freeState(st);
  k.lo = h.low64;
  k.hi = h.high64;
  return k;
}

void ggr_cache_entry_name(ggr_key key, char name[40]) {
  snprintf(name, 40, "%016llx%016llx.ggc", (unsigned long long)key.hi,
           (unsigned long long)key.lo);
}

/* ---- folder ---- */

static int default_dir(char *buf, size_t n) {
  const char *env = getenv("GG_CACHE_DIR");
  if (env && *env) return snprintf(buf, n, "%s", env) < (int)n ? 0 : -1;
  env = getenv("XDG_CACHE_HOME");
  if (env && *env) return snprintf(buf, n, "%s/gpugen", env) < (int)n ? 0 : -1;
  env = getenv("HOME");
  if (env && *env) return snprintf(buf, n, "%s/.cache/gpugen", env) < (int)n ? 0 : -1;
  return -1;
}

/* mkdir -p; only the last component is made private (0700): the parents
 * (~/.cache) are the user's business. */
static int make_dirs(const char *dir) {
  char tmp[1024];
  snprintf(tmp, sizeof tmp, "%s", dir);
  for (char *p = tmp + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(tmp, 0755) && errno != EEXIST) return -1;
    *p = '/';
  }
  if (mkdir(tmp, 0700) && errno != EEXIST) return -1;
  return 0;
}

/* Why someone other than the user or root could add, replace or rename a
 * file in this folder above the cache, or NULL.  A sticky folder (/tmp)
 * lets others add files but not touch anyone else's. */
static const char *unsafe_above(const struct stat *sb) {
  if (sb->st_uid != geteuid() && sb->st_uid != 0) return "belongs to another user (neither you nor root)";
  if ((sb->st_mode & 022) && !(sb->st_mode & S_ISVTX)) return "is writable by group or others";
  return NULL;
}

/* Binaries in the cache are loaded and run on the GPU, so the folder must
 * be one only the user controls: a real folder (not a symbolic link)
 * owned by the user and writable by no one else, below folders (symbolic
 * links resolved) owned by the user or root that no one else can write
 * either (except sticky ones).  Returns 0, or -1 with the reason in why. */
static int check_trusted(const char *dir, char *why, size_t n) {
  struct stat sb;
  if (lstat(dir, &sb)) return snprintf(why, n, "cannot inspect it (%s)", strerror(errno)), -1;
  if (S_ISLNK(sb.st_mode)) return snprintf(why, n, "it is a symbolic link"), -1;
  if (!S_ISDIR(sb.st_mode)) return snprintf(why, n, "it is not a folder"), -1;
  const char *bad = sb.st_uid != geteuid() ? "belongs to another user"
                  : sb.st_mode & 022 ? "is writable by group or others" : NULL;
  if (bad)
    return snprintf(why, n, "it %s (uid %ld, mode %04o; this user is uid %ld)", bad,
                    (long)sb.st_uid, (unsigned)(sb.st_mode & 07777), (long)geteuid()), -1;
  /* the folders above it, as they really are */
  char real[PATH_MAX];
  if (!realpath(dir, real)) return snprintf(why, n, "cannot resolve it (%s)", strerror(errno)), -1;
  *strrchr(real, '/') = 0; /* the parent; "" for "/" */
  size_t len = strlen(real);
  for (size_t i = 0; i <= len; i++) { /* "/", then each folder down to the parent */
    if (i < len && real[i] != '/') continue;
    char keep = real[i];
    real[i] = 0;
    const char *here = i == 0 ? "/" : real;
    const char *above = lstat(here, &sb) ? strerror(errno) : unsafe_above(&sb);
    if (above)
      snprintf(why, n, "the folder %s above it %s (uid %ld, mode %04o)", here, above,
               (long)sb.st_uid, (unsigned)(sb.st_mode & 07777));
    real[i] = keep;
    if (above) return -1;
  }
  return 0;
}

static void disable(ggr_cache *c, const char *why) {
  c->enabled = 0;
  ggr_warn("warning: kernel cache disabled: %s%s%s", why, c->dir[0] ? " - " : "", c->dir);
}

gg_status ggr_cache_open(ggr_cache **out, const char *dir, uint64_t limit, int verbose) {
  ggr_cache *c = calloc(1, sizeof *c);
  *out = c;
  if (!c) return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "kernel cache: out of host memory");
  c->verbose = verbose;
  c->limit = limit ? limit : CACHE_DEFAULT_LIMIT;
  c->enabled = 1;
  if (dir && *dir) {
    if (snprintf(c->dir, sizeof c->dir, "%s", dir) >= (int)sizeof c->dir) c->dir[0] = 0;
  } else if (default_dir(c->dir, sizeof c->dir)) {
    c->dir[0] = 0;
  }
  /* "dir/" would make lstat follow a symbolic link named dir */
  for (size_t n = strlen(c->dir); n > 1 && c->dir[n - 1] == '/'; n--) c->dir[n - 1] = 0;
  if (!c->dir[0]) {
    disable(c, "no cache folder (set GG_CACHE_DIR or HOME)");
    return GG_OK;
  }
  char why[PATH_MAX + 160];
  if (make_dirs(c->dir)) {
    snprintf(why, sizeof why, "cannot create the folder (%s)", strerror(errno));
    disable(c, why);
  } else if (check_trusted(c->dir, why, sizeof why)) {
    char msg[sizeof why + 80];
    snprintf(msg, sizeof msg, "not a safe place for GPU code: %s", why);
    disable(c, msg);
  } else if (access(c->dir, W_OK | X_OK)) {
    disable(c, "the folder is not writable");
  }
  return GG_OK;
}

gg_status ggr_cache_open_none(ggr_cache **out) {
  *out = calloc(1, sizeof **out);
  return *out ? GG_OK : ggr_set_error(GG_ERR_OUT_OF_MEMORY, "kernel cache: out of host memory");
}

void ggr_cache_close(ggr_cache *c) { free(c); }
int ggr_cache_enabled(const ggr_cache *c) { return c && c->enabled; }
const char *ggr_cache_dir(const ggr_cache *c) { return c ? c->dir : ""; }
ggr_cache_stats ggr_cache_get_stats(const ggr_cache *c) { return c->stats; }

static void entry_path(const ggr_cache *c, ggr_key key, char *buf, size_t n) {
  char name[40];
  ggr_cache_entry_name(key, name);
  snprintf(buf, n, "%s/%s", c->dir, name);
}

/* ---- get ---- */

static int read_full(int fd, void *buf, size_t n) {
  char *p = buf;
  while (n) {
    ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

/* Reads and checks the entry; returns NULL and names the problem in *why. */
static void *read_entry(int fd, ggr_key key, size_t *size, const char **why) {
  struct stat sb;
  entry_header h;
  if (fstat(fd, &sb)) return *why = "cannot stat", NULL;
  /* only a regular file the user wrote: never a FIFO, device or another's file */
  if (!S_ISREG(sb.st_mode)) return *why = "not a regular file", NULL;
  if (sb.st_uid != geteuid()) return *why = "owned by another user", NULL;
  if (sb.st_mode & 022) return *why = "writable by group or others", NULL;
  if (sb.st_size == 0) return *why = "empty file", NULL;
  if ((size_t)sb.st_size < sizeof h) return *why = "truncated header", NULL;
  if (read_full(fd, &h, sizeof h)) return *why = "unreadable header", NULL;
  if (memcmp(h.magic, CACHE_MAGIC, 8) || h.header_size != sizeof h)
    return *why = "not a gpugen cache entry", NULL;
  if (h.version != CACHE_VERSION) return *why = "entry of another cache version", NULL;
  if (h.key_lo != key.lo || h.key_hi != key.hi) return *why = "entry of another key", NULL;
  if (h.payload_size == 0 || h.payload_size > CACHE_MAX_ENTRY) return *why = "bad payload size", NULL;
  if ((uint64_t)sb.st_size != sizeof h + h.payload_size) return *why = "truncated or oversized", NULL;
  void *data = malloc(h.payload_size);
  if (!data) return *why = "out of host memory", NULL;
  if (read_full(fd, data, h.payload_size)) {
    free(data);
    return *why = "short read", NULL;
  }
  if (XXH64(data, h.payload_size, 0) != h.checksum) {
    free(data);
    return *why = "checksum mismatch (corrupt)", NULL;
  }
  *size = h.payload_size;
  return data;
}

gg_status ggr_cache_get(ggr_cache *c, ggr_key key, void **data, size_t *size) {
  return ggr_cache_read(c, key, data, size, NULL);
}

gg_status ggr_cache_read(ggr_cache *c, ggr_key key, void **data, size_t *size, const char **bad) {
  *data = NULL;
  *size = 0;
  if (bad) *bad = NULL;
  if (!ggr_cache_enabled(c)) return GG_ERR_NOT_FOUND;
  char path[1100];
  entry_path(c, key, path, sizeof path);
  /* O_NOFOLLOW: a symbolic link is not an entry; O_NONBLOCK: opening a
   * FIFO must not wait for a writer (read_entry then refuses it) */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  const char *why = NULL;
  if (fd < 0 && errno != ELOOP) {
    c->stats.misses++;
    return GG_ERR_NOT_FOUND;
  }
  struct stat read_sb = {0}; /* the file read, to remove that one only */
  if (fd < 0) {
    why = "a symbolic link";
  } else {
    *data = read_entry(fd, key, size, &why);
    if (*data) futimens(fd, NULL); /* a hit: most recently used now */
    else if (fstat(fd, &read_sb)) read_sb.st_ino = 0;
    close(fd);
  }
  if (*data) {
    c->stats.hits++;
    return GG_OK;
  }
  /* A bad entry is a miss: remove it so the recompile rewrites it. */
  c->stats.misses++;
  c->stats.bad_entries++;
  if (c->verbose) ggr_warn("cache entry %s: %s; removed", path, why);
  if (bad) *bad = why;
  /* Remove it, unless another process has meanwhile renamed a good entry
   * into its place (a put): then the name is no longer the file read. */
  struct stat now_sb;
  if (fd < 0 || (read_sb.st_ino && lstat(path, &now_sb) == 0 && now_sb.st_dev == read_sb.st_dev &&
                 now_sb.st_ino == read_sb.st_ino))
    unlink(path);
  return GG_ERR_NOT_FOUND;
}

/* ---- put ---- */

static int write_full(int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n) {
    ssize_t r = write(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

gg_status ggr_cache_put(ggr_cache *c, ggr_key key, const void *data, size_t size) {
  if (!ggr_cache_enabled(c)) return GG_OK;
  if (!data || size == 0 || size > CACHE_MAX_ENTRY) return GG_ERR_CACHE;
  char path[1100], tmp[1200];
  entry_path(c, key, path, sizeof path);
  /* a unique temporary name per writer: racing processes never share one */
  snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    if (c->verbose) ggr_warn("cache write %s: %s", tmp, strerror(errno));
    return GG_ERR_CACHE;
  }
  entry_header h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, CACHE_MAGIC, 8);
  h.version = CACHE_VERSION;
  h.header_size = sizeof h;
  h.key_lo = key.lo;
  h.key_hi = key.hi;
  h.payload_size = size;
  h.checksum = XXH64(data, size, 0);
  int bad = write_full(fd, &h, sizeof h) || write_full(fd, data, size);
  bad |= close(fd) != 0;
  /* rename is atomic: readers see the old entry, no entry, or this one */
  if (bad || rename(tmp, path)) {
    if (c->verbose) ggr_warn("cache write %s: %s", path, strerror(errno));
    unlink(tmp);
    return GG_ERR_CACHE;
  }
  c->stats.writes++;
  ggr_cache_evict(c);
  return GG_OK;
}

/* ---- a lock per key ---- */

void ggr_cache_lock(ggr_cache *c, ggr_key key, double deadline_ms, int *fd, int *busy) {
  *fd = -1;
  *busy = 0;
  if (!ggr_cache_enabled(c)) return;
  char path[1100], lock[1200];
  entry_path(c, key, path, sizeof path);
  snprintf(lock, sizeof lock, "%s.lock", path);
  /* O_NOFOLLOW: a planted link does not redirect the open (the folder
     itself passed check_trusted) */
  int f = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
  if (f < 0) {
    if (c->verbose) ggr_warn("cache lock %s: %s", lock, strerror(errno));
    return;
  }
  const struct timespec ms = {0, 1000000};
  for (;;) {
    if (flock(f, LOCK_EX | LOCK_NB) == 0) {
      *fd = f;
      return;
    }
    if (errno != EWOULDBLOCK && errno != EINTR) break;
    if (ggr_now_ms() >= deadline_ms) {
      *busy = 1;
      break;
    }
    nanosleep(&ms, NULL);
  }
  close(f);
}

void ggr_cache_unlock(int fd) {
  if (fd >= 0) close(fd); /* closing the last descriptor releases the flock */
}

/* ---- eviction ---- */

typedef struct file_info {
  char name[64];
  uint64_t bytes;
  struct timespec mtime;
} file_info;

static int older_first(const void *a, const void *b) {
  const struct timespec *x = &((const file_info *)a)->mtime, *y = &((const file_info *)b)->mtime;
  if (x->tv_sec != y->tv_sec) return x->tv_sec < y->tv_sec ? -1 : 1;
  if (x->tv_nsec != y->tv_nsec) return x->tv_nsec < y->tv_nsec ? -1 : 1;
  return strcmp(((const file_info *)a)->name, ((const file_info *)b)->name);
}

static int is_entry_name(const char *name) {
  size_t n = strlen(name);
  return n == 36 && !strcmp(name + 32, ".ggc");
}

int ggr_cache_evict(ggr_cache *c) {
  if (!ggr_cache_enabled(c)) return 0;
  DIR *d = opendir(c->dir);
  if (!d) return 0;
  file_info *files = NULL;
  size_t n = 0, cap = 0;
  uint64_t total = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (!is_entry_name(de->d_name)) continue;
    struct stat sb;
    if (fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) || !S_ISREG(sb.st_mode)) continue;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 64;
      file_info *f = realloc(files, ncap * sizeof *f);
      if (!f) break;
      files = f;
      cap = ncap;
    }
    snprintf(files[n].name, sizeof files[n].name, "%.40s", de->d_name);
    files[n].bytes = (uint64_t)sb.st_size;
    files[n].mtime = sb.st_mtim;
    total += files[n].bytes;
    n++;
  }
  int removed = 0;
  if (total > c->limit) {
    qsort(files, n, sizeof *files, older_first);
    for (size_t i = 0; i < n && total > c->limit; i++) {
      if (unlinkat(dirfd(d), files[i].name, 0) == 0) removed++;
      total -= files[i].bytes;
    }
  }
  closedir(d);
  free(files);
  c->stats.evictions += removed;
  return removed;
}
