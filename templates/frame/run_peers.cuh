  {
{{STAGE_ARGS}}    if (!{{STAGE_NS}}::gg_body(gg_a, g, gg_sym + {{SYM_OFF}}, gg_mbox))
      return false;
  }
