"""The checker the Spanish walk relies on: it must catch English, and only English."""

from __future__ import annotations

from tests.config.untranslated import Catalogue, content_strings, findings, formal_findings

CATALOGUE = Catalogue(
    {
        "Your draft": "Tu borrador",
        "Round %(round)s was the last round allowed.": "La ronda %(round)s era la última permitida.",
        "Send": "Enviar",
    }
)
CONTENT = content_strings(["Cities should ban cars from their centres.", {"claim": "A short one"}])


def _english(html: str) -> list[str]:
    return [f.text for f in findings(url="/", html=html, catalogue=CATALOGUE, content=CONTENT)]


def test_it_flags_an_english_message_and_a_sentence_of_english_words() -> None:
    assert _english("<h2>Your draft</h2><p>Round 3 was the last round allowed.</p>") == [
        "Your draft",
        "Round 3 was the last round allowed.",
    ]
    assert _english('<button title="Your draft">Enviar</button>') == ["Your draft"]


def test_it_leaves_spanish_content_and_text_marked_as_another_language() -> None:
    assert _english("<h2>Tu borrador</h2><p>La ronda 3 era la última permitida.</p>") == []
    assert _english("<p>Argumento: Cities should ban cars from their centres.</p>") == []
    assert _english("<p>Cities should ban cars…</p>") == []  # stored text cut short
    assert _english('<p lang="en">Your draft was the last round.</p>') == []
    assert _english("<script>const s = 'Your draft';</script>") == []


def test_it_flags_a_formal_term_a_student_meets_before_a_disclosure() -> None:
    def formal(html: str) -> list[str]:
        return [f.text for f in formal_findings(url="/", html=html)]

    assert formal('<span class="badge">IN</span><p>NO_FREE_FACTS</p>') == ["IN", "NO_FREE_FACTS"]
    assert formal("<details><summary>Término formal</summary><p>OUT</p></details>") == []
    assert formal('<span title="UNDEC">sin decidir</span>') == []
    camps = "<p>8 posiciones que se sostienen (extensiones preferidas).</p>"
    assert formal(camps) == ["8 posiciones que se sostienen (extensiones preferidas)."]
