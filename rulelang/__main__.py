"""`python -m rulelang` runs the command line (rulelang/launch.py starts rulelang/cli.py)."""
from rulelang.launch import main

main(prog_name="rulelang")
