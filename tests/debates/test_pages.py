"""The debate pages through Django's test client: history, new debate, result, replay, access."""

from __future__ import annotations

import json
import re
from decimal import ROUND_UP, Decimal
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from debates import services
from debates.presenters import call_count
from debates.stopping import GraphStopReason
from engine.models import Debate, DebateStatus, Persona
from tests.debates.pages_support import finished_debate
from tests.fakes.debate_model import FakeDebateModel

pytestmark = pytest.mark.django_db

HOSTILE = "<script>alert('pwned')</script>"


@pytest.fixture
def ada(client):
    user = get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    client.force_login(user)
    return user


@pytest.fixture
def grace():
    return get_user_model().objects.create_user("grace", password="a-long-enough-pass")


def debate_for(user, topic: str, **fields) -> Debate:
    return Debate.objects.create(topic=topic, creator=user, **fields)


def page_text(response) -> str:
    return unescape(response.content.decode())


# --- history -------------------------------------------------------------------


def test_it_asks_strangers_to_sign_in(client, grace) -> None:
    debate = debate_for(grace, "Are cities better without cars?")
    for url in (
        "/debates/",
        "/debates/new/",
        f"/debates/{debate.pk}/",
        f"/debates/{debate.pk}/replay/",
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")


def test_it_lists_my_debates_and_the_demo_but_not_other_peoples(client, ada, grace) -> None:
    mine = debate_for(ada, "Mine: should schools start later?")
    theirs = debate_for(grace, "Theirs: should taxes be flat?")
    demo = Debate.objects.create(topic="Demo: should cities ban cars?", is_demo=True)
    page = page_text(client.get("/debates/"))
    assert mine.topic in page and demo.topic in page
    assert theirs.topic not in page
    assert client.get(f"/debates/{theirs.pk}/").status_code == 404


def test_it_lets_staff_see_every_debate(client, grace) -> None:
    theirs = debate_for(grace, "Theirs: should taxes be flat?")
    staff = get_user_model().objects.create_user(
        "ins", password="a-long-enough-pass", is_staff=True
    )
    # Staff status alone is not enough (tests/debates/test_visibility.py).
    staff.user_permissions.add(Permission.objects.get(codename="view_debate"))
    client.force_login(staff)
    assert theirs.topic in page_text(client.get("/debates/"))


def test_it_shows_status_rounds_stop_reason_cost_and_date(client, ada) -> None:
    ada.is_staff = True  # amounts are for instructors; a student reads levels (home/spend.py)
    ada.save()
    debate = debate_for(
        ada,
        "Should schools start later?",
        status=DebateStatus.DONE,
        stop_reason=GraphStopReason.STABLE_DISSENT,
        rounds_completed=2,
        max_rounds=4,
        cost_usd=Decimal("0.123456"),
    )
    row = re.search(r"<tr>\s*<td>.*?</tr>", client.get("/debates/").content.decode(), re.S).group(0)
    text = unescape(row)
    assert debate.topic in text
    assert "done" in text
    assert "2 / 4" in text
    assert str(GraphStopReason.STABLE_DISSENT.label) in text
    assert "$0.1235" in text
    assert debate.created_at.strftime("%Y-%m-%d") in text
    assert f'href="/debates/{debate.pk}/"' in row  # finished: straight to the result


def test_it_searches_topics_word_by_word(client, ada) -> None:
    both = debate_for(ada, "Should cities ban cars from their centres?")
    one = debate_for(ada, "Are electric cars greener?")
    page = page_text(client.get("/debates/", {"q": "CARS centres"}))
    assert both.topic in page and one.topic not in page


def test_it_filters_by_status_stop_reason_and_owner(client, ada, grace) -> None:
    done = debate_for(ada, "Done debate topic", status=DebateStatus.DONE, stop_reason="CONSENSUS")
    failed = debate_for(ada, "Failed debate topic", status=DebateStatus.FAILED)
    demo = Debate.objects.create(topic="Demo debate topic", is_demo=True, status="done")
    by_status = page_text(client.get("/debates/", {"status": "done"}))
    assert done.topic in by_status and demo.topic in by_status and failed.topic not in by_status
    by_reason = page_text(client.get("/debates/", {"stop_reason": "CONSENSUS"}))
    assert done.topic in by_reason and demo.topic not in by_reason
    mine = page_text(client.get("/debates/", {"mine": "on"}))
    assert done.topic in mine and failed.topic in mine and demo.topic not in mine


def test_it_answers_htmx_with_the_results_alone(client, ada) -> None:
    debate = debate_for(ada, "Should cities ban cars?")
    response = client.get("/debates/", {"q": "cities"}, headers={"HX-Request": "true"})
    body = response.content.decode()
    # The results, and the heading swapped out of band (it names the chosen format).
    assert body.lstrip().startswith('<div class="list-header" id="list-header" hx-swap-oob="true">')
    assert '<div id="debate-results"' in body
    assert "<html" not in body and debate.topic in unescape(body)


@pytest.mark.parametrize(
    ("chosen", "heading", "button", "href"),
    [
        ("inquiry", "Inquiries", "New inquiry", "/inquiries/new/"),
        ("stress", "Stress tests", "Stress-test one of my arguments", "/coach/"),
        ("tournament", "Model tournaments", "New tournament", "/tournaments/new/"),
        ("graph", "Debates", "New debate", "/debates/new/"),
        ("", "All debates", "New debate", "/debates/new/"),
    ],
)
def test_it_names_the_listed_format_and_offers_its_own_new_button(
    client, ada, chosen, heading, button, href
) -> None:
    for htmx in (False, True):
        response = client.get(
            "/debates/", {"format": chosen}, headers={"HX-Request": "true"} if htmx else {}
        )
        header = re.search(r'<div class="list-header".*?</div>', response.content.decode(), re.S)
        assert f"<h1>{heading}</h1>" in header.group(0)
        assert f'<a class="button" href="{href}">{button}</a>' in header.group(0)
        if not htmx:
            assert f"<title>{heading}" in response.content.decode()


def test_it_pages_the_history_and_keeps_the_filters(client, ada) -> None:
    for number in range(25):
        debate_for(ada, f"Cars question number {number}")
    first = client.get("/debates/", {"q": "cars"})
    assert len(first.context["page"].object_list) == 20
    assert 'href="?q=cars&amp;page=2"' in first.content.decode()
    second = client.get("/debates/", {"q": "cars", "page": 2})
    assert len(second.context["page"].object_list) == 5


# --- new debate ------------------------------------------------------------------


def _make_staff(user) -> None:
    user.is_staff = True
    user.save(update_fields=["is_staff"])


def test_it_asks_a_student_for_no_budget_and_gives_the_debate_half_again_its_estimate(
    client, ada, fake_anthropic
) -> None:
    page = client.get("/debates/new/").content.decode()
    assert 'name="budget_usd"' not in page and "Estimated cost" in page
    data = form_data(budget_usd="40")  # not a field of a student's form: ignored
    assert client.post("/debates/new/", data).status_code == 302
    debate = Debate.objects.get()
    cost = services.estimate_cost(personas=debate.personas.all(), rounds=2)
    assert debate.budget_usd == max(
        (cost * Decimal("1.5")).quantize(Decimal("0.01"), rounding=ROUND_UP), Decimal("0.01")
    )
    _make_staff(ada)
    assert 'name="budget_usd"' in client.get("/debates/new/").content.decode()


def form_data(**overrides) -> dict:
    personas = list(Persona.objects.filter(active=True).order_by("pk").values_list("pk", flat=True))
    data = {
        "topic": "Should cities ban cars from their centres?",
        "personas": personas[:3],
        "max_rounds": 2,
        "budget_usd": "1.50",
    }
    data.update(overrides)
    return data


def test_it_says_a_key_is_needed_and_starts_nothing_without_one(
    client, ada, no_anthropic_key
) -> None:
    demo = Debate.objects.create(topic="Demo: should cities ban cars?", is_demo=True)
    page = client.get("/debates/new/")
    text = page_text(page)
    assert "AI service is not set up yet" in text and "ANTHROPIC_API_KEY" not in text
    assert f'href="/debates/{demo.pk}/"' in page.content.decode()
    assert re.search(r'<button type="submit"[^>]*disabled', page.content.decode())
    response = client.post("/debates/new/", form_data())
    assert response.status_code == 200
    assert "AI service is not set up yet" in page_text(response)
    assert Debate.objects.filter(is_demo=False).count() == 0


def test_it_starts_a_debate_and_launches_it_on_commit(
    client, ada, fake_anthropic, django_capture_on_commit_callbacks
) -> None:
    _make_staff(ada)  # staff choose the budget; a student's is set from the estimate
    data = form_data()
    with django_capture_on_commit_callbacks() as launched:
        response = client.post("/debates/new/", data)
    debate = Debate.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/debates/{debate.pk}/live/"
    assert (debate.topic, debate.max_rounds, debate.budget_usd) == (
        data["topic"],
        2,
        Decimal("1.50"),
    )
    assert sorted(debate.personas.values_list("pk", flat=True)) == sorted(data["personas"])
    assert debate.creator == ada and debate.status == DebateStatus.QUEUED
    # The run starts only once the row is committed (the quota adds a callback of its own).
    assert sum(c.__qualname__.startswith("run_in_background_on_commit") for c in launched) == 1


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"topic": "Cars?"}, "topic"),
        ({"topic": "x" * 501}, "topic"),
        ({"personas": []}, "personas"),
        ("one persona", "personas"),
        ({"personas": [999999, 999998]}, "personas"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"max_rounds": 6}, "max_rounds"),
        ({"max_rounds": "three"}, "max_rounds"),
        ({"budget_usd": "0"}, "budget_usd"),
        ({"budget_usd": "-1"}, "budget_usd"),
        ({"budget_usd": "1000"}, "budget_usd"),
        ({"budget_usd": "0.001"}, "budget_usd"),
    ],
)
def test_it_refuses_bad_input_and_says_why(client, ada, fake_anthropic, overrides, field) -> None:
    if field == "budget_usd":
        _make_staff(ada)  # only staff are asked for a budget
    if overrides == "one persona":
        overrides = {"personas": form_data()["personas"][:1]}
    response = client.post("/debates/new/", form_data(**overrides))
    assert response.status_code == 200
    assert list(response.context["form"].errors) == [field]
    assert 'role="alert"' in response.content.decode()
    assert Debate.objects.count() == 0


def test_it_refuses_inactive_personas(client, ada, fake_anthropic) -> None:
    retired = Persona.objects.order_by("pk").first()
    Persona.objects.filter(pk=retired.pk).update(active=False)
    others = form_data()["personas"]
    response = client.post("/debates/new/", form_data(personas=[retired.pk, *others[:1]]))
    assert list(response.context["form"].errors) == ["personas"]


def test_it_shows_the_estimated_cost_before_starting(client, ada, fake_anthropic) -> None:
    ada.is_staff = True  # amounts are for instructors; a student reads levels (home/spend.py)
    ada.save()
    personas = list(Persona.objects.filter(active=True).order_by("pk")[:4])
    response = client.get("/debates/new/")
    estimate = response.context["estimate"]
    expected = services.estimate_cost(personas=personas, rounds=3)
    assert estimate["cost"] == expected > 0
    assert estimate["calls"] == call_count(personas=4, rounds=3) == 20
    assert f"${expected:.2f}" in page_text(response)


def shown_cost(response) -> Decimal:
    match = re.search(r'<span class="estimate-cost">\$([0-9.]+)</span>', response.content.decode())
    return Decimal(match.group(1))


def test_it_recomputes_the_estimate_as_the_form_changes(client, ada) -> None:
    ada.is_staff = True  # amounts are for instructors; a student reads levels (home/spend.py)
    ada.save()
    ids = form_data()["personas"][:2]
    personas = list(Persona.objects.filter(pk__in=ids))
    cheap = client.get(
        "/debates/new/estimate/", {"personas": ids, "max_rounds": 1, "budget_usd": "50"}
    )
    dear = client.get(
        "/debates/new/estimate/", {"personas": ids, "max_rounds": 5, "budget_usd": "0.01"}
    )
    assert cheap.content.decode().lstrip().startswith('<div id="estimate"')
    assert shown_cost(cheap) == services.estimate_cost(personas=personas, rounds=1)
    assert shown_cost(dear) == services.estimate_cost(personas=personas, rounds=5)
    assert shown_cost(dear) > shown_cost(cheap)
    assert "more than the budget" not in page_text(cheap)
    assert "more than the budget" in page_text(dear)
    lonely = client.get("/debates/new/estimate/", {"personas": ids[:1], "max_rounds": 2})
    assert "Pick between 2 and 6 personas" in page_text(lonely)


# --- result, live, replay ----------------------------------------------------------


def test_it_shows_common_ground_camps_cruxes_and_the_graph(client, ada, fake_anthropic) -> None:
    debate = finished_debate(fake_anthropic, creator=ada, personas=3, rounds=2)
    output = debate.output
    assert output["cruxes"] and len(output["camps"]) > 1, "the scripted debate must split"
    response = client.get(f"/debates/{debate.pk}/")
    text = page_text(response)
    claims = dict(debate.arguments.values_list("key", "claim"))
    for key in output["commonGround"]:
        assert claims[key] in text
    for number in range(1, len(output["camps"]) + 1):
        assert f"Camp {number}<" in text
    for crux in output["cruxes"]:
        assert crux["assumption"] in text and crux["settlingQuestion"] in text
    assert debate.get_stop_reason_display() in text
    svg = re.search(r"<svg.*?</svg>", response.content.decode(), re.S).group(0)
    drawn = set(re.findall(r'class="node (?:in|out|undec|uncounted)" data-id="(A\d+)"', svg))
    assert drawn == set(claims)
    for key, label in output["labels"].items():
        assert f'class="node {label.lower()}" data-id="{key}"' in svg


def test_it_says_when_a_debate_is_still_running(client, ada) -> None:
    debate = debate_for(ada, "Should cities ban cars?", status=DebateStatus.RUNNING)
    text = page_text(client.get(f"/debates/{debate.pk}/"))
    assert "not finished yet" in text


class HostileModel(FakeDebateModel):
    """Model text that tries to become markup: in claims, assumptions and evidence."""

    def open(self, request):
        answer = super().open(request)
        for argument in answer["arguments"]:
            argument["claim"] = HOSTILE + argument["claim"]
            argument["assumptions"] = [HOSTILE + text for text in argument["assumptions"]]
            argument["evidence"] = [HOSTILE]
        return answer

    @staticmethod
    def _attack(**kwargs):
        attack = FakeDebateModel._attack(**kwargs)
        attack["counter_proposition"] = HOSTILE + attack["counter_proposition"]
        return attack


def test_it_escapes_model_text_on_every_page(client, ada, fake_anthropic) -> None:
    debate = finished_debate(
        fake_anthropic, creator=ada, personas=2, rounds=1, model=HostileModel(), topic=HOSTILE
    )
    assert HOSTILE in debate.arguments.first().claim
    for suffix in ("", "live/", "replay/", "graph.svg"):
        body = client.get(f"/debates/{debate.pk}/{suffix}").content.decode()
        assert "<script>alert" not in body, suffix
    result = client.get(f"/debates/{debate.pk}/").content.decode()
    assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;" in result
    listing = client.get("/debates/").content.decode()
    assert "<script>alert" not in listing and "&lt;script&gt;" in listing


def test_it_embeds_the_stored_events_for_the_replay(client, ada, fake_anthropic) -> None:
    debate = finished_debate(fake_anthropic, creator=ada)
    response = client.get(f"/debates/{debate.pk}/replay/")
    embedded = re.search(
        r'<script id="debate-events" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    ).group(1)
    stored = list(debate.events.order_by("seq").values("seq", "type", "payload"))
    assert json.loads(embedded) == stored
    assert stored[-1]["type"] == "debate_complete"


def test_it_points_the_live_page_at_the_event_stream(client, ada) -> None:
    debate = debate_for(ada, "Should cities ban cars?")
    body = client.get(f"/debates/{debate.pk}/live/").content.decode()
    assert f'data-events-url="/debates/{debate.pk}/events"' in body
    assert "js/debate_live.js" in body
