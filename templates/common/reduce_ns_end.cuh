} /* namespace GG_NS_{{NAME}}: the reduce's pieces end here, the pattern's own code follows */
