"""rulelang: a declarative rules language for the All Fives / Five-Up domino family.

    >>> import rulelang
    >>> config = rulelang.compile_bundled("allfives")
    >>> config["target"]["raw"]
    150

Errors are `RulesetError`s with a stable `code`, `line` and `column`; when a
text has several, the one raised is a `RulesetErrors` whose `errors` lists them
all (`check_text` returns the list without raising).

Every name is served on first use (PEP 562): importing the package, which
every import of a submodule does first (the engine, `rulelang.interpreter`,
too), loads none of the language, and `python -m rulelang` reaches its Ctrl-C
guard (rulelang/launch.py) after as little work as can be.
"""
from __future__ import annotations

import importlib

TYPE_CHECKING = False  # not `typing`'s: importing typing takes long enough for a Ctrl-C to land in it (interrupt.py)
if TYPE_CHECKING:
    from rulelang._version import __version__
    from rulelang.base.errors import RulesetCheckError, RulesetError, RulesetErrors, RulesetFileError, RulesetSyntaxError
    from rulelang.language.analysis import Analysis, analyse
    from rulelang.language.api import (
        check_text,
        compile_bundled,
        compile_file,
        compile_text,
        load,
        load_config_dict,
        loads,
    )
    from rulelang.language.ast import Ruleset
    from rulelang.language.bundled import bundled_filename as bundled_filename
    from rulelang.language.bundled import bundled_names
    from rulelang.language.bundled import bundled_text as bundled_text
    from rulelang.language.compiler import config_schema, validate_config
    from rulelang.language.formatter import config_to_text, format_text

    load_config = load_config_dict

# public name -> the module that defines it
_WHERE = {
    "__version__": "rulelang._version",
    "Ruleset": "rulelang.language.ast",
    "Analysis": "rulelang.language.analysis",
    "analyse": "rulelang.language.analysis",
    "RulesetError": "rulelang.base.errors",
    "RulesetSyntaxError": "rulelang.base.errors",
    "RulesetCheckError": "rulelang.base.errors",
    "RulesetFileError": "rulelang.base.errors",
    "RulesetErrors": "rulelang.base.errors",
    "loads": "rulelang.language.api",
    "load": "rulelang.language.api",
    "check_text": "rulelang.language.api",
    "compile_text": "rulelang.language.api",
    "compile_file": "rulelang.language.api",
    "compile_bundled": "rulelang.language.api",
    "load_config_dict": "rulelang.language.api",
    "bundled_names": "rulelang.language.bundled",
    "bundled_text": "rulelang.language.bundled",  # served, not listed in __all__: as before
    "bundled_filename": "rulelang.language.bundled",
    "config_schema": "rulelang.language.compiler",
    "validate_config": "rulelang.language.compiler",
    "config_to_text": "rulelang.language.formatter",
    "format_text": "rulelang.language.formatter",
}
# former names, kept while callers move
_ALIASES = {"load_config": "load_config_dict"}

__all__ = [
    "__version__", "Ruleset", "Analysis", "analyse", "RulesetError", "RulesetSyntaxError", "RulesetCheckError", "RulesetFileError",
    "RulesetErrors", "loads", "load", "check_text", "compile_text", "compile_file", "compile_bundled",
    "bundled_names", "load_config", "load_config_dict", "config_schema", "validate_config", "config_to_text",
    "format_text",
]


def __getattr__(name: str) -> object:
    module = _WHERE.get(_ALIASES.get(name, name))
    if module is None:
        raise AttributeError(f"module 'rulelang' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), _ALIASES.get(name, name))
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE, *_ALIASES])
