-- persistent_bench.lua: the workloads of bench/persistent_bench.c (CuPer's
-- table: empty, 32K increment, n x n matmul, 1K and 32K sums), each as a
-- kernel for classic launches and CUDA graphs and as the command of
-- persistent kernels in every layout that fits it.
module { name = "persistent_bench", targets = { "cuda" } }

kernel "empty" { pattern = "for", range = { 1 },
  params = { { "flag", "i32[1]", access = "inout" } }, body = "" }

kernel "inc" { pattern = "for", range = { "n" }, block = 256,
  params = { { "x", "f32[n]", access = "inout" } }, body = "x(i) += 1.0f;" }

-- one thread per element of C, the row of A and column of B from L2
kernel "matmul" { pattern = "for", range = { "n", "n" }, block = 256,
  params = { { "A", "f32[n][n]" }, { "B", "f32[n][n]" }, { "C", "f32[n][n]", access = "out" } },
  body = [[
    float acc = 0.0f;
    for (long long k = 0; k < n; ++k) acc += A(i, k) * B(k, j);
    C(i, j) = acc;
  ]] }

kernel "sum" { pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]" }, { "out", "f32[1]", access = "out" } },
  value = "x(i)", op = "sum", into = "out" }

-- The sum as a frame whose result rides in the acknowledgement: out is
-- device memory and the sum is all the host reads, so the frame ends with
-- one relaxed store carrying the value (no system-scope release; gpugen
-- explain persistent_bench.lua sum_r).
frame "sum_r" { params = { { "x", "f32[n]" }, { "out", "f32[1]", space = "device" } },
  stages = { { "sum" } }, result = "out" }

persistent "empty_one" { layout = "one_block", block = 32, commands = { "empty" } }
persistent "empty_many" { layout = "many_blocks", block = 32, blocks = 4, commands = { "empty" } }
persistent "empty_groups" { layout = "thread_groups", block = 128, groups = 4, commands = { "empty" } }
persistent "one" { layout = "one_block", block = 1024, commands = { "inc", "matmul", "sum", "sum_r" } }
persistent "sum256" { layout = "one_block", block = 256, commands = { "sum", "sum_r" } }
persistent "many16" { layout = "many_blocks", block = 256, blocks = 16, commands = { "inc", "matmul", "sum", "sum_r" } }
persistent "hybrid" { layout = "hybrid", block = 512, blocks = 8, groups = 2, commands = { "inc" } }
-- the whole GPU: as many blocks of 256 as co-reside (the session decides)
persistent "whole" { layout = "many_blocks", block = 256, commands = { "inc", "matmul", "sum", "sum_r" } }
