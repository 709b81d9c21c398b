from django.test import Client


def test_it_says_what_the_product_is(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Learn to argue well" in body
    assert "Toulmin" in body


def test_it_links_to_the_coach_and_debates(client: Client) -> None:
    # The admin link is for staff only (tests/config/test_landing.py).
    body = client.get("/").content.decode()
    for href in ('href="/coach/"', 'href="/debates/"'):
        assert href in body


def test_it_serves_spanish_when_asked(client: Client) -> None:
    response = client.get("/", headers={"accept-language": "es"})
    assert response.status_code == 200
    assert '<html lang="es">' in response.content.decode()


def test_it_answers_the_health_probe(client: Client) -> None:
    assert client.get("/healthz").json() == {"ok": True}
