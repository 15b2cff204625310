"""`python -m rulelang` runs the command line (rulelang/cli.py)."""
from rulelang.cli import main

main(prog_name="rulelang")
