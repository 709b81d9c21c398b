"""The trial pages: a student sees only their own trials, and the page shows the chain."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.trials import phase_data
from tests.trials.factories import STUDENT_CLAIM, make_argument, make_user
from trials.models import Trial, TrialStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana():
    return make_user("ana")


@pytest.fixture
def ben():
    return make_user("ben")


def _trial(owner, **fields) -> Trial:
    fields.setdefault("query", "Should cities ban cars?")
    fields.setdefault("question", fields["query"])
    return Trial.objects.create(owner=owner, **fields)


def _finished(owner, **fields) -> Trial:
    now = timezone.now()
    return _trial(owner, started_at=now, finished_at=now, **fields)


def test_it_lists_only_the_students_own_trials(client, ana, ben):
    _trial(ana, query="Ana's question about bus lanes")
    _trial(ben, query="Ben's question about tram fares")
    client.force_login(ana)

    page = client.get(reverse("trials:trial_list")).content.decode()

    assert "Ana&#x27;s question about bus lanes" in page
    assert "Ben" not in page


def test_it_answers_404_for_another_students_trial(client, ana, ben):
    bens = _trial(ben)
    client.force_login(ana)

    assert client.get(reverse("trials:trial_detail", args=[bens.pk])).status_code == 404
    htmx = client.get(
        reverse("trials:trial_detail", args=[bens.pk]), headers={"HX-Request": "true"}
    )
    assert htmx.status_code == 404


def test_it_sends_anonymous_visitors_to_sign_in(client, ana):
    trial = _trial(ana)

    response = client.get(reverse("trials:trial_detail", args=[trial.pk]))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_it_puts_a_completed_argument_on_trial_and_queues_it_on_commit(
    client, ana, fake_anthropic, django_capture_on_commit_callbacks
):
    argument = make_argument(owner=ana)
    client.force_login(ana)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(reverse("trials:trial_start", args=[argument.pk]))

    trial = Trial.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("trials:trial_detail", args=[trial.pk])
    assert trial.argument == argument and trial.owner == ana
    assert STUDENT_CLAIM in trial.query
    assert trial.status == TrialStatus.PENDING
    # Handed to the background on commit (the quota adds a callback of its own).
    assert sum(c.__qualname__.startswith("start_trial") for c in callbacks) == 1


@pytest.mark.parametrize("whose", ["another student's", "an incomplete"])
def test_it_refuses_to_try_an_argument_that_is_not_the_students_completed_one(
    client, ana, ben, fake_anthropic, whose
):
    argument = (
        make_argument(owner=ben)
        if whose == "another student's"
        else make_argument(owner=ana, complete=False)
    )
    client.force_login(ana)

    response = client.post(reverse("trials:trial_start", args=[argument.pk]))

    assert response.status_code == 404
    assert not Trial.objects.exists()


def test_it_puts_a_question_on_trial_from_its_own_page(client, ana, fake_anthropic):
    client.force_login(ana)
    assert client.get(reverse("trials:trial_ask")).status_code == 200

    response = client.post(reverse("trials:trial_ask"), {"question": "Should tram rides be free?"})

    trial = Trial.objects.get()
    assert response.url == reverse("trials:trial_detail", args=[trial.pk])
    assert (trial.question, trial.argument) == ("Should tram rides be free?", None)


def test_it_says_a_key_is_needed_and_starts_nothing_without_one(client, ana, no_anthropic_key):
    argument = make_argument(owner=ana)
    client.force_login(ana)

    listing = client.get(reverse("trials:trial_list")).content.decode()
    started = client.post(reverse("trials:trial_start", args=[argument.pk]), follow=True)
    asked = client.post(reverse("trials:trial_ask"), {"question": "Free trams?"})

    for page in (listing, started.content.decode(), asked.content.decode()):
        assert "AI service is not set up yet" in page
        assert "ANTHROPIC_API_KEY" not in page  # plain words for a student
    assert not Trial.objects.exists()


def test_it_polls_a_running_trial_with_a_partial_and_stops_when_it_is_done(client, ana):
    trial = _trial(
        ana, status=TrialStatus.RUNNING, started_at=timezone.now(), phase1=phase_data.phase1()
    )
    client.force_login(ana)
    url = reverse("trials:trial_detail", args=[trial.pk])

    running = client.get(url, headers={"HX-Request": "true"}).content.decode()
    Trial.objects.filter(pk=trial.pk).update(
        status=TrialStatus.SUSTAINED,
        finished_at=timezone.now(),
        phase2=phase_data.phase2(),
        phase3=phase_data.phase3(),
        phase4=phase_data.phase4(),
    )
    finished = client.get(url, headers={"HX-Request": "true"}).content.decode()

    assert "<html" not in running and 'id="phases"' in running
    assert 'hx-trigger="every 1s"' in running
    assert "Phase 2 of 4 is being weighed" in running
    assert phase_data.phase1()["claim"]["statement"] in running
    assert "hx-trigger" not in finished
    assert phase_data.phase4()["verdict"]["final_statement"] in finished
    assert phase_data.phase4()["verdict"]["reasoning"] in finished


def test_it_shows_where_and_why_a_terminated_trial_stopped(client, ana):
    trial = _finished(
        ana,
        status=TrialStatus.TERMINATED,
        stopped_phase=2,
        reason="The warrant is weak: a weak warrant cannot carry the claim.",
        phase1=phase_data.phase1(),
        phase2=phase_data.phase2(warrant_strength="weak"),
    )
    client.force_login(ana)

    page = client.get(reverse("trials:trial_detail", args=[trial.pk])).content.decode()

    assert "Where and why the trial stopped" in page
    assert "Phase 2: Warrant and backing" in page
    # Said again from the stored strength, in the page's language, with a way forward.
    assert "The warrant was rated weak" in page and "put the argument on trial again" in page
    assert 'class="box warrant stopped"' in page
    assert page.count("Not reached.") == 2  # the rebuttal and the qualifier


def test_it_escapes_the_models_text(client, ana):
    hostile = phase_data.phase1(claim="<script>alert('claim')</script> holds")
    trial = _finished(ana, status=TrialStatus.FAILED, phase1=hostile, reason="<b>boom</b>")
    client.force_login(ana)

    page = client.get(reverse("trials:trial_detail", args=[trial.pk])).content.decode()

    assert "<script>alert" not in page and "<b>boom" not in page
    assert "&lt;script&gt;alert(&#x27;claim&#x27;)&lt;/script&gt; holds" in page


def test_the_completed_argument_page_offers_to_put_it_on_trial(client, ana, fake_anthropic):
    complete = make_argument(owner=ana)
    draft = make_argument(owner=ana, complete=False, title="Still drafting")
    client.force_login(ana)
    action = reverse("trials:trial_start", args=[complete.pk])

    completed_page = client.get(reverse("coach:argument_detail", args=[complete.pk]))
    draft_page = client.get(reverse("coach:argument_detail", args=[draft.pk]))

    assert f'action="{action}"' in completed_page.content.decode()
    assert "Put it on trial" not in draft_page.content.decode()
