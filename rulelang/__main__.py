"""`python -m rulelang` runs the command line (rulelang/launch.py starts rulelang/cli.py)."""
try:
    from rulelang.launch import main
except KeyboardInterrupt:  # a Ctrl-C while the launcher itself is imported: as launch.py says it
    from rulelang.base import interrupt

    interrupt.report()
    raise SystemExit(interrupt.EXIT_STATUS) from None

main(prog_name="rulelang")
