"""schemas/: one JSON Schema per export format and version, each a valid 2020-12 schema."""

from __future__ import annotations

import json

from jsonschema import Draft202012Validator

from tests.schemas import SCHEMAS

FORMATS = {
    "argue.toulmin.v1": "argue.toulmin",
    "argue-debate.v1": "argue-debate",
    "argue-inquiry.v1": "argue-inquiry",
    "argue-stress-test.v1": "argue-stress-test",
    "argue-tournament.v1": "argue-tournament",
    "argue-discussion.v1": "argue-discussion",
}


def test_it_has_one_valid_schema_per_export_named_by_format_and_version() -> None:
    found = {path.name.removesuffix(".schema.json"): path for path in SCHEMAS.glob("*.json")}
    assert set(found) == set(FORMATS)
    for name, path in found.items():
        schema = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        assert schema["$id"] == path.name
        assert schema["properties"]["format"] == {"const": FORMATS[name]}
        assert schema["properties"]["version"] == {"const": int(name.rsplit(".v", 1)[1])}
        assert {"format", "version"} <= set(schema["required"])
