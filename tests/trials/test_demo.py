"""The demo trial: the real chain on the demo student's finished argument, scripted words,
loaded once without a key, open to every signed-in user, labelled as a demo."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from trials.models import Trial

pytestmark = pytest.mark.django_db


def test_it_runs_the_chain_once_and_every_phase_passes_the_checks(no_anthropic_key) -> None:
    call_command("load_demo_trial")
    call_command("load_demo_trial")

    trial = Trial.objects.get()
    assert trial.is_demo and trial.status == "sustained"
    assert all(trial.outputs.get(n) for n in (1, 2, 3, 4))
    # One checked call per phase, recorded as a run records them, at no cost.
    assert [(c["phase"], c["ok"]) for c in trial.calls] == [(n, True) for n in (1, 2, 3, 4)]
    assert trial.cost_usd == 0 and trial.argument.is_complete


def test_it_shows_the_demo_to_a_newcomer_but_not_in_their_trials(client, no_anthropic_key):
    call_command("load_demo_trial")
    trial = Trial.objects.get()
    client.force_login(get_user_model().objects.create_user("newcomer"))

    page = client.get(reverse("trials:trial_detail", args=[trial.pk])).content.decode()
    listing = client.get(reverse("trials:trial_list")).content.decode()

    assert "A demo trial" in page and "Sustained" in page
    # The argument's own page is its owner's: no link to it for anyone else.
    assert reverse("coach:argument_detail", args=[trial.argument_id]) not in page
    assert reverse("trials:trial_detail", args=[trial.pk]) in listing  # "see the demo"
    assert "No trials yet." in listing  # not one of theirs
    assert client.post(reverse("trials:trial_retry", args=[trial.pk])).status_code == 404
