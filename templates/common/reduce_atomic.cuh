/* The single accumulator of global_atomic and shared_atomic: where it
 * lives, how one value is merged into it, its one-time initialisation and
 * the copy out by the last block.  A tail (reduce_tail_*_atomic.cuh)
 * follows with the body. */
GG_INLINE acc *ws_accumulator(const {{ARGS_T}} &args)
{
  return (acc *)((char *)args.gg_ws + GG_REDUCE_WS_ACC_OFF);
}

GG_INLINE void atomic_merge(acc_t *p, acc_t v)
{
  {{RED_ATOMIC}}
}

/* The workspace starts zero-filled, and zero is not the identity of every
 * operator (min, prod, ...).  The first block of the first launch writes
 * the identity once; later launches find state 2 with one load.  Blocks
 * spin only while the first one writes, and all blocks are co-resident
 * (the grid is capped at the resident count).  Thread 0 only. */
GG_INLINE void init_accumulator(const {{ARGS_T}} &args)
{
  unsigned *state = (unsigned *)((char *)args.gg_ws + GG_REDUCE_WS_STATE_OFF);
  if (gg_load_acquire_gpu(state) == 2u) return;
  if (atomicCAS(state, 0u, 1u) == 0u) {
    *ws_accumulator(args) = identity();
    gg_store_release_gpu(state, 2u); /* the identity before the state */
  } else {
    while (gg_load_acquire_gpu(state) != 2u) {
    }
  }
}

/* Thread 0, after this block's atomics: take a ticket; the last block
 * copies the accumulator out and puts the identity back for next time. */
GG_INLINE void finish_atomic(const {{ARGS_T}} &args, const gg_grid &g)
{
  /* the ticket's release orders our atomics before it, its acquire (in
     the last block) every block's before the copy below */
  if (gg_ticket_take(ws_ticket(args)) != g.nblocks - 1) return;
  acc *accum = ws_accumulator(args);
  store(args, g, load_partial(accum));
  *accum = identity();
  __threadfence();
  atomicExch(ws_ticket(args), 0u);
}

