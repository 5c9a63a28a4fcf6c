kernel "k" {
  pattern = "for", range = { "n" },
  params = { { "hist", "u32[64]" }, { "x", "u32[n]" }, { "y", "u32[n]", access = "atomic" } },
  -- atomics on y and reads of hist pass; line 7 passes &hist(...) to an atomic
  body = [[
    atomicAdd(&y(i % n), hist(x(i) % 64)); atomicMax_block(&y(0), (unsigned)i);
    unsigned old = atomicAdd_system(&hist(x(i) % 64), 1u); (void)old;
  ]],
}
