/*
 * test_nvshmem_link - a kernel that calls NVSHMEM compiles and links for
 * sm_90 as libgg builds a module whose kernels carry GG_FEAT_NVSHMEM:
 * NVRTC -rdc=true with NVSHMEM's headers, then nvJitLink with
 * libnvshmem_device.a (gg_compile_features, the call gpugen check and
 * gg_module_load make).  No device needed.
 *
 * What proves the link: the result is a CUDA ELF executable (NVRTC's
 * relocatable output is ET_REL) whose symbol table leaves nothing
 * undefined but what the driver binds (NVRTC's leaves every NVSHMEM
 * function it calls undefined), and it defines the state
 * nvshmemx_cumodule_init fills.  The kernel puts with a signal from a
 * whole block, the call whose archive name differs from NVRTC's
 * (runtime/nvshmem.c, the bridge): without the bridge the link fails.
 * The same source without GG_FEAT_NVSHMEM does not compile (no NVSHMEM
 * headers), and PTX is refused (nvJitLink needs a real arch).
 *
 * Skips (77) with the install command when NVSHMEM is missing, and when
 * NVRTC is.  The link takes seconds (a 7 MB archive).
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "gg.h"
#include "../expect.h"

/* One exchange as a frame's stage would make it: this PE puts its block
 * of `n` floats into the next PE's `dst` with a signal, waits for the
 * previous PE's signal, and all PEs meet at a barrier. */
static const char src[] =
    "#include <nvshmem.h>\n"
    "#include <nvshmemx.h>\n"
    "extern \"C\" __global__ void ring(float *dst, const float *src, unsigned long long *sig,\n"
    "                                  size_t n, unsigned long long round) {\n"
    "  int me = nvshmem_my_pe(), npes = nvshmem_n_pes();\n"
    "  if (blockIdx.x == 0) {\n"
    "    nvshmemx_float_put_signal_nbi_block(dst, src, n, sig, round, NVSHMEM_SIGNAL_SET,\n"
    "                                        (me + 1) % npes);\n"
    "    if (threadIdx.x == 0) nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, round);\n"
    "    __syncthreads();\n"
    "  }\n"
    "  if (blockIdx.x == 0 && threadIdx.x == 0) nvshmem_barrier_all();\n"
    "}\n";

/* The options gpugen writes into every CUDA module (gen/emit.c). */
static const char *const opts[] = {"-std=c++17", "-default-device", NULL};

/* Names a cubin leaves for the driver to bind at load time: device-side
 * printf, assert and heap, and the reserved shared memory's offsets. */
static int from_driver(const char *name) {
  static const char *const calls[] = {"vprintf", "__assertfail", "malloc", "free", NULL};
  if (!strncmp(name, ".nv.", 4)) return 1;
  for (int i = 0; calls[i]; i++)
    if (!strcmp(name, calls[i])) return 1;
  return 0;
}

typedef struct elf_facts {
  int type, machine;
  int undefined;    /* global or weak symbols with no section, but the driver's */
  int has_state;    /* defines nvshmemi_device_state_d */
  char first_undef[128];
} elf_facts;

/* Read what the checks need from a 64-bit CUDA ELF image; -1 if it is not one. */
static int read_elf(const unsigned char *b, size_t n, elf_facts *f) {
  memset(f, 0, sizeof *f);
  if (n < sizeof(Elf64_Ehdr) || memcmp(b, ELFMAG, SELFMAG) || b[EI_CLASS] != ELFCLASS64) return -1;
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;
  f->type = eh->e_type;
  f->machine = eh->e_machine;
  if (eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > n) return -1;
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(b + eh->e_shoff);
  for (int i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum) continue;
    const Elf64_Shdr *strs = &sh[sh[i].sh_link];
    if (sh[i].sh_offset + sh[i].sh_size > n || strs->sh_offset + strs->sh_size > n) return -1;
    const Elf64_Sym *sym = (const Elf64_Sym *)(b + sh[i].sh_offset);
    size_t count = sh[i].sh_size / sizeof *sym;
    for (size_t k = 1; k < count; k++) {
      if (sym[k].st_name >= strs->sh_size) return -1;
      const char *name = (const char *)b + strs->sh_offset + sym[k].st_name;
      int bind = ELF64_ST_BIND(sym[k].st_info);
      if (sym[k].st_shndx == SHN_UNDEF && *name && (bind == STB_GLOBAL || bind == STB_WEAK) &&
          !from_driver(name)) {
        if (!f->undefined++) snprintf(f->first_undef, sizeof f->first_undef, "%s", name);
      }
      if (sym[k].st_shndx != SHN_UNDEF && !strcmp(name, "nvshmemi_device_state_d"))
        f->has_state = 1;
    }
  }
  return 0;
}

int main(void) {
  char why[1600];
  if (!gg_nvshmem_available(why, sizeof why)) {
    printf("skip: %s\n", why);
    return 77;
  }
  gg_compile_result res;
  gg_status st = gg_compile_features(GG_BACKEND_CUDA, "sm_90", "ring.cu", src, opts,
                                     GG_FEAT_NVSHMEM, &res);
  if (st == GG_ERR_NO_LIBRARY && res.log && strstr(res.log, "NVRTC not found")) {
    printf("skip: %s\n", res.log);
    gg_compile_result_free(&res);
    return 77;
  }
  if (st) printf("FAIL ring.cu: %s\n%s\n", gg_strerror(st), res.log ? res.log : "");
  CHECK(st == GG_OK);
  elf_facts f;
  if (!st) {
    CHECK(read_elf(res.binary, res.binary_size, &f) == 0);
    printf("ring.cu: %zu bytes of cubin, ELF type %d, machine %d, %d undefined%s%s\n",
           res.binary_size, f.type, f.machine, f.undefined, f.undefined ? ", first " : "",
           f.first_undef);
    CHECK(f.machine == 190); /* EM_CUDA */
    CHECK(f.type == ET_EXEC);
    CHECK(f.undefined == 0);
    CHECK(f.has_state);
  }
  gg_compile_result_free(&res);

  /* the feature is what brings NVSHMEM in: without it the headers are not found */
  st = gg_compile_features(GG_BACKEND_CUDA, "sm_90", "ring.cu", src, opts, 0, &res);
  CHECK(st == GG_ERR_COMPILE && res.log && strstr(res.log, "nvshmem.h"));
  gg_compile_result_free(&res);

  /* PTX cannot be linked: refused before NVRTC runs, saying why */
  st = gg_compile_features(GG_BACKEND_CUDA, "compute_90", "ring.cu", src, opts, GG_FEAT_NVSHMEM,
                           &res);
  CHECK(st == GG_ERR_UNSUPPORTED && res.log && strstr(res.log, "sm_XX"));
  gg_compile_result_free(&res);

  if (failures) return 1;
  printf("test_nvshmem_link: ok\n");
  return 0;
}
