"""Arguments with the text students really write, for the export tests.

`ARGUMENTS` are thirteen fixed arguments, each with the markup of some format in
it; `student_arguments()` is a hypothesis strategy that mixes the same pieces
(URLs, e-mail addresses, `snake_case`, `2*3`, `{...}`, `===`, `---`, code fences,
`<script>`, Markdown links and images, link definitions, emoji, line breaks)
with ordinary words, and leaves optional elements empty now and then.
"""

from __future__ import annotations

from hypothesis import strategies as st

from coach.exports import ToulminExport
from coach.steps import STEPS

__all__ = ["ARGUMENTS", "FIELDS", "OPTIONAL", "student_arguments", "student_text"]

FIELDS = [step.field for step in STEPS]
OPTIONAL = ("grounds_backing", "warrant_backing", "qualifier", "rebuttal")

PIECES = [
    "http://example.com/x",
    "https://example.org/a_b?c=1&d=2#top",
    "see www.example.com/path//twice",
    "ana.garcia@example.edu",
    "__init__",
    "snake_case_name",
    "2*3 = 6",
    "a * b",
    "**bold**",
    "_italic_",
    "{not always}",
    "{a: 1}, {b: 2}",
    "x === y",
    "===",
    "---",
    "--",
    "***",
    "```",
    "```python\nprint(1)",
    "~~~",
    "<script>alert(1)</script>",
    "<b>bold</b>",
    '<a href="http://x">x</a>',
    "<!-- note -->",
    "/* aside */",
    "[text](http://example.com)",
    "![x](http://example.com/i.png)",
    "[source]: https://example.com/s",
    "[Claim]",
    "<Argument>",
    "@[Grounds]",
    "#hashtag",
    "# not a heading",
    "> quoted",
    "- item",
    "+ item",
    "1. first",
    "2) second",
    "| a | b |",
    "&amp; &lt; &#65;",
    "A & B < C > D",
    "C:\\path\\file",
    "back\\slash\\",
    "100% (most)",
    "«comillas» ¿por qué? ¡sí!",
    "Según el 30 % de los encuestados",
    "emoji 😀👍🏽",
    "日本語のテキスト",
    "tab\there",
    "    indented code",
    "trailing spaces   ",
    "\n",
    "\n\n",
    "\r\n",
    "'quotes' \"double\"",
    "a:b; c,d",
    "(1) numbered",
    "<+ [support]",
    "+> arrow",
    "-> attack",
    "<_ undercut",
]
WORDS = st.sampled_from(
    ["Cities", "should", "ban", "cars", "because", "pollution", "fell", "in", "Madrid", "by",
     "30%", "the", "study", "shows", "probably", "unless", "transit", "fails", "ciudades",
     "coches", "según", "datos"]
)  # fmt: skip
# What a student types: no control characters other than the tab and line breaks.
LETTERS = st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("\t\n")


def student_text(*, optional: bool = False) -> st.SearchStrategy[str]:
    """One element's text: words, markup pieces and stray characters, joined by spaces."""
    part = st.one_of(WORDS, st.sampled_from(PIECES), st.text(LETTERS, min_size=1, max_size=8))
    text = st.lists(part, min_size=1, max_size=8).map(" ".join)
    return st.one_of(st.just(""), text) if optional else text


def student_arguments() -> st.SearchStrategy[ToulminExport]:
    return st.builds(
        ToulminExport,
        title=student_text().filter(lambda title: title.strip()),
        language=st.sampled_from(["en", "es"]),
        complete=st.booleans(),
        **{field: student_text(optional=field in OPTIONAL) for field in FIELDS},
    )


def _argument(title: str, **texts: str) -> ToulminExport:
    plain = {
        "claim": "Cities should ban cars downtown.",
        "grounds": "In Madrid, pollution fell 30% after the 2018 ban.",
        "warrant": "If banning cars cuts pollution, cities should ban them.",
        "grounds_backing": "The city's air quality agency published the figures.",
        "warrant_backing": "Public health research links car pollution to illness.",
        "qualifier": "Probably, in most cities",
        "rebuttal": "Unless public transit cannot carry the extra riders.",
    }
    return ToulminExport(title=title, complete=True, **{**plain, **texts})


ARGUMENTS = [
    _argument("Car-free centres", grounds="Figures at http://example.com/madrid/2019 show it."),
    _argument("Naming in __init__", warrant="Code in __init__ and snake_case_name files runs first."),
    _argument("Write to me", grounds_backing="Ask ana.garcia@example.edu for the raw data."),
    _argument("Arithmetic", grounds="2*3 is 6 and 2*4 is 8, so it grows."),
    _argument("Hedged", qualifier="Probably {not always}, in secondary schools"),
    _argument("Code", grounds="The script fails:\n```python\nprint(1)\nand the rest is swallowed"),
    _argument("Summary", warrant_backing="Summary\n---\nThe figures agree."),
    _argument("Less than", claim="Fewer than 5 < 10 cars <script>alert(1)</script> per street."),
    _argument("Emoji 🚲 === fun", rebuttal="Unless 😀 riders 👍🏽 stay home."),
    _argument("No qualifier", qualifier=""),
    _argument("Links", grounds="[the report](http://example.com/r) and ![chart](http://x.org/c.png)"),
    _argument("Sources", grounds_backing="[source]: https://example.com/s\n<b>bold</b> <a href=\"x\">y</a>"),
    _argument("Comments // and /* these */", warrant="Read // twice and <!-- this --> and #tags @[Claim]."),
]  # fmt: skip
