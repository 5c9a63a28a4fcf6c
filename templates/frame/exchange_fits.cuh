 &&
      gg_xchg_fits({{WORK}}, (long long)g.nthreads * {{VECTOR}}, {{PUB_CHUNKS}}, g.nblocks)