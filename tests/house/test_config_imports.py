"""``config`` is the site's frame: settings, URLs, the background pool. It imports no product app.

Apps are named in settings and URLs as strings (``INSTALLED_APPS``,
``include("coach.urls")``), so the frame loads without them and an app never
finds ``config`` depending on it. Every import counts, lazy ones too.
"""

from __future__ import annotations

from tests.house.imports import imports, modules


def _products() -> set[str]:
    return {name.split(".")[0] for name in modules()} - {"config"}


def product_imports(module: str) -> list[str]:
    return [
        f"{module}:{imported.line} {imported.module}"
        for imported in imports(module)
        if imported.module.split(".")[0] in _products()
    ]


def test_it_finds_no_product_app_imported_by_config() -> None:
    frame = [name for name in modules() if name.split(".")[0] == "config"]
    assert {"config.settings", "config.urls", "config.views"} <= set(frame)
    assert [found for module in frame for found in product_imports(module)] == []


def test_it_would_see_a_product_app_in_config() -> None:
    assert {"coach", "debates", "classroom", "trials", "home"} <= _products()
    assert product_imports("home.views"), "home's views import the product, as they should"
