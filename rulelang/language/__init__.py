"""The ruleset language: parse (grammar, parser, syntax errors), statements, compile, fmt, explain.

The public functions are served by the package `rulelang` itself (`rulelang.compile_text`, ...);
`api` holds them. The language knows nothing of the engine (`rulelang.interpreter`).
"""
