  const bool gg_xchg = g.nblocks > 1{{XCHG_FITS}}; /* halos in tagged words */
