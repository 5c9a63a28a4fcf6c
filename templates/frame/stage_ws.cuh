    {{ARG}}.gg_ws = gg_ws + gg_off;
    gg_off += ({{WS_FIXED}}ull + {{WS_PER_BLOCK}}ull * g.nblocks + {{WS_ALIGN_LESS_1}}u) / {{WS_ALIGN}}u * {{WS_ALIGN}}u;
