/* Phase 3 of warp_shuffle, deterministic, shared_tree and cg_tile: the
 * last block to take the ticket combines the per-block partials. */
/* Phase 3: one pass, no second kernel, no pre-initialised output.  Each
 * block leaves its partial in the workspace and takes a ticket; the last
 * block to arrive combines the partials in block order - a fixed order,
 * so the result is bit-identical run to run for a fixed grid - writes
 * into(), and resets the ticket for the next launch.  `a` is valid in
 * thread 0. */
GG_INLINE void finish(const {{ARGS_T}} &args, const gg_grid &g, const acc &a)
{
  if (g.nblocks == 1) { /* one block: nothing to combine, no workspace */
    if (g.thread == 0) store(args, g, a);
    return;
  }
  unsigned *ticket = ws_ticket(args);
  acc *part = ws_partials(args);
  unsigned *am_last = (unsigned *)g.smem;
  if (g.thread == 0) {
    part[g.block] = a;
    /* the ticket's release orders the partial before it; its acquire, in
       the last block, every other block's partial before thread 0's next
       access - and the barrier below before every thread's: no
       __threadfence (a MEMBAR.SC.GPU) on either side */
    *am_last = gg_ticket_take(ticket) == g.nblocks - 1;
  }
  gg_sync(g);
  const unsigned last = *am_last;
  gg_sync(g); /* block_reduce below reuses the word */
  /* The other blocks are done.  Pseudo-blocks (named barriers) still run
     block_reduce, on nothing, so that every pseudo-block passes the same
     named barriers whichever came last: where one pseudo-block, chosen at
     run time, passes more of them than the others, compute-sanitizer's
     racecheck reports hazards across the block's __syncthreads that do
     not exist (tests/sanitizer/named_barriers.cu, mode ticket: a correct
     kernel).  Off the critical path: the last block's combine is longer. */
  if (!last && g.bar_id == 0) return;
  acc b = identity();
  if (last)
    for (unsigned i = g.thread; i < g.nblocks; i += g.nthreads) combine(b, load_partial(&part[i]));
  b = block_reduce(b, g);
  if (last && g.thread == 0) {
    store(args, g, b);
    atomicExch(ticket, 0u); /* ready for the next launch */
  }
}

