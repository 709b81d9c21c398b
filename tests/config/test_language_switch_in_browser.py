"""The language switch from the keyboard, on a phone-sized screen, in Chromium."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_it_switches_language_from_the_keyboard_on_a_phone_and_keeps_it(live_asgi, page) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_asgi.url}/")
    switch = page.get_by_role("button", name="Español")
    assert switch.is_visible()
    # Fits the phone: the header does not widen the page.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # Reach it with Tab alone, as a keyboard user would, and press Enter.
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent.trim()") == "Español":
            break
    else:
        pytest.fail("the language switch cannot be reached with Tab")
    with page.expect_navigation():
        page.keyboard.press("Enter")

    assert page.url == f"{live_asgi.url}/"
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.get_by_role("link", name="Juicios").is_visible()
    # Remembered: another page, in a fresh navigation, is still in Spanish.
    page.goto(f"{live_asgi.url}/accounts/login/")
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.get_by_role("button", name="English").is_visible()
