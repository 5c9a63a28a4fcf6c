/*
 * toolkit.h - where the vendor libraries come from (toolkit.c says why).
 * Needs no device and no context; gg_compile, the link step and the module
 * cache key all ask here.
 */
#ifndef GGR_TOOLKIT_H
#define GGR_TOOLKIT_H

#include <stddef.h>

/* NVRTC's file names, newest first (NULL-terminated). */
extern const char *const ggr_nvrtc_sonames[];

/* The CUDA toolkit folder: $CUDA_HOME, else the build-time default. */
const char *ggr_cuda_home(void);
/* 1 when $CUDA_HOME is set (then only that toolkit is searched). */
int ggr_cuda_home_from_env(void);

/* 1 when the CUDA toolkit's NVRTC is there (whatever the driver): a
 * machine set up for CUDA, whose "no GPU" message should lead with CUDA. */
int ggr_cuda_toolkit_present(void);

/* Open the first of the NULL-terminated sonames found in the toolkit's
 * lib64 (then on the default search path when $CUDA_HOME is not set).
 * path gets the file opened; tried lists every file tried when none was. */
void *ggr_toolkit_dlopen(const char *const *sonames, char *path, size_t pathlen, char *tried,
                         size_t triedlen);

/* The folder of the loaded library that holds `symbol`; -1 if unknown. */
int ggr_lib_folder(void *symbol, char *dir, size_t n);

/* dlopen, by full path, every file in dir matching the glob pattern, so a
 * later dlopen of the same soname by bare name finds it loaded.  Returns
 * how many were loaded. */
int ggr_preload_beside(const char *dir, const char *pattern);

/* Open the HIP runtime ($GG_HIP_LIBRARY, else the usual names), and
 * preload the libraries it opens by bare name from its folder. */
void *ggr_hip_dlopen(const char **path_out, char *err, size_t errlen);

/* MathDx's folder (the one holding include/cublasdx.hpp): $GG_MATHDX_DIR,
 * else the build-time folder.  0 with it in dir; -1 with why (which names
 * the command that installs it) when it is missing. */
int ggr_mathdx_dir(char *dir, size_t n, char *why, size_t whylen);
/* The install's identity for the cache key (toolkit.c says what it holds). */
void ggr_mathdx_identity(const char *dir, char *buf, size_t n);

/* NVSHMEM's folder (the one holding include/nvshmem.h and lib/):
 * $GG_NVSHMEM_DIR, else the build-time folder; as ggr_mathdx_dir. */
int ggr_nvshmem_dir(char *dir, size_t n, char *why, size_t whylen);
void ggr_nvshmem_identity(const char *dir, char *buf, size_t n);

#endif
