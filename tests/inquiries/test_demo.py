"""Without an API key a newcomer still sees a whole inquiry: the demo, computed by the pipeline."""

from __future__ import annotations

import sys
from importlib.abc import MetaPathFinder

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from engine.models import Debate
from inquiries.audit import verify_chain
from inquiries.models import GateViolation, RegisteredClaim

pytestmark = pytest.mark.django_db(transaction=True)


def _in_test_tree(name: str) -> bool:
    return name == "tests" or name.startswith("tests.")


class _NoTestTree(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if _in_test_tree(name):
            raise ModuleNotFoundError(f"No module named {name!r} (not deployed)", name=name)
        return None


@pytest.fixture
def without_the_test_tree(monkeypatch):
    """As on a site deployed without tests/: importing anything from it fails."""
    for name in [name for name in sys.modules if _in_test_tree(name)]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [_NoTestTree(), *sys.meta_path])
    with pytest.raises(ModuleNotFoundError):
        __import__("tests.fakes.anthropic_server")


def test_it_loads_the_demo_once_and_shows_it_without_a_key(client, no_anthropic_key) -> None:
    call_command("load_demo_inquiry")
    call_command("load_demo_inquiry")
    demo = Debate.objects.get(format="inquiry", is_demo=True)
    assert demo.status == "done" and demo.stop_reason
    assert RegisteredClaim.objects.filter(inquiry_id=demo.pk).exists()
    assert GateViolation.objects.filter(inquiry_id=demo.pk, rule="NO_FREE_FACTS").exists()

    client.force_login(get_user_model().objects.create_user("newcomer"))
    page = client.get(reverse("inquiries:new")).content.decode()
    assert (
        "AI service is not set up yet" in page
        and reverse("inquiries:detail", args=[demo.pk]) in page
    )
    result = client.get(reverse("inquiries:detail", args=[demo.pk]))
    assert result.status_code == 200 and "What stands" in result.content.decode()


def test_it_loads_the_demo_on_a_site_deployed_without_the_tests(
    no_anthropic_key, without_the_test_tree
) -> None:
    call_command("load_demo_inquiry")
    demo = Debate.objects.get(format="inquiry", is_demo=True)
    assert demo.status == "done" and demo.output
    assert verify_chain(demo.pk) == []
