"""The language switch from the keyboard, on a phone-sized screen, in Chromium."""

import pytest
from django.contrib.auth import get_user_model

from tests.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_it_switches_language_from_the_keyboard_on_a_phone_and_keeps_it(live_asgi, page) -> None:
    get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    page.set_viewport_size({"width": 360, "height": 740})
    sign_in(page, live_asgi, "ada", "a-long-enough-pass")
    page.goto(f"{live_asgi.url}/trials/")
    assert page.get_by_role("button", name="Español").is_visible()
    assert page_width(page) <= 360  # the header does not widen the page

    # Reach it with Tab alone, as a keyboard user would, and press Enter.
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent.trim()") == "Español":
            break
    else:
        pytest.fail("the language switch cannot be reached with Tab")
    with page.expect_navigation():
        page.keyboard.press("Enter")

    # Back on the same page, now in Spanish; the longer words still fit the phone.
    assert page.url == f"{live_asgi.url}/trials/"
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.get_by_role("heading", level=1).inner_text() == "Mis juicios"
    assert page.get_by_role("button", name="Cerrar sesión").is_visible()
    assert page_width(page) <= 360
    # Remembered: another page, in a fresh navigation, is still in Spanish.
    page.goto(f"{live_asgi.url}/debates/")
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.get_by_role("button", name="English").is_visible()
    assert page_width(page) <= 360
