import pytest
from django.contrib.auth import get_user_model

from tests.browser import sign_in

pytestmark = pytest.mark.browser


def test_it_signs_in_and_shows_the_home_page(live_asgi, page) -> None:
    get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    sign_in(page, live_asgi, "ada", "a-long-enough-pass")
    assert page.locator("h1").inner_text() == "Learn to argue well"
    assert page.locator(".who").inner_text() == "ada"
    # The stylesheet is served by the same ASGI app.
    color = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert color == "rgb(251, 250, 247)"
