-- "xchg_pub" makes gg_xchg_pub, a struct of the halo exchange
-- (templates/global/halo_exchange.cuh)
kernel "xchg_pub" { pattern = "for", range = { 4 }, body = "" }
