"""Check an export against its JSON Schema in schemas/ (the schema itself checked first)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker

__all__ = ["SCHEMAS", "schema_errors"]

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"


@cache
def _validator(name: str) -> Draft202012Validator:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=FormatChecker())


def schema_errors(document: Any, name: str) -> list[str]:
    """Where `document` breaks the schema `name` (e.g. "argue-debate.v1"): empty if nowhere."""
    errors = _validator(name).iter_errors(document)
    return sorted(f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in errors)
