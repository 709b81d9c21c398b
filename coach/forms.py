"""Forms behind the coach's pages: signing up and starting an argument."""

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from untrusted.forms import validate_storable_text

__all__ = ["ArgumentForm", "SignUpForm"]


class SignUpForm(UserCreationForm):
    """A student account: username and password only.

    Instructors are staff users made in the admin, never through this form, so it
    exposes no flag that could raise a student's rights.
    """

    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class ArgumentForm(forms.Form):
    """What a student chooses before the first coach turn.

    Not a ModelForm: the argument is created by ``coach.services.create_argument``,
    which owns the defaults (first step, empty fields) that a model form would bypass.
    """

    title = forms.CharField(
        label=_("Title"),
        max_length=200,
        validators=[validate_storable_text],
        help_text=_(
            "A few words you will recognise in your list, e.g. the question you argue about."
        ),
    )
    language = forms.ChoiceField(
        label=_("Language"),
        choices=settings.LANGUAGES,
        initial="en",
        help_text=_("The coach and this argument's pages speak this language."),
    )
