"""The rulelang conformance suite: hand-worked cases (data + schema), a runner and an engine protocol.

- `conformance/cases/<variant>/<topic>.json`: case files, validated by `schema/case.schema.json`;
- `features.json`: the feature tags; `expected-failures/<engine>.json`: known failures by id;
- `PROTOCOL.md`: JSON lines between the runner and an engine (`rulelang engine-adapter`);
- `rulelang conform`: lint the suite, run it, compare, report.
"""
from .cases import Case, lint, select
from .compare import Difference, compare
from .runner import CaseResult, RunResult, run

__all__ = ["Case", "CaseResult", "Difference", "RunResult", "compare", "lint", "run", "select"]
