  /* stage {{STAGE}}: {{STAGE_KERNEL}} ({{FILE}}:{{STAGE_LINE}}): {{STAGE_WHY}} */
