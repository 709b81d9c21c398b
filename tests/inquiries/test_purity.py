"""The inquiry rules stay pure: importing them loads no Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_it_imports_the_pure_modules_without_django() -> None:
    code = (
        "import sys, argumentation.sanad, inquiries.gates, inquiries.stopping, "
        "inquiries.scoring, inquiries.graph; sys.exit('django' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parents[2]
    )
    assert result.returncode == 0, result.stderr or "django was imported"
