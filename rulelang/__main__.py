"""`python -m rulelang` runs the command line."""
from rulelang.cli import main

main(prog_name="rulelang")
