-- persistent_three: one persistent kernel serving three commands, fed
-- frames through a host-mapped mailbox with double buffering (the host
-- starts frame i+1 while the GPU still works on frame i).
module { name = "persistent_three", targets = { "cuda", "hip" } }

kernel "matmul32" {
  pattern = "team", league = 1, team_size = 1024,
  params  = {
    { "A", "f32[32][32]" }, { "B", "f32[32][32]" },
    { "C", "f32[32][32]", access = "out" },
  },
  body = [[
    const int r = team_rank / 32, c = team_rank % 32;
    float acc = 0.0f;
    for (int e = 0; e < 32; e++) acc += A(r, e) * B(e, c);
    C(r, c) = acc;
  ]],
}

kernel "sum1k" {
  pattern = "reduce", range = { 1024 },
  params  = { { "x", "f32[1024]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out",
}

kernel "inc32k" {
  pattern = "for", range = { 32768 },
  params  = { { "v", "i32[32768]", access = "inout" } },
  body    = "v(i) += 1;",
}

persistent "loop" {
  layout    = "one_block",            -- one block runs every command
  commands  = { "matmul32", "sum1k", "inc32k" },
  buffering = "double",
  block     = 1024,                   -- the largest command needs 1024 threads
}
