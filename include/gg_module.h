/*
 * gg_module.h - what `gpugen emit` writes and the runtime reads.
 *
 * A generated module file (.c) defines one `const gg_module_desc` holding
 * the kernel sources as strings and a descriptor per kernel.  This header is
 * the whole contract between the generator (gen/) and the runtime
 * (runtime/): neither includes the other's internals.
 *
 * Every kernel takes ONE parameter, a struct passed by value whose layout is
 * described by gg_param_desc.offset / gg_kernel_desc.args_size.  The same
 * struct travels through a persistent session's mailbox, so one packing
 * routine serves classic, cooperative and persistent dispatch.
 *
 * Bump GG_MODULE_ABI whenever a struct below changes.
 */
#ifndef GG_MODULE_H
#define GG_MODULE_H

#include <stddef.h>
#include <stdint.h>

#include "gg_abi.h"

#define GG_MODULE_ABI 11

/* A compile-time check in C11 and C++11 alike: a generated header proves
 * with it that the compiler lays out each argument struct as the
 * descriptor says (sizeof, and offsetof of every field). */
#ifdef __cplusplus
#define GG_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define GG_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* The element types, defined once for the generator and the runtime:
 * X(enum, spelling in workload files, bytes, is a floating type,
 *   device C type, host C type, largest value, lowest value).
 * f16/bf16 travel as their 16-bit patterns on the host; the device types
 * gg_f16 / gg_bf16 are the preludes'.  Floating types' extremes are the
 * infinities (GG_INF in the preludes). */
#define GG_DTYPE_LIST(X)                                                                      \
  X(GG_I32, "i32", 4, 0, "int", "int32_t", "2147483647", "(-2147483647 - 1)")                 \
  X(GG_U32, "u32", 4, 0, "unsigned", "uint32_t", "4294967295u", "0")                           \
  X(GG_I64, "i64", 8, 0, "long long", "int64_t", "9223372036854775807LL",                      \
    "(-9223372036854775807LL - 1)")                                                           \
  X(GG_U64, "u64", 8, 0, "unsigned long long", "uint64_t", "18446744073709551615ULL", "0")     \
  X(GG_F32, "f32", 4, 1, "float", "float", "(GG_INF)", "(-GG_INF)")                           \
  X(GG_F64, "f64", 8, 1, "double", "double", "(GG_INF)", "(-GG_INF)")                         \
  X(GG_F16, "f16", 2, 1, "gg_f16", "uint16_t", "(GG_INF)", "(-GG_INF)")                       \
  X(GG_BF16, "bf16", 2, 1, "gg_bf16", "uint16_t", "(GG_INF)", "(-GG_INF)")

typedef enum gg_dtype {
#define GG_DTYPE_ENUM_(e, ...) e,
  GG_DTYPE_LIST(GG_DTYPE_ENUM_)
#undef GG_DTYPE_ENUM_
  GG_PTR, /* a hidden pointer field (workspace) */
  GG_DTYPE_COUNT
} gg_dtype;

typedef enum gg_param_kind {
  GG_PARAM_SCALAR, /* a value written by the caller */
  GG_PARAM_VIEW,   /* a pointer to an array (gg_array) */
  GG_PARAM_EXTENT, /* a run-time extent (i64), named in a view or range */
  GG_PARAM_STRIDE, /* an element stride (i64) of a layout=stride view */
  GG_PARAM_HIDDEN  /* filled by the runtime: workspace, launch sequence */
} gg_param_kind;

/* Memory spaces, defined once: X(enum, spelling in workload files and messages). */
#define GG_SPACE_LIST(X)                                                                      \
  X(GG_SPACE_DEVICE, "device") X(GG_SPACE_MAPPED, "mapped") X(GG_SPACE_MANAGED, "managed")      \
  X(GG_SPACE_HOST, "host")

typedef enum gg_space {
#define GG_SPACE_ENUM_(e, name) e,
  GG_SPACE_LIST(GG_SPACE_ENUM_)
#undef GG_SPACE_ENUM_
} gg_space;

/* A view's memory order, defined once: X(enum, spelling in workload files).
 * right: the last index is fastest (C order); left: the first (Fortran
 * order); stride: one element stride per extent, given at run time. */
#define GG_LAYOUT_LIST(X)                                                                     \
  X(GG_LAYOUT_RIGHT, "right") X(GG_LAYOUT_LEFT, "left") X(GG_LAYOUT_STRIDE, "stride")

typedef enum gg_layout {
#define GG_LAYOUT_ENUM_(e, name) e,
  GG_LAYOUT_LIST(GG_LAYOUT_ENUM_)
#undef GG_LAYOUT_ENUM_
} gg_layout;

/* How a kernel uses a view, defined once: X(enum, spelling in workload files). */
#define GG_ACCESS_LIST(X)                                                                     \
  X(GG_ACCESS_IN, "in") X(GG_ACCESS_OUT, "out") X(GG_ACCESS_INOUT, "inout")                    \
  X(GG_ACCESS_ATOMIC, "atomic")

typedef enum gg_access {
#define GG_ACCESS_ENUM_(e, name) e,
  GG_ACCESS_LIST(GG_ACCESS_ENUM_)
#undef GG_ACCESS_ENUM_
} gg_access;

typedef enum gg_pattern {
  GG_PATTERN_FOR, GG_PATTERN_REDUCE, GG_PATTERN_SCAN, GG_PATTERN_TEAM, GG_PATTERN_TILE_REDUCE,
  /* C = alpha op(A) op(B) + beta C per batch item, one cuBLASDx block
   * GEMM per (virtual) block; grid: one block per item (league = batch) */
  GG_PATTERN_GEMM,
  /* one cuFFTDx block FFT per batch item and (virtual) block; grid: one
   * block per item (league = batch) */
  GG_PATTERN_FFT,
  /* A frame's exchange stage on N GPUs (`{ exchange = "allreduce" }`):
   * every GPU's view becomes op over all GPUs' views.  Its kernel is
   * made by gpugen for the frame and is no entry of the module's
   * kernels: it runs only as a stage. */
  GG_PATTERN_ALLREDUCE,
  /* `{ exchange = "broadcast", root = r }`: every GPU's view becomes GPU
   * r's; `{ exchange = "allgather" }`: GPU q's part of the view (its
   * share of the first index) goes to every GPU.  Frame stages only, as
   * allreduce. */
  GG_PATTERN_BROADCAST,
  GG_PATTERN_ALLGATHER,
  /* `{ exchange = "alltoall" }`: the view's first index in N equal
   * blocks; block q of GPU p becomes block p of GPU q (a corner turn). */
  GG_PATTERN_ALLTOALL,
  /* `{ exchange = "halo", width = w }`: each GPU's view holds its part of
   * a larger array with w ghost rows at each end of its first index;
   * they get the neighbour GPUs' edge rows (a stencil across GPUs). */
  GG_PATTERN_HALO,
  /* A frame: an ordered chain of stages (kernels of the module with bound
   * arguments) run inside a persistent kernel as ONE command.  Its
   * descriptor has mode GG_LAUNCH_PERSISTENT and no function of its own:
   * it is started through a session, never launched. */
  GG_PATTERN_FRAME
} gg_pattern;

/* How a kernel is launched, defined once: X(enum, spelling in workload
 * files).  A workload writes classic or cooperative; GG_LAUNCH_PERSISTENT,
 * after the list, is a frame's (started through a session). */
#define GG_LAUNCH_LIST(X) X(GG_LAUNCH_CLASSIC, "classic") X(GG_LAUNCH_COOPERATIVE, "cooperative")

typedef enum gg_launch_mode {
#define GG_LAUNCH_ENUM_(e, name) e,
  GG_LAUNCH_LIST(GG_LAUNCH_ENUM_)
#undef GG_LAUNCH_ENUM_
  GG_LAUNCH_PERSISTENT
} gg_launch_mode;

/* How the runtime sizes the grid of a classic or cooperative launch. */
typedef enum gg_grid_rule {
  GG_GRID_COVER,  /* ceil(work / (block * items)) blocks, work = product of range */
  GG_GRID_LEAGUE, /* league_size blocks (team pattern) */
  GG_GRID_FIXED,  /* grid_fixed blocks */
  GG_GRID_RESIDENT /* as many blocks as are co-resident (occupancy API) */
} gg_grid_rule;

/* A persistent kernel's arrangement of blocks and pseudo-blocks, defined
 * once: X(enum, spelling in workload files, written layout = "..."). */
#define GG_ARRANGEMENT_LIST(X)                                                                \
  X(GG_PLAYOUT_ONE_BLOCK, "one_block") X(GG_PLAYOUT_MANY_BLOCKS, "many_blocks")                \
  X(GG_PLAYOUT_THREAD_GROUPS, "thread_groups") X(GG_PLAYOUT_HYBRID, "hybrid")

typedef enum gg_persistent_layout {
#define GG_ARRANGEMENT_ENUM_(e, name) e,
  GG_ARRANGEMENT_LIST(GG_ARRANGEMENT_ENUM_)
#undef GG_ARRANGEMENT_ENUM_
} gg_persistent_layout;

/* Hidden parameter meanings (gg_param_desc.hidden). */
enum { GG_HIDDEN_NONE = 0, GG_HIDDEN_WORKSPACE = 1, GG_HIDDEN_SEQ = 2 };

/* Feature bits a kernel needs from the device (gg_kernel_desc.features);
 * gen/vocab.c names each for the generated descriptors. */
enum {
  GG_FEAT_COOPERATIVE   = 1u << 0, /* cooperative launch / grid sync */
  GG_FEAT_FLOAT_ATOMIC  = 1u << 1, /* atomicAdd on f32 */
  GG_FEAT_DOUBLE_ATOMIC = 1u << 2, /* atomicAdd on f64 (sm_60+) */
  GG_FEAT_CAS_EMULATION = 1u << 3, /* uses a compare-and-swap loop */
  GG_FEAT_HALF          = 1u << 4, /* f16 / bf16 types */
  GG_FEAT_MAPPED        = 1u << 5, /* host-mapped memory */
  GG_FEAT_MANAGED       = 1u << 6, /* managed memory */
  /* The classic wrapper waits for the previous kernel of the stream
   * (griddepcontrol.wait, sm_90+) before the body touches memory: the
   * kernel may be launched with programmatic dependent launch
   * (gg_stream_set_pdl).  A hint, not a requirement: no device refuses it. */
  GG_FEAT_PDL           = 1u << 7,
  /* includes NVIDIA MathDx (cuBLASDx / cuFFTDx headers): the runtime adds
   * their include folders and their identity to the cache key, for the
   * modules holding such a kernel only (CUDA only) */
  GG_FEAT_MATHDX        = 1u << 8,
  /* calls NVSHMEM device functions (frames across GPUs,
   * docs/multi-gpu.md): the runtime compiles the module with NVRTC
   * -rdc=true and NVSHMEM's include folder for a real arch (sm_XX), links
   * it with libnvshmem_device.a through nvJitLink, adds NVSHMEM's identity
   * to the cache key, and after loading it initializes it for NVSHMEM
   * (nvshmemx_cumodule_init), which needs NVSHMEM initialized in the
   * process (CUDA only) */
  GG_FEAT_NVSHMEM       = 1u << 9
};

/* A range or view extent: a constant, or the run-time extent parameter
 * at index `param` of gg_kernel_desc.params. */
typedef struct gg_extent_desc {
  int64_t value; /* valid when param < 0 */
  int param;     /* index into params, or -1 */
} gg_extent_desc;

typedef struct gg_param_desc {
  const char *name;
  gg_param_kind kind;
  gg_dtype dtype;      /* element type for views, value type otherwise */
  int rank;            /* views: 1..3; others: 0 */
  gg_extent_desc extents[3];
  gg_layout layout;
  gg_space space;
  gg_access access;
  int hidden;          /* GG_HIDDEN_* for GG_PARAM_HIDDEN */
  uint32_t offset;     /* byte offset inside the argument struct */
  uint32_t size;       /* bytes of the field (8 for pointers) */
} gg_param_desc;

typedef struct gg_kernel_desc {
  const char *name;    /* the workload's name in the .lua file */
  const char *symbol;  /* extern "C" __global__ function name */
  gg_pattern pattern;
  gg_launch_mode mode;
  int rank;                   /* of the range */
  gg_extent_desc range[3];    /* the iteration space */
  gg_extent_desc league;      /* team pattern: number of teams */
  int block_size;             /* threads per block */
  int items_per_thread;
  gg_grid_rule grid_rule;
  int64_t grid_fixed;
  /* GG_GRID_LEAGUE: blocks per league item (gemm: one per tile of C);
   * 0 or 1 = one */
  int64_t league_blocks;
  int cap_resident;           /* cap the grid at the co-resident block count */
  uint32_t shared_bytes;      /* dynamic shared memory per block */
  /* Workspace the runtime allocates once per kernel, zero-filled, and
   * passes in the hidden GG_HIDDEN_WORKSPACE field; kernels leave it as
   * they found it.  bytes = ws_fixed + ws_per_block * max_grid. */
  uint32_t ws_fixed, ws_per_block;
  unsigned features;
  uint32_t args_size;         /* sizeof the argument struct */
  uint32_t args_align;
  int nparams;
  const gg_param_desc *params;
  const char *strategy;       /* the chosen strategy, for messages */
  int lua_line;               /* where the workload was declared */
  /* Small work, small blocks: when the range's work (GG_GRID_COVER) is at
   * most small_work, gg_launch runs small_block threads per block instead
   * of block_size (the body works for any block size up to block_size).
   * 0 = always block_size.  Lets a run-time size get big blocks when it is
   * big and many small blocks when it is small. */
  int small_block;
  int64_t small_work;
  /* tile_reduce: elements per tile, and the index in params of the output
   * view, whose extent must be ceil(n / tile) (gg_pack_args checks it);
   * 0 and -1 otherwise. */
  int tile;
  int into_param;
  /* A frame's result (gg_protocol.h: results in the acknowledgement):
   * result_bytes (1..GG_MBOX_RESULT_MAX) of the one-element view
   * params[result_param] ride in the frame's acknowledgement, read by
   * gg_session_result; 0 = no result.  ack_relaxed: the acknowledgement is
   * stored without a system-scope release (every other written view is
   * declared in device memory); 0 = with it. */
  uint32_t result_bytes;
  int result_param;
  int ack_relaxed;
  /* A gemm's tile = "auto": 1 + the index in the module's kernels of the
   * kernel this one is a tile variant of (gpugen names it
   * <kernel>_tile<tm>x<tn>x<tk>; gg_session_tune measures it beside that
   * kernel); 0 = none. */
  int variant_of;
} gg_kernel_desc;

/* What the generator planned for one command inside one persistent
 * kernel.  Its body runs on the kernel's virtual grid of blocks x groups
 * pseudo-blocks of block_size / groups threads each, so its workspace is
 * sized for that grid, not for a classic launch's. */
typedef struct gg_persistent_command {
  /* Workspace of this command in this kernel (the session allocates it,
   * zero-filled, and fills the command's hidden workspace field):
   * ws_fixed + ws_per_block * (hardware blocks x groups) bytes. */
  uint32_t ws_fixed, ws_per_block;
  /* Threads per pseudo-block the body is correct with: min_threads up to
   * max_threads (shared memory sized for it); 0 = no bound.  A team is
   * exactly its team_size (min = max = team_size: fewer threads would
   * leave part of the team out, more would overrun the shared memory of
   * its team_sum/min/max), and so is a frame with a team stage (a
   * frame's min is its stages' largest, its max their smallest).  gpugen
   * refuses a persistent kernel whose pseudo-block (block / groups) is
   * any other size, and gg_session_open a descriptor that gives one
   * (GG_ERR_INVALID). */
  int min_threads, max_threads;
} gg_persistent_command;

/* A persistent kernel: launched once, fed frames through a mailbox.
 * Every figure is the generator's; the runtime uses them as given and
 * refuses a descriptor whose figures disagree with its commands. */
typedef struct gg_persistent_desc {
  const char *name;
  const char *symbol;
  gg_persistent_layout layout;
  int block_size;      /* hardware threads per block (> 0) */
  int blocks;          /* many_blocks / hybrid: requested blocks (0 = all co-resident) */
  int groups;          /* pseudo-blocks per block (1 unless thread_groups / hybrid) */
  int buffering;       /* number of frame slots: 1 single, 2 double, N ring */
  int ncommands;
  const int *commands; /* indices into gg_module_desc.kernels */
  uint32_t slot_args_size; /* the largest command's argument struct */
  uint32_t shared_bytes;   /* dynamic shared memory per block: groups x group_smem */
  int lua_line;
  uint32_t group_smem;     /* dynamic shared memory per pseudo-block (16-byte multiple) */
  const gg_persistent_command *plan; /* ncommands entries, in the order of commands */
  /* Frames on several GPUs (docs/multi-gpu.md): the GPUs they run on, one
   * process each (0 or 1: one GPU, no team), and the bytes of symmetric
   * memory (NVSHMEM's heap) the kernel's exchange stages use, which
   * gg_session_open allocates on the team (gg_persist_params.sym). */
  int gpus;
  uint64_t sym_bytes;
} gg_persistent_desc;

typedef struct gg_module_desc {
  int abi;                   /* GG_MODULE_ABI */
  const char *name;
  const char *lua_file;      /* as given to gpugen */
  const char *gpugen_version;
  const char *cuda_source;   /* NULL when the target was not requested */
  const char *hip_source;
  const char *const *cuda_options; /* NULL-terminated */
  const char *const *hip_options;
  int nkernels;
  const gg_kernel_desc *kernels;
  int npersistent;
  const gg_persistent_desc *persistent;
} gg_module_desc;

#endif /* GG_MODULE_H */
