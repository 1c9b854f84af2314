"""xDSL (IRDL) dialect definitions, one file per dialect."""
