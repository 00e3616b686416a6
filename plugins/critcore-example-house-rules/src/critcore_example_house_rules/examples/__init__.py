"""Ready-made house-rule files (package data; `crit examples` copies them out)."""
