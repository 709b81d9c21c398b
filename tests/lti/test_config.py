from __future__ import annotations

from django import forms
from django.test import Client
from django.urls import reverse
from lti_tool.models import Key

from lti.services import ensure_tool_key


def test_it_publishes_only_public_keys(db):
    jwks = Client().get(reverse("lti:jwks")).json()
    [key] = jwks["keys"]
    assert key["kty"] == "RSA" and key["alg"] == "RS256" and key["kid"]
    assert not {"d", "p", "q", "dp", "dq", "qi"} & set(key)
    # Made on first use, then reused.
    assert Key.objects.count() == 1
    assert ensure_tool_key().pk == Key.objects.get().pk


def test_it_shows_the_configuration_for_an_lms_admin(db):
    page = Client().get(reverse("lti:config"))
    body = page.content.decode()
    assert page.status_code == 200
    assert "http://testserver/lti/login/" in body and "http://testserver/lti/launch/" in body
    assert "http://testserver/lti/jwks.json" in body


def test_it_gives_canvas_style_json(db):
    config = Client().get(reverse("lti:config_json")).json()
    assert config["oidc_initiation_url"] == "http://testserver/lti/login/"
    assert config["target_link_uri"] == "http://testserver/lti/launch/"
    assert config["public_jwk_url"] == "http://testserver/lti/jwks.json"
    assert "https://purl.imsglobal.org/spec/lti-ags/scope/score" in config["scopes"]
    placements = config["extensions"][0]["settings"]["placements"]
    assert {p["placement"] for p in placements} == {"assignment_selection", "link_selection"}


def test_it_shows_the_configuration_in_spanish(db):
    page = Client(headers={"accept-language": "es"}).get(reverse("lti:config"))
    assert "Registrar esta herramienta en tu LMS" in page.content.decode()


def test_it_hides_the_static_private_key_field_in_the_admin(admin_client, db):
    page = admin_client.get(reverse("admin:lti_tool_ltiregistration_add"))
    assert page.status_code == 200
    assert 'name="private_key"' not in page.content.decode()
    assert 'name="issuer"' in page.content.decode()


def test_it_reads_a_platform_url_typed_without_a_scheme_as_https(admin_client, db):
    page = admin_client.get(reverse("admin:lti_tool_ltiregistration_add"))
    form = page.context["adminform"].form
    urls = [f for f in form.fields.values() if isinstance(f, forms.URLField)]
    assert urls and all(f.assume_scheme == "https" for f in urls)
    assert form.fields["auth_url"].clean("lms.example.edu/auth") == "https://lms.example.edu/auth"
