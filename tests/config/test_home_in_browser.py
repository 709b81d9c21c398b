import pytest
from django.contrib.auth import get_user_model

from tests.browser import sign_in

pytestmark = pytest.mark.browser


def test_it_signs_in_and_lands_on_the_students_own_page(live_asgi, page) -> None:
    get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    sign_in(page, live_asgi, "ada", "a-long-enough-pass")
    assert page.url == f"{live_asgi.url}/me/"
    assert page.locator("h1").inner_text() == "Welcome, ada"
    assert page.get_by_role("link", name="Start an argument").is_visible()
    assert page.locator(".who").inner_text() == "ada"
    # The stylesheet is served by the same ASGI app.
    color = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert color == "rgb(251, 250, 247)"
