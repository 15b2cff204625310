"""The shared bottom of the package: errors, bounded input, safe output, worker processes, Ctrl-C.

These modules know no rule of the game and import nothing of the package but each other; the
configuration, the language, the engine's tools and the commands all report through them.
"""
