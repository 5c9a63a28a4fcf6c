/* The disk cache without a GPU: keys, bad entries, races, folders, eviction,
 * the lock per key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utime.h>

#include "cache.h"
#include "internal.h" /* ggr_now_ms */
#include "../expect.h"

static char root[128];

static ggr_cache *open_at(const char *sub, uint64_t limit) {
  char dir[512];
  snprintf(dir, sizeof dir, "%s/%s", root, sub);
  ggr_cache *c = NULL;
  CHECK(ggr_cache_open(&c, dir, limit, 1) == GG_OK);
  return c;
}

static void entry_path(ggr_cache *c, ggr_key k, char *buf, size_t n) {
  char name[40];
  ggr_cache_entry_name(k, name);
  snprintf(buf, n, "%s/%s", ggr_cache_dir(c), name);
}

static void test_keys(void) {
  const char *opts[] = {"-O3", NULL}, *opts2[] = {"-O2", NULL}, *opts3[] = {"-O3", "-G", NULL};
  ggr_key_parts base = {"src", opts, "sm_90", "NVRTC 13.0", 13000, "0.1.0", 1, NULL};
  ggr_key k0 = ggr_cache_key(&base);
  ggr_key again = ggr_cache_key(&base);
  CHECK(k0.lo == again.lo && k0.hi == again.hi);
  ggr_key_parts v[9];
  for (int i = 0; i < 9; i++) v[i] = base;
  v[0].source = "src ";
  v[1].options = opts2;
  v[2].arch = "sm_80";
  v[3].compiler = "NVRTC 13.1";
  v[4].driver_version = 13010;
  v[5].gpugen_version = "0.1.1";
  v[6].abi = 2;
  v[7].options = opts3;
  v[8].extra = "MathDx /x|include/cublasdx.hpp 10 1.0"; /* a MathDx module's headers */
  for (int i = 0; i < 9; i++) {
    ggr_key k = ggr_cache_key(&v[i]);
    CHECK(k.lo != k0.lo || k.hi != k0.hi);
  }
  /* boundaries between parts matter */
  ggr_key_parts a = base, b = base;
  a.source = "ab"; a.arch = "c";
  b.source = "a"; b.arch = "bc";
  ggr_key ka = ggr_cache_key(&a), kb = ggr_cache_key(&b);
  CHECK(ka.lo != kb.lo || ka.hi != kb.hi);
}

static void test_roundtrip_and_bad_entries(void) {
  ggr_cache *c = open_at("rt", 0);
  CHECK(ggr_cache_enabled(c));
  struct stat sb;
  CHECK(stat(ggr_cache_dir(c), &sb) == 0 && (sb.st_mode & 0777) == 0700);
  ggr_key k = {0x1234, 0x5678};
  char payload[1000];
  for (int i = 0; i < 1000; i++) payload[i] = (char)(i * 7);
  void *data; size_t size;
  const char *bad = "unset";
  CHECK(ggr_cache_read(c, k, &data, &size, &bad) == GG_ERR_NOT_FOUND && bad == NULL);
  CHECK(ggr_cache_put(c, k, payload, sizeof payload) == GG_OK);
  CHECK(ggr_cache_get(c, k, &data, &size) == GG_OK);
  CHECK(size == sizeof payload && !memcmp(data, payload, size));
  free(data);

  char path[700];
  entry_path(c, k, path, sizeof path);
  /* corrupt one payload byte */
  FILE *f = fopen(path, "r+b");
  fseek(f, 100, SEEK_SET); fputc(0x55 ^ payload[52], f); fclose(f);
  CHECK(ggr_cache_read(c, k, &data, &size, &bad) == GG_ERR_NOT_FOUND);
  CHECK(bad && strstr(bad, "checksum mismatch")); /* the reader says why */
  CHECK(access(path, F_OK) != 0); /* removed, to be rewritten */
  /* truncated */
  CHECK(ggr_cache_put(c, k, payload, sizeof payload) == GG_OK);
  CHECK(truncate(path, 500) == 0);
  CHECK(ggr_cache_get(c, k, &data, &size) == GG_ERR_NOT_FOUND);
  /* empty */
  f = fopen(path, "wb"); fclose(f);
  CHECK(ggr_cache_get(c, k, &data, &size) == GG_ERR_NOT_FOUND);
  /* foreign file */
  f = fopen(path, "wb"); fputs("this is not a cache entry, just some text of 40+ bytes........", f); fclose(f);
  CHECK(ggr_cache_get(c, k, &data, &size) == GG_ERR_NOT_FOUND);
  /* an entry of another key copied under this name */
  ggr_key other = {1, 2};
  char opath[700];
  CHECK(ggr_cache_put(c, other, payload, sizeof payload) == GG_OK);
  entry_path(c, other, opath, sizeof opath);
  CHECK(rename(opath, path) == 0);
  CHECK(ggr_cache_read(c, k, &data, &size, &bad) == GG_ERR_NOT_FOUND);
  CHECK(bad && strcmp(bad, "entry of another key") == 0);
  /* and the rewrite after the "recompile" works */
  CHECK(ggr_cache_put(c, k, payload, sizeof payload) == GG_OK);
  CHECK(ggr_cache_get(c, k, &data, &size) == GG_OK && size == sizeof payload);
  free(data);
  ggr_cache_stats st = ggr_cache_get_stats(c);
  CHECK(st.bad_entries == 5);
  ggr_cache_close(c);
}

/* Two processes writing and reading the same entries at once. */
static void test_race(void) {
  ggr_cache *c = open_at("race", 0);
  enum { N = 4, ROUNDS = 200, SIZE = 4097 };
  pid_t kids[N];
  for (int p = 0; p < N; p++) {
    kids[p] = fork();
    if (kids[p] == 0) {
      ggr_cache *cc = NULL;
      ggr_cache_open(&cc, ggr_cache_dir(c), 0, 0);
      char buf[SIZE];
      int bad = 0;
      for (int r = 0; r < ROUNDS; r++) {
        ggr_key k = {(uint64_t)(r % 7), 99};
        memset(buf, (r % 7) + 1, sizeof buf);
        void *d; size_t n;
        if (ggr_cache_get(cc, k, &d, &n) == GG_OK) {
          if (n != SIZE || memcmp(d, buf, n)) bad++;
          free(d);
        } else if (ggr_cache_put(cc, k, buf, sizeof buf) != GG_OK) {
          bad++;
        }
      }
      ggr_cache_stats st = ggr_cache_get_stats(cc);
      _exit(bad || st.bad_entries ? 1 : 0);
    }
  }
  for (int p = 0; p < N; p++) {
    int status = 0;
    waitpid(kids[p], &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  ggr_cache_close(c);
}

static void test_folders(void) {
  /* missing parents are created */
  ggr_cache *c = open_at("a/b/c", 0);
  CHECK(ggr_cache_enabled(c));
  ggr_cache_close(c);
  if (geteuid() != 0) { /* root ignores permissions */
    char dir[512];
    snprintf(dir, sizeof dir, "%s/ro", root);
    mkdir(dir, 0500);
    c = open_at("ro", 0);
    CHECK(!ggr_cache_enabled(c));
    ggr_key k = {1, 1};
    void *d; size_t n;
    CHECK(ggr_cache_put(c, k, "x", 1) == GG_OK); /* no cache: nothing to do */
    CHECK(ggr_cache_get(c, k, &d, &n) == GG_ERR_NOT_FOUND);
    ggr_cache_close(c);
    c = open_at("ro/sub", 0); /* cannot be created */
    CHECK(!ggr_cache_enabled(c));
    ggr_cache_close(c);
  }
  /* a file where the folder should be */
  char file[512];
  snprintf(file, sizeof file, "%s/plainfile", root);
  FILE *f = fopen(file, "w"); fclose(f);
  c = open_at("plainfile", 0);
  CHECK(!ggr_cache_enabled(c));
  ggr_cache_close(c);
  /* the environment decides the default */
  char env[512];
  snprintf(env, sizeof env, "%s/fromenv", root);
  setenv("GG_CACHE_DIR", env, 1);
  CHECK(ggr_cache_open(&c, NULL, 0, 0) == GG_OK);
  CHECK(ggr_cache_enabled(c) && !strcmp(ggr_cache_dir(c), env));
  ggr_cache_close(c);
  unsetenv("GG_CACHE_DIR");
  snprintf(env, sizeof env, "%s/xdg", root);
  setenv("XDG_CACHE_HOME", env, 1);
  CHECK(ggr_cache_open(&c, NULL, 0, 0) == GG_OK);
  strcat(env, "/gpugen");
  CHECK(ggr_cache_enabled(c) && !strcmp(ggr_cache_dir(c), env));
  ggr_cache_close(c);
}

/* Entries of 1000 bytes + header, limit 3.5 entries: the least recently
 * used go first, and a hit counts as a use. */
static void test_eviction(void) {
  ggr_cache *c = open_at("evict", 3 * 1048 + 500);
  char buf[1000] = {0};
  char path[700];
  for (int i = 0; i < 3; i++) {
    ggr_key k = {(uint64_t)i, 7};
    CHECK(ggr_cache_put(c, k, buf, sizeof buf) == GG_OK);
    entry_path(c, k, path, sizeof path);
    struct utimbuf t = {1000000 + i, 1000000 + i}; /* oldest: key 0 */
    utime(path, &t);
  }
  void *d; size_t n;
  ggr_key k0 = {0, 7}, k1 = {1, 7}, k2 = {2, 7}, k3 = {3, 7};
  CHECK(ggr_cache_get(c, k0, &d, &n) == GG_OK); /* touch: now the newest */
  free(d);
  CHECK(ggr_cache_put(c, k3, buf, sizeof buf) == GG_OK); /* over the limit: evict key 1 */
  CHECK(ggr_cache_get(c, k1, &d, &n) == GG_ERR_NOT_FOUND);
  CHECK(ggr_cache_get(c, k0, &d, &n) == GG_OK); free(d);
  CHECK(ggr_cache_get(c, k2, &d, &n) == GG_OK); free(d);
  CHECK(ggr_cache_get(c, k3, &d, &n) == GG_OK); free(d);
  CHECK(ggr_cache_get_stats(c).evictions == 1);
  ggr_cache_close(c);
}

/* The lock per key (tuning's): a second holder waits until its deadline
 * and is told the lock is busy; once released it gets it; other keys are
 * free meanwhile; a planted link at the lock's name is not followed; a
 * cache that is off locks nothing.  flock conflicts between two opens of
 * the file even in one process, as between two processes. */
static void test_lock(void) {
  ggr_cache *c = open_at("lock", 0);
  ggr_key k = {42, 1}, other = {43, 1};
  int fd = -1, busy = 0, fd2 = -1, fd3 = -1;
  ggr_cache_lock(c, k, ggr_now_ms() + 1000, &fd, &busy);
  CHECK(fd >= 0 && !busy);
  double t0 = ggr_now_ms();
  ggr_cache_lock(c, k, t0 + 40, &fd2, &busy);
  double waited = ggr_now_ms() - t0;
  CHECK(fd2 < 0 && busy == 1);
  CHECK(waited >= 40 && waited < 1000); /* it waited for its deadline, not for ever */
  ggr_cache_lock(c, other, ggr_now_ms() + 1000, &fd3, &busy);
  CHECK(fd3 >= 0 && !busy);
  ggr_cache_unlock(fd3);
  ggr_cache_unlock(fd);
  ggr_cache_lock(c, k, ggr_now_ms() + 1000, &fd2, &busy);
  CHECK(fd2 >= 0 && !busy);
  ggr_cache_unlock(fd2);
  /* a link planted at the lock's name: no lock, not busy, target untouched */
  char path[700], lock[800], target[800];
  ggr_key planted = {44, 1};
  entry_path(c, planted, path, sizeof path);
  snprintf(lock, sizeof lock, "%s.lock", path);
  snprintf(target, sizeof target, "%s/target", root);
  CHECK(symlink(target, lock) == 0);
  ggr_cache_lock(c, planted, ggr_now_ms() + 1000, &fd, &busy);
  CHECK(fd < 0 && !busy);
  struct stat sb;
  CHECK(stat(target, &sb) != 0); /* not created through the link */
  /* eviction leaves lock files alone: they are no entries */
  CHECK(ggr_cache_evict(c) == 0);
  ggr_cache_close(c);
  ggr_cache *off = NULL;
  CHECK(ggr_cache_open_none(&off) == GG_OK);
  ggr_cache_lock(off, k, ggr_now_ms() + 1000, &fd, &busy);
  CHECK(fd < 0 && !busy);
  ggr_cache_close(off);
}

int main(void) {
  snprintf(root, sizeof root, "/tmp/gg_cache_test_XXXXXX");
  if (!mkdtemp(root)) return 1;
  test_keys();
  test_roundtrip_and_bad_entries();
  test_race();
  test_folders();
  test_eviction();
  test_lock();
  char cmd[400];
  snprintf(cmd, sizeof cmd, "chmod -R u+w %s; rm -rf %s", root, root);
  if (system(cmd)) fprintf(stderr, "cleanup of %s failed\n", root);
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("cache: all checks passed\n");
  return failures ? 1 : 0;
}
