"""Fuzz every JSON endpoint and every form: whatever comes in, the answer is never a 5xx.

Hypothesis generates hostile bodies, fields, query strings and headers: JSON
nested thousands of levels deep, numbers of thousands of digits, Unicode
digits ("²", "٣") that ``str.isdigit`` accepts and ``int`` refuses, lone
surrogates, NUL bytes, huge strings. Requests go through Django's test
client, in process, as a signed-in student (anonymous for sign-up and
sign-in); the streaming coach endpoint runs its offline coach (no API key),
and its AI coach through the real SDK to the fake server sending hostile
replies, each stream read to the end and each turn's record checked for an
internal error (the turn answers those with a 200 error line). Each request runs in a savepoint, so one
failure on PostgreSQL does not abort the test's transaction for the next.

Marked ``fuzz``: CI runs the suite on PostgreSQL, then ``-m fuzz`` again on
SQLite, since the two databases fail differently (OverflowError on SQLite,
DataError on PostgreSQL).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from coach.models import Argument, CoachTurn
from coach.services import create_argument
from engine.events import DEBATE_COMPLETE, record_event
from engine.models import Debate, DebateStatus, Persona
from tests.fakes.anthropic_server import Reply

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# --- strategies ------------------------------------------------------------------

NASTY_CHARS = ["\x00", "\ud800", "\udfff", "\ufeff", "²", "٣", "𝟘", "\u202e", "\n", "é", "💥"]
# Known troublemakers first: hypothesis then tries them early instead of by luck.
nasty_text = st.one_of(
    st.sampled_from(["a\x00b", "\ud800", "x\udfffy", "²", "١٢", "", " ", "-1", "accept"]),
    st.text(st.one_of(st.characters(), st.sampled_from(NASTY_CHARS)), max_size=40),
    st.builds(lambda ch, n: ch * n, st.sampled_from(["a", "\x00", "9", "é"]), st.integers(0, 9000)),
)
digit_strings = st.one_of(
    st.sampled_from(["²", "٣", "９", "0" * 30 + "1", "9" * 40, "-5", "+5", " 7 ", "1_000", "0x10"]),
    st.integers(0, 2**70).map(str),
    st.builds(lambda n: "9" * n, st.integers(19, 5000)),
)


def _deep(depth: int, opener: str) -> str:
    closer = {"[": "]", "{": "}"}[opener]
    if opener == "{":
        return '{"a":' * depth + "1" + "}" * depth
    return opener * depth + closer * depth


deep_json = st.builds(_deep, st.integers(100, 20000), st.sampled_from(["[", "{"]))
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([10**19, 2**63, -(2**63) - 1, 10**40, 1.5, -0.0, 1e308]),
    nasty_text,
    digit_strings,
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def json_bodies(draw: Any, keys: list[str]) -> bytes:
    """A body for a JSON endpoint: mostly objects with the right keys and bad values."""
    kind = draw(st.sampled_from(["object", "object", "object", "deep", "deep_field", "raw"]))
    if kind == "raw":
        return draw(st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)))
    if kind == "deep":
        return draw(deep_json).encode()
    fields = draw(st.dictionaries(st.sampled_from(keys), json_values, max_size=len(keys)))
    if kind == "deep_field":
        key = draw(st.sampled_from(keys))
        text = json.dumps(fields)[:-1].rstrip("{")
        sep = ", " if fields else "{"
        # json.dumps cannot write an int over 4,300 digits; a client can.
        nested = draw(st.one_of(deep_json, st.builds(lambda n: "9" * n, st.integers(19, 6000))))
        return f"{text}{sep}{json.dumps(key)}: {nested}}}".encode()
    return json.dumps(fields).encode()


def _encodable(value: str) -> bool:
    # A form post is bytes decoded by the server with replacement: it cannot carry a lone
    # surrogate (JSON can, as an escape), and the test client could not encode one.
    return not any("\ud800" <= ch <= "\udfff" for ch in value)


def form_data(fields: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    value = st.one_of(nasty_text, digit_strings).filter(_encodable)
    return st.dictionaries(
        st.sampled_from(fields), st.one_of(value, st.lists(value, max_size=4)), max_size=len(fields)
    )


def _header_value(value: str) -> bool:
    # What a server can receive in a header: one line of latin-1 (ASGI decodes it so).
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return "\n" not in value and "\r" not in value


header_values = st.one_of(digit_strings, nasty_text).filter(_header_value)

# --- fixtures and helpers ----------------------------------------------------------


@pytest.fixture
def fast_hashing(settings: Any) -> None:
    # Sign-in and sign-up hash a password on every attempt; the fuzz run is not about that.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def open_doors(settings: Any) -> None:
    # Limits would answer every later example with 429 or a lockout page, and the
    # fuzzing would stop reaching the code behind them.
    settings.RATE_LIMITS = {action: (0, 60) for action in getattr(settings, "RATE_LIMITS", {})}
    settings.AXES_FAILURE_LIMIT = 1_000_000
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 0  # 0: no per-address sign-in throttle
    settings.PASSWORD_RESET_PER_HOUR = settings.PASSWORD_RESET_PER_EMAIL_PER_HOUR = 0
    settings.SIGNUP_OPEN = True
    settings.QUOTA_DAILY_USD = settings.QUOTA_MONTHLY_USD = 0  # 0: no quota


@pytest.fixture
def world(no_anthropic_key: None, fast_hashing: None, open_doors: None) -> dict[str, Any]:
    student = get_user_model().objects.create_user("fuzzer", password="a-long-enough-pass")
    argument = create_argument(owner=student, title="Car-free city centres", language="en")
    argument.pending_proposal = {
        "field": "claim",
        "value": "Cities should ban cars.",
        "rationale": "",
    }
    argument.save()
    done = create_argument(owner=student, title="Finished", language="en")
    type(done).objects.filter(pk=done.pk).update(completed_at="2026-01-01T00:00:00Z")
    debate = Debate.objects.create(topic="Cities should ban cars", creator=student)
    record_event(debate=debate, type=DEBATE_COMPLETE, payload={})
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.DONE)
    client = Client(raise_request_exception=False)
    client.force_login(student)
    return {
        "client": client,
        "anonymous": Client(raise_request_exception=False),
        "argument": argument,
        "completed": done,
        "debate": debate,
        "persona": Persona.objects.filter(active=True).first(),
    }


def _drain(response: Any) -> None:
    if not response.is_async:
        b"".join(response.streaming_content)
        return

    async def drain() -> None:
        async for _chunk in response.streaming_content:
            pass

    async_to_sync(drain)()


def _send(client: Client, method: str, url: str, **kwargs: Any) -> tuple[int, str]:
    """(status, what went wrong) for one request, its stream read to the end."""
    savepoint = transaction.savepoint()
    # The client turns a server exception into a 500 response (raise_request_exception).
    response = getattr(client, method)(url, **kwargs)
    problem = repr(response.exc_info[1])[:300] if getattr(response, "exc_info", None) else ""
    status = response.status_code
    if response.streaming:
        try:
            _drain(response)
        except Exception as exc:  # a stream that breaks mid-way is a server error too
            status, problem = 500, repr(exc)[:300]
    if status >= 500:
        transaction.savepoint_rollback(savepoint)
    else:
        transaction.savepoint_commit(savepoint)
    return status, problem


def assert_no_server_error(client: Client, method: str, url: str, **kwargs: Any) -> None:
    status, problem = _send(client, method, url, **kwargs)
    assert status < 500, f"{method.upper()} {url} -> {status}: {problem}"


def assert_no_internal_turn_error() -> None:
    # The turn catches any exception so the page gets an answer line (status 200):
    # the record says "internal error" then, and that is a server error too.
    failed = CoachTurn.objects.filter(error_detail__startswith="internal error")
    assert not failed.exists(), failed.values_list("error_detail", flat=True)[:3]


def post_json(world: dict[str, Any], url: str, body: bytes, **headers: Any) -> None:
    assert_no_server_error(
        world["client"], "post", url, data=body, content_type="application/json", **headers
    )


# --- the JSON API ------------------------------------------------------------------


@FUZZ
@given(body=json_bodies(["argument_id", "message", "step", "retry_of"]))
def test_it_never_fails_the_coach_turn_endpoint(world: dict[str, Any], body: bytes) -> None:
    post_json(world, "/api/coach", body)
    assert_no_internal_turn_error()


# The cases the issue reported are tried first, every run.
@example(argument_id="²", message="Hello", step="claim")
@example(argument_id=None, message="\ud800", step="claim")
@example(argument_id=None, message="a\x00b", step="claim")
@FUZZ
@given(
    argument_id=st.one_of(st.none(), digit_strings, json_values),
    message=st.one_of(nasty_text, json_values),
    step=st.sampled_from(["claim", "grounds", "nonsense"]),
)
def test_it_never_fails_a_well_formed_coach_turn(
    world: dict[str, Any], argument_id: Any, message: Any, step: str
) -> None:
    argument_id = world["argument"].pk if argument_id is None else argument_id
    body = {"argument_id": argument_id, "message": message, "step": step}
    post_json(world, "/api/coach", json.dumps(body).encode())
    assert_no_internal_turn_error()


@example(body=b"{}", action="accept", value="a\x00b")
@example(body=b"{}", action="accept", value="\ud800")
@FUZZ
@given(
    body=json_bodies(["action", "value"]),
    action=st.sampled_from(["accept", "reject", None]),
    value=st.one_of(nasty_text, json_values),
)
def test_it_never_fails_the_proposal_endpoint(
    world: dict[str, Any], body: bytes, action: str | None, value: Any
) -> None:
    argument = world["argument"]
    argument.refresh_from_db()
    if argument.pending_proposal is None:
        argument.pending_proposal = {
            "field": argument.current_step,
            "value": "A text.",
            "rationale": "",
        }
        argument.save()
    url = f"/api/arguments/{argument.pk}/proposal"
    post_json(world, url, body)
    if action:
        post_json(world, url, json.dumps({"action": action, "value": value}).encode())


@example(body=b"[" * 5000 + b"]" * 5000, field="claim", value="\ud800")
@example(body=b"{}", field="claim", value="a\x00b")
@FUZZ
@given(
    body=json_bodies(["field", "value"]),
    field=st.sampled_from(["claim", "grounds", "warrant", "qualifier", "bogus"]),
    value=nasty_text,
)
def test_it_never_fails_the_draft_endpoint(
    world: dict[str, Any], body: bytes, field: str, value: str
) -> None:
    url = f"/api/arguments/{world['argument'].pk}/draft"
    post_json(world, url, body)
    post_json(world, url, json.dumps({"field": field, "value": value}).encode())


# Seventeen requests an example: fewer examples keep the run short.
@settings(FUZZ, max_examples=20)
@given(pk=digit_strings.filter(lambda s: s.isascii() and s.isdigit()))
def test_it_never_fails_on_ids_in_paths(world: dict[str, Any], pk: str) -> None:
    client = world["client"]
    for url in (
        f"/api/arguments/{pk}",
        f"/coach/{pk}/",
        f"/coach/{pk}/toulmin/",
        f"/coach/{pk}/export/json/",
        f"/debates/{pk}/",
        f"/debates/{pk}/live/",
        f"/debates/{pk}/replay/",
        f"/debates/{pk}/events",
        f"/debates/{pk}/graph.svg",
        f"/debates/{pk}/export.json",
        f"/debates/{pk}/framework.af",
        f"/trials/{pk}/",
    ):
        assert_no_server_error(client, "get", url)
    for url in (
        f"/api/arguments/{pk}/draft",
        f"/api/arguments/{pk}/proposal",
        f"/debates/{pk}/retry/",
        f"/trials/{pk}/retry/",
        f"/trials/argument/{pk}/",
    ):
        assert_no_server_error(client, "post", url, data={})


# --- pages with forms ---------------------------------------------------------------


@FUZZ
@given(data=form_data(["username", "password1", "password2", "password"]))
def test_it_never_fails_signing_up_or_in(world: dict[str, Any], data: dict[str, Any]) -> None:
    assert_no_server_error(world["anonymous"], "post", "/accounts/signup/", data=data)
    assert_no_server_error(world["anonymous"], "post", "/accounts/login/", data=data)


@FUZZ
@given(
    data=form_data(["email", "old_password", "new_password1", "new_password2"]),
    fmt=st.one_of(st.sampled_from(["json", "md", "markdown", "argdown", "aif"]), nasty_text),
)
def test_it_never_fails_the_account_pages_or_an_export(
    world: dict[str, Any], data: dict[str, Any], fmt: str
) -> None:
    assert_no_server_error(world["anonymous"], "post", "/accounts/password_reset/", data=data)
    assert_no_server_error(world["client"], "post", "/accounts/password_change/", data=data)
    slug = "".join(ch for ch in fmt if ch.isascii() and (ch.isalnum() or ch in "-_")) or "x"
    url = f"/coach/{world['completed'].pk}/export/{slug}/"
    assert_no_server_error(world["client"], "get", url)


@FUZZ
@given(
    data=form_data(["language", "next"]),
    headers=st.dictionaries(
        st.sampled_from(["Accept-Language", "Cookie", "User-Agent", "X-Forwarded-For", "Referer"]),
        header_values,
    ),
)
def test_it_never_fails_on_odd_headers_or_switching_language(
    world: dict[str, Any], data: dict[str, Any], headers: dict[str, str]
) -> None:
    for client in (world["client"], world["anonymous"]):
        assert_no_server_error(client, "post", "/i18n/setlang/", data=data, headers=headers)
        assert_no_server_error(client, "get", "/", headers=headers)
        assert_no_server_error(client, "get", "/coach/", headers=headers)
    assert_no_server_error(
        world["anonymous"], "post", "/accounts/login/", data=data, headers=headers
    )


@FUZZ
@given(data=form_data(["title", "language"]))
def test_it_never_fails_starting_an_argument(world: dict[str, Any], data: dict[str, Any]) -> None:
    assert_no_server_error(world["client"], "post", "/coach/new/", data=data)


@example(data={"topic": "Should cities ban cars?"}, personas=["²"])
@example(data={"topic": "Should cities ban cars?"}, personas=["9" * 40])
@FUZZ
@given(
    data=form_data(["topic", "personas", "max_rounds", "budget_usd"]),
    personas=st.lists(st.one_of(digit_strings, nasty_text).filter(_encodable), max_size=4),
)
def test_it_never_fails_the_new_debate_form_or_its_estimate(
    world: dict[str, Any], data: dict[str, Any], personas: list[str]
) -> None:
    data = {**data, "personas": [str(world["persona"].pk), *personas]}
    assert_no_server_error(world["client"], "post", "/debates/new/", data=data)
    assert_no_server_error(world["client"], "get", "/debates/new/estimate/", data=data)


@FUZZ
@given(data=form_data(["q", "status", "stop_reason", "mine", "page"]))
def test_it_never_fails_the_debate_history_filters(
    world: dict[str, Any], data: dict[str, Any]
) -> None:
    assert_no_server_error(world["client"], "get", "/debates/", data=data)


@example(last_event_id="9" * 4301, query="9" * 4301)
@example(last_event_id="9" * 30, query="²")
@FUZZ
@given(
    last_event_id=header_values,
    query=st.one_of(st.none(), digit_strings, nasty_text.filter(_encodable)),
)
def test_it_never_fails_resuming_the_event_stream(
    world: dict[str, Any], last_event_id: str, query: str | None
) -> None:
    url = f"/debates/{world['debate'].pk}/events"
    client = world["client"]
    assert_no_server_error(client, "get", url, headers={"Last-Event-ID": last_event_id})
    if query is not None:
        assert_no_server_error(client, "get", url, data={"last_event_id": query})


@FUZZ
@given(data=form_data(["question"]))
def test_it_never_fails_the_trial_forms(world: dict[str, Any], data: dict[str, Any]) -> None:
    assert_no_server_error(world["client"], "post", "/trials/ask/", data=data)
    assert_no_server_error(
        world["client"], "post", f"/trials/argument/{world['completed'].pk}/", data=data
    )


# --- what the model sends ------------------------------------------------------------


def _coach_reply(text: str, step: str, proposal: str | None) -> str:
    update = None if proposal is None else {"field": step, "value": proposal, "rationale": text}
    return json.dumps({"assistantText": text, "step": step, "proposedUpdate": update})


model_replies = st.one_of(
    st.builds(
        _coach_reply,
        nasty_text,
        st.sampled_from(["claim", "grounds", "bogus"]),
        st.one_of(st.none(), nasty_text),
    ),
    st.text(st.one_of(st.characters(), st.sampled_from(NASTY_CHARS)), max_size=200),
    deep_json,
)


@pytest.fixture
def ai_world(fake_anthropic: Any, fast_hashing: None, open_doors: None) -> dict[str, Any]:
    student = get_user_model().objects.create_user("fuzzer", password="a-long-enough-pass")
    client = Client(raise_request_exception=False)
    client.force_login(student)
    argument = create_argument(owner=student, title="Car-free city centres", language="en")
    return {"client": client, "server": fake_anthropic, "argument": argument}


@settings(FUZZ, max_examples=40)
@given(reply=model_replies, chunk=st.integers(1, 40))
def test_it_never_fails_a_coach_turn_whatever_the_model_sends(
    ai_world: dict[str, Any], reply: str, chunk: int
) -> None:
    # The AI coach, through the real SDK to the fake server: NUL, lone surrogates,
    # nonsense and JSON 20,000 deep in the reply, streamed in pieces of any size.
    ai_world["server"].responder = lambda body: Reply.json(reply, chunk_chars=chunk)
    argument = Argument.objects.get(pk=ai_world["argument"].pk)
    body = {
        "argument_id": argument.pk,
        "message": "Cities should ban cars.",
        "step": argument.current_step,
    }
    assert_no_server_error(
        ai_world["client"],
        "post",
        "/api/coach",
        data=json.dumps(body),
        content_type="application/json",
    )
    assert_no_internal_turn_error()
