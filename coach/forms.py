"""Forms behind the coach's pages: signing up and starting an argument."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from coach.imports import MAX_IMPORT_BYTES, MAX_TEXT_CHARS, ImportRefused, read_argument
from config.languages import language_choices
from untrusted import text_problem
from untrusted.forms import validate_storable_text

__all__ = ["ArgumentForm", "ImportForm", "SignUpForm"]


class SignUpForm(UserCreationForm):
    """A student account: username and password only.

    Instructors are staff users made in the admin, never through this form, so it
    exposes no flag that could raise a student's rights.
    """

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Django's own help texts speak Spanish as "usted" ("Su contraseña…"); the site
        # says "tú", so the form says its rules in the site's own words.
        self.fields["username"].help_text = _(
            "Up to 150 characters: letters, digits and @ . + - _ only."
        )
        self.fields["password1"].help_text = _(
            "At least 8 characters, not only digits, not a common password and not like "
            "your username."
        )
        self.fields["password2"].help_text = _("Type the same password again, to check it.")


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
        choices=language_choices,
        initial="en",
        help_text=_("The coach answers in this language, and your argument is written in it."),
    )


# Why a file cannot become an argument (coach.imports.ImportRefused's codes), for the student.
IMPORT_REFUSALS = {
    "empty": _("The file is empty."),
    "not_json": _(
        "The file starts like JSON but is not valid JSON. Export it again from its tool."
    ),
    "not_aif": _("This JSON file is not an AIF argument graph: it has no nodes and edges."),
    "bad_site_json": _(
        "This JSON file says it is an argument from this site but does not have its shape. "
        "Download it again from the argument's page."
    ),
    "no_statement": _("This AIF graph has no statement (I-node) to start from."),
    "no_argdown_steps": _(
        "No step of a Toulmin argument was found in this Argdown file. The import reads Argdown "
        "as this site exports it: statements titled [Claim], [Grounds], [Warrant] and so on."
    ),
    "no_elements": _("The file has no element of an argument in it."),
    "unstorable": _("The file holds characters that cannot be stored."),
    "too_long": _(
        "One element is longer than %(limit)s characters, the most a step can hold. Shorten "
        "it in its tool and import it again."
    ),
}


class ImportForm(forms.Form):
    """An Argdown or AIF file to start a new argument from (coach.imports reads it)."""

    file = forms.FileField(
        label=_("File"),
        help_text=_(
            "Argdown (.argdown) as this site exports it, or an AIF argument graph (.json) "
            "from OVA, AIFdb or this site."
        ),
    )
    title = forms.CharField(
        label=_("Title"),
        max_length=200,
        required=False,
        validators=[validate_storable_text],
        help_text=_("Leave it empty to keep the file's own title, or its name."),
    )
    language = forms.ChoiceField(
        label=_("Language"),
        choices=language_choices,
        initial="en",
        help_text=_("The argument's language, when the file does not say (AIF never does)."),
    )

    def clean(self) -> dict:
        data = super().clean()
        upload = data.get("file")
        if upload is None or "language" not in data:
            return data
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(kb)s KB, more than an argument needs.")
                % {"kb": MAX_IMPORT_BYTES // 1000}
            )
        try:
            text = upload.read().decode("utf-8")
        except UnicodeDecodeError:
            raise forms.ValidationError(
                _("The file is not text in UTF-8: export it again as Argdown or AIF.")
            ) from None
        if text_problem(text) is not None:
            raise forms.ValidationError(IMPORT_REFUSALS["unstorable"])
        name = upload.name.rsplit("/", 1)[-1]
        for suffix in (".json", ".aif", ".argdown", ".ad"):
            name = name.removesuffix(suffix)
        fallback = " ".join(name.replace("_", " ").replace("-", " ").split())[:200]
        try:
            document = read_argument(
                text, title=fallback or str(_("Imported argument")), language=data["language"]
            )
        except ImportRefused as refused:
            message = IMPORT_REFUSALS[refused.code]
            raise forms.ValidationError(message, params={"limit": MAX_TEXT_CHARS}) from None
        if data.get("title", "").strip():
            document = document.model_copy(update={"title": data["title"].strip()})
        data["document"] = document.model_copy(update={"title": document.title[:200]})
        return data
