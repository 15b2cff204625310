"""`python -m rulelang` runs the command line (rulelang/entry.py: a fast `check`, else the click CLI)."""
from rulelang.entry import main

main(prog_name="rulelang")
