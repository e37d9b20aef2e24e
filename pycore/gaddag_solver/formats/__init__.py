"""File formats: CGP positions (cgp), GCG game records (gcg) and leave tables (leaves: our
``.leaves`` files, CSV and KLV2). They read and write the solver layer's objects and sit above
it: nothing below imports them."""
