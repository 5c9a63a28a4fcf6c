module {
  nmae = "x",
}
