"""The configuration layer: `rulelang-config/1` declared once, below both the language and the engine.

- `fields`: every field (`Fields`, a frozen dataclass; one `declare(...)` each), the term shapes, the
  schema's rules across fields (`CONSTRAINTS`);
- `spec`: what a declaration holds (`Spec`, `declare`, `Schema`); `declared`: the declarations, read once;
- `vocabulary`: the closed sets of values (`Literal` types) and the tile sets;
- `schema`: the JSON Schema generated from the declarations; `validation`: checking a configuration
  against the committed schema file; `rules`: the rules beyond the schema, over the record (`config_problems`);
- `defaults`: the compiler's empty configuration and `without_defaults`; `reading`: a configuration
  dict -> its typed record (`read_record`, a `Fields`: what the rules, the language and the engine read;
  interpreter/config.py builds its `Config` with `read_fields`);
- `docs`: the field table of docs/config.md.

It imports nothing of the language or the engine. `python -m rulelang.generate` regenerates what is
generated from it.
"""
