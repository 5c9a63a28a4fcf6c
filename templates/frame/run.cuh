  {
{{STAGE_ARGS}}    {{STAGE_NS}}::gg_body(gg_a, g);
  }
