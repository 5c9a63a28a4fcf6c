/* backend.c - what both vendor backends share: unloading, status mapping. */
#include <dlfcn.h>
#include <stdlib.h>

#include "backend.h"

void ggr_backend_unload(ggr_backend *be) {
  if (!be) return;
  if (be->lib) dlclose(be->lib);
  free(be);
}

gg_status ggr_status_of(int code) {
  switch (code) {
  case 0: return GG_OK;
  case GGR_E_OUT_OF_MEMORY: return GG_ERR_OUT_OF_MEMORY;
  case GGR_E_STUB_LIBRARY: return GG_ERR_NO_LIBRARY;
  case GGR_E_NO_DEVICE:
  case GGR_E_INVALID_DEVICE: return GG_ERR_NO_DEVICE;
  case GGR_E_COOPERATIVE_TOO_LARGE: return GG_ERR_NOT_CORESIDENT;
  case GGR_E_LAUNCH_OUT_OF_RESOURCES: return GG_ERR_LAUNCH;
  case GGR_E_NO_BINARY_FOR_GPU:
  case GGR_E_INVALID_PTX:
  case GGR_E_UNSUPPORTED_PTX_VERSION: return GG_ERR_UNSUPPORTED;
  case GGR_E_ILLEGAL_ADDRESS:
  case GGR_E_LAUNCH_TIMEOUT:
  case GGR_E_LAUNCH_FAILED:
  case 710: /* assert */
  case 714: case 715: case 716: case 717: case 718: /* stack, instruction, alignment, pc */
    return GG_ERR_KERNEL_FAULT;
  default: return GG_ERR_BACKEND;
  }
}
