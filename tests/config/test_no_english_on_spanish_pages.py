"""Every page of the site, asked for in Spanish, shows no interface English.

The demo loaders build a site with one of everything (a class with
submissions, a debate, a tournament, a stress test, an inquiry over a case
file); then every URL pattern of the site, the admin's included, is walked
with ids taken from those rows, as the demo student, as the demo instructor
and signed out, with a Spanish language cookie. Each HTML or SVG answer is cut
into text nodes and checked by ``tests/config/untranslated.py``: what the
database holds (students' and models' words, demo content) is left out; what
remains must not be an English message of the catalogue nor hold a word only
English messages use.

A new URL pattern must either be walked here (its parameters named in
``_candidates``) or be listed in ``NOT_PAGES`` with the reason: a page nobody
listed fails the coverage test, so the class of bug, not only today's
instances, stays caught.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.management import call_command, get_commands
from django.db import models, transaction
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import translation
from django.utils.translation import trans_real

from tests.config.untranslated import (
    Catalogue,
    Finding,
    content_strings,
    findings,
    formal_findings,
    without_content,
)

KNOWN_ADMIN_ENGLISH = Path(__file__).with_name("known_admin_english.txt")

# URL names that are not pages a person reads, and why.
NOT_PAGES = {
    "favicon": "an icon",
    "healthz": "a probe for machines",
    "engine:old_admin": "a redirect from the admin's old addresses",
    "logout": "POST only",
    "set_language": "POST only",
    "password_reset_confirm": "needs a token mailed to the user",
    "admin:logout": "POST only",
    "admin:autocomplete": "JSON for the admin's widgets",
    "admin:jsi18n": "the admin's script catalogue",
    "admin:view_on_site": "a redirect",
    "admin:?": "a redirect to the change form, or the catch-all 404",
    "admin:auth_user_password_change": "Django's own form, translated by Django",
    "coach:argument_advance": "POST only",
    "coach:argument_export": "downloads (Markdown, JSON, AIF, Argdown): the argument's own words",
    "coach:api_coach": "JSON for the coach's script",
    "coach:api_argument": "JSON for the coach's script",
    "coach:api_proposal": "JSON for the coach's script",
    "coach:api_draft": "JSON for the coach's script",
    "coach:api_advance": "JSON for the coach's script",
    "engine:retry": "POST only",
    "engine:stop": "POST only",
    "engine:events": "the SSE stream: data for the live page's script",
    "debates:export_json": "a download of the stored record",
    "debates:export_iccma": "a download for solvers",
    "trials:trial_retry": "POST only",
    "casefiles:source_origin": "POST only",
    "inquiries:export": "a download of the stored record",
    "stresstests:defend": "POST only",
    "stresstests:retry": "POST only",
    "stresstests:export": "a download of the stored record",
    "tournaments:export": "a download of the stored record",
    "lti:jwks": "keys for the LMS",
    "lti:config_json": "configuration for the LMS",
    "lti:login": "the LMS's redirect",
    "lti:launch": "the LMS's POST",
    "lti:link_assignment": "needs an LTI launch (tests/lti)",
    "classroom:assignment_start": "POST only",
    "classroom:assignment_hand_in": "POST only",
    "casefiles:source_add": "POST only",
    "casefiles:source_upload": "POST only",
    "trials:trial_start": "POST only",
    "signed_in": "a redirect to where a user lands",
    "feedback:reply": "POST only",
    "discussions:new_argument": "POST only",
    "discussions:new_objection": "POST only",
    "discussions:post_change": "POST only",
    "discussions:post_hide": "POST only",
    "discussions:export": "a download of the stored record",
    "discussions:live": "the SSE stream: data for the live page's script",
    "discussions:framework": "a download for solvers",
    "discussions:export_argdown": "a download of the discussion as an argument map",
    "discussions:export_aif": "a download of the discussion as an argument map",
    "discussions:objection_check": "POST only",
    "admin:classroom_assignment_grid_csv": "a download",
    "admin:discussions_discussion_grid_csv": "a download",
    "admin:feedback_submission_comment": "POST only",
    "admin:feedback_submission_scores": "POST only",
    "admin:feedback_submission_release": "POST only",
    "admin:feedback_submission_unrelease": "POST only",
    "admin:feedback_assignment_release_all": "POST only",
    "admin:feedback_assignment_grades_csv": "a download",
}

# Pages asked for again as htmx asks for them (they answer with a partial).
PARTIALS = {
    "coach:argument_detail",
    "casefiles:search",
    "engine:runs",
    "trials:trial_detail",
    "inquiries:claim",
    "stresstests:status",
    "tournaments:bracket",
}
# What the page is asked with: a search, an estimate for a full form.
QUERIES = {
    "casefiles:search": "?q=congestion+pricing",
    "debates:estimate": "?personas=1&personas=2&personas=3&max_rounds=3&budget_usd=1",
    "inquiries:estimate": "?question=Why&case_file=1&max_rounds=3&budget_usd=1",
    "tournaments:estimate": "?question=Why&models=a&models=b&max_rounds=2&budget_usd=1",
}
_ADMIN_ACTIONS = ("changelist", "add", "change", "delete", "history")
_PAGE_TYPES = ("text/html", "image/svg+xml")


def _patterns(patterns, prefix: str = "", namespace: str = "") -> Iterator[tuple[str, object]]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}:{entry.namespace}" if entry.namespace else namespace
            yield from _patterns(entry.url_patterns, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            name = entry.name or "?"
            yield (f"{namespace.strip(':')}:{name}" if namespace else name), entry


def _product_models() -> list[type[models.Model]]:
    """The admin's models that are the product's own (not Django's, django-axes' or LTI's)."""
    root = str(settings.BASE_DIR)
    return [
        model
        for model in admin.site._registry
        if model._meta.app_config.path.startswith(root)
        and ".venv" not in model._meta.app_config.path
    ]


def _admin_model(name: str) -> type[models.Model] | None:
    if not name.startswith("admin:"):
        return None
    for model in _product_models():
        stem = f"admin:{model._meta.app_label}_{model._meta.model_name}_"
        if name.startswith(stem) and name[len(stem) :] in _ADMIN_ACTIONS:
            return model
    return None


def _admin_foreign(name: str) -> bool:
    """An admin page of a model that is not the product's (Django's users, axes, LTI keys)."""
    for model in admin.site._registry:
        stem = f"admin:{model._meta.app_label}_{model._meta.model_name}_"
        if name.startswith(stem) and model not in _product_models():
            return True
    return False


def _ids(model, **filters) -> list[object]:
    rows = model._default_manager.filter(**filters).order_by("pk").values_list("pk", flat=True)
    return list(rows)


def _candidates(name: str, parameter: str) -> list[object]:
    """The values a URL parameter is walked with, from the demo rows."""
    namespace = name.split(":", 1)[0]
    model = apps.get_model
    if parameter == "object_id":
        admin_model = _admin_model(name)
        return _ids(admin_model)[:1] if admin_model else []
    if parameter == "app_label":
        return sorted({m._meta.app_label for m in _product_models()})
    if parameter == "pk":
        by_namespace = {
            "debates": lambda: _ids(model("engine", "Debate")),
            "inquiries": lambda: _ids(model("engine", "Debate"), format="inquiry"),
            "tournaments": lambda: _ids(model("engine", "Debate"), format="tournament"),
            "stresstests": lambda: _ids(model("stresstests", "StressTest")),
            "casefiles": lambda: _ids(model("casefiles", "CaseFile")),
        }
        return by_namespace[namespace]()
    table = {
        "argument_id": ("coach", "Argument"),
        "trial_id": ("trials", "Trial"),
        "match_pk": ("tournaments", "Match"),
        "source_pk": ("casefiles", "Source"),
        "submission_id": ("classroom", "Submission"),
        "assignment_id": ("classroom", "Assignment"),
        "classroom_id": ("classroom", "Classroom"),
        "discussion_id": ("discussions", "Discussion"),
        "post_id": ("discussions", "Post"),
        "source_id": ("casefiles", "Source"),
    }
    if parameter == "student_id":  # a class's student (the discussion grid's work view)
        memberships = model("classroom", "Membership").objects.order_by("student_id")
        return list(memberships.values_list("student_id", flat=True).distinct())
    if parameter in table:
        return _ids(model(*table[parameter]))
    if parameter == "key":
        return list(model("inquiries", "RegisteredClaim").objects.values_list("key", flat=True))
    raise KeyError(f"{name}: no candidates for <{parameter}>; add them or list it in NOT_PAGES")


def _unwalked() -> set[str]:
    """Pages of a model the demo loaders make no row of: nothing to walk them with."""
    return {
        name
        for name, pattern in _patterns(get_resolver().url_patterns)
        if name not in NOT_PAGES
        and not (name.startswith("admin:") and _admin_foreign(name))
        and any(not _candidates(name, p) for p in pattern.pattern.regex.groupindex)
    }


def _urls() -> Iterator[tuple[str, str]]:
    """(name, url) for every page to walk; every combination of candidate ids."""
    for name, pattern in _patterns(get_resolver().url_patterns):
        if name in NOT_PAGES or (name.startswith("admin:") and _admin_foreign(name)):
            continue
        parameters = list(pattern.pattern.regex.groupindex)
        choices = [_candidates(name, parameter) for parameter in parameters]
        for values in itertools.product(*choices):
            url = reverse(name, kwargs=dict(zip(parameters, values, strict=True)))
            yield name, url + QUERIES.get(name, "")


def _content() -> list[str]:
    """Every text the rows hold: students', models' and the demos' words are content.

    Fields with choices hold codes the pages must translate; so do single words
    inside JSON (a label such as IN, a status): neither counts as content.
    """
    values: list[object] = []
    for model in apps.get_models():
        fields = [
            field.attname
            for field in model._meta.concrete_fields
            if isinstance(field, models.CharField | models.TextField | models.JSONField)
            and not field.choices
        ]
        if fields:
            for row in model._default_manager.values_list(*fields):
                for value in row:
                    if isinstance(value, dict | list | str):
                        values.append(value)
    return content_strings(values)


@pytest.fixture(scope="module")
def demo_site(django_db_setup, django_db_blocker) -> Iterator[None]:
    """The demo site, built once for this module and rolled back after it."""
    with django_db_blocker.unblock(), transaction.atomic():
        get_user_model().objects.create_superuser("i18n-admin")
        settings.DEBUG = True  # seed_demo refuses public passwords otherwise
        try:
            # Every demo loader there is (a new one is walked without editing this test).
            loaders = sorted(name for name in get_commands() if name.startswith("load_demo_"))
            for command in ["seed_demo", *loaders]:
                call_command(command, stdout=StringIO())
        finally:
            settings.DEBUG = False
        _release_some_feedback()
        yield
        transaction.set_rollback(True)


def _release_some_feedback() -> None:
    """A classmate's work with a comment, released: the student's feedback page has content."""
    from classroom.models import Submission
    from feedback.models import Comment, Release

    users = get_user_model().objects
    teacher, student = users.get(username="instructor"), users.get(username="student")
    submission = Submission.objects.filter(student=student).first()
    if submission is None:  # the demo student has not started the demo assignment
        classmate = Submission.objects.order_by("pk").first()
        submission = Submission.objects.create(
            assignment=classmate.assignment,
            student=student,
            argument=student.arguments.create(title="Calles sin coches", language="es"),
        )
    Comment.objects.create(
        submission=submission, element="claim", author=teacher, text="Say which city."
    )
    Release.objects.create(submission=submission, released_by=teacher)


def _client(username: str | None) -> Client:
    client = Client(raise_request_exception=False)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    if username:
        client.force_login(get_user_model().objects.get(username=username))
    return client


@dataclass
class Walk:
    english: list[Finding] = field(default_factory=list)  # interface English, every page
    formal: list[Finding] = field(default_factory=list)  # formal terms on a student's pages
    shown: set[str] = field(default_factory=set)  # URL names some visitor could open
    pages: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # 5xx


@override_settings(SIGNUP_OPEN=True)
def walk() -> Walk:
    """Every page, as the student, the instructor, a superuser and signed out, in Spanish."""
    with translation.override("es"):
        catalogue = Catalogue(trans_real.translation("es")._catalog)
    student = _client("student")
    visitors = [student, _client("instructor"), _client("i18n-admin"), _client(None)]
    owners = [
        _client(u)
        for u in get_user_model()
        .objects.filter(is_active=True)  # an inactive demo classmate cannot sign in
        .exclude(username__in=["student", "instructor", "i18n-admin"])
        .values_list("username", flat=True)
    ]
    result = Walk()
    read: list[tuple[str, str, bool]] = []  # (url, page, read by the student)
    logging.getLogger("django.request").setLevel(logging.ERROR)  # 403s and 404s are expected
    for name, url in _urls():
        opened = False
        # A classmate's own pages (their argument, their feedback) open only for them.
        for client in visitors + owners:
            if opened and client in owners:
                break
            for headers in ({}, {"HX-Request": "true"}) if name in PARTIALS else ({},):
                response = client.get(url, headers=headers)
                kind = response.get("Content-Type", "").split(";")[0]
                if response.status_code >= 500:
                    result.errors.append(url)
                if response.status_code != 200 or kind not in _PAGE_TYPES:
                    continue
                opened = True
                result.shown.add(name)
                result.pages.append(url)
                read.append((url, response.content.decode(), client is student))
    # What the rows hold after the walk (a page may have made some, e.g. a default rubric).
    content = _content()
    for url, html, by_student in read:
        result.english += findings(url=url, html=html, catalogue=catalogue, content=content)
        if by_student:
            result.formal += formal_findings(url=url, html=html)
    return result


@pytest.fixture(scope="module")
def walked(demo_site, django_db_blocker) -> Walk:
    with django_db_blocker.unblock():
        return walk()


def _optional() -> set[str]:
    """Admin forms a read-only ModelAdmin refuses (add, change, delete): walked when allowed."""
    return {
        name
        for name, _pattern in _patterns(get_resolver().url_patterns)
        if _admin_model(name) and name.rsplit("_", 1)[-1] in ("add", "change", "delete", "history")
    }


def _shape(text: str) -> str:
    """A finding without its numbers and times, so the list of what is left stays put."""
    return re.sub(r"\d+", "0", text)


def _known_admin_english() -> set[str]:
    return {
        line
        for line in KNOWN_ADMIN_ENGLISH.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    }


def _report(found: list[Finding]) -> str:
    where = {_shape(f.text): f.url for f in found}
    return "\n".join(f"{where[text]}  {text!r}" for text in sorted(where))


pytestmark = pytest.mark.django_db


def test_it_opens_every_page_without_a_server_error(walked: Walk) -> None:
    assert walked.errors == []
    # A page whose model has no demo row cannot be walked: said, so a demo loader adds one.
    if unwalked := sorted(_unwalked() - _optional()):
        print(f"\nNot walked (no demo row to open them with): {' '.join(unwalked)}")
    missing = sorted({name for name, _url in _urls()} - walked.shown - _optional())
    assert " ".join(missing) == ""


def test_it_shows_no_interface_english_on_any_spanish_page(walked: Walk) -> None:
    # The admin's own field labels and model names (verbose names without a
    # translation) are listed in KNOWN_ADMIN_ENGLISH until their models are
    # migrated; nothing else is excused, and nothing new may join them.
    known = _known_admin_english()
    left = [f for f in walked.english if _shape(f.text) in known and f.url.startswith("/admin/")]
    new = [f for f in walked.english if f not in left]
    print(
        f"\n{len(walked.pages)} pages read; English strings: {len({_shape(f.text) for f in walked.english})}"
        f" ({len({_shape(f.text) for f in left})} known in the admin)\n{_report(walked.english)}"
    )
    assert _report(new) == ""
    # A line of the list no page shows any more is fixed: it leaves the list, so the
    # walk catches it if it comes back.
    assert sorted(known - {_shape(f.text) for f in left}) == []


def _row_text(row: models.Model) -> list[str]:
    """What a row holds (its text fields) and the rows it points at, as they print."""
    values: list[object] = []
    for model_field in row._meta.concrete_fields:
        if isinstance(model_field, models.ForeignKey):
            values.append(str(getattr(row, model_field.name) or ""))
        elif (
            isinstance(model_field, models.CharField | models.TextField | models.JSONField)
            and not model_field.choices
        ):
            values.append(getattr(row, model_field.attname))
    return content_strings(values)


def test_it_prints_every_record_in_the_readers_language(demo_site) -> None:
    """A row's name in the admin (its __str__: titles, breadcrumbs, inlines) holds only
    its own stored text and Spanish: stripped of that row's text alone, not of every
    row's, so a word such as "round" cannot hide behind some other record's words."""
    with translation.override("es"):
        catalogue = Catalogue(trans_real.translation("es")._catalog)
        english = []
        for model in _product_models():
            row = model._default_manager.order_by("pk").first()
            if row is None:
                continue
            shown = str(row)
            if words := catalogue.english_words(without_content(shown, _row_text(row))):
                english.append(f"{model._meta.label}: {shown!r} {words}")
    assert english == []


def test_it_shows_a_student_formal_terms_only_behind_a_disclosure(walked: Walk) -> None:
    print(f"\nFormal terms before a disclosure:\n{_report(walked.formal)}")
    assert _report(walked.formal) == ""
