"""Syntax highlighting for rulesets: a Pygments lexer and the TextMate grammar's source of keywords.

`keywords.json` is generated from the grammar (`python -m rulelang.generate`)
and a test fails when it, the lexer or the TextMate grammar miss a keyword.
"""
