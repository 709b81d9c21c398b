"""The command line's Markdown report keeps the question and the models' words as text:
CommonMark reads no link, image, HTML, code or heading out of them."""

from __future__ import annotations

from markdown_it import MarkdownIt

from tournaments.reports import export_markdown

QUESTION = "Which [db](http://e.x) for `2*3` _course_ <script>x</script> ![i](http://e.x/i)?\n# no"
RECOMMENDATION = "Use <b>PostgreSQL</b> for __init__.\n\n---\n```\nstill text"
MARKUP = {
    "link_open",
    "image",
    "html_inline",
    "html_block",
    "code_inline",
    "code_block",
    "fence",
    "em_open",
    "hr",
}


def _report() -> str:
    header = {
        "question": QUESTION,
        "decisionType": "database",
        "models": ["model_a", "model*b"],
        "status": "complete",
    }
    result = {
        "finalWinner": "model*b",
        "totalCost": "0.0100",
        "averageConvergence": 0.5,
        "finalRecommendation": RECOMMENDATION,
        "matches": [],
        "keyRefinements": ["see [x](http://e.x) and <i>this</i>"],
        "complete": False,
        "stopDetail": "Budget: <i>spent</i>",
    }
    return export_markdown(header, result)


def _blocks(text: str) -> list[tuple[str, str, set[str]]]:
    """(block tag, its text, the inline token types in it) for each heading and paragraph."""
    blocks, tag = [], ""
    for token in MarkdownIt("commonmark").parse(text):
        if token.type in ("heading_open", "paragraph_open"):
            tag = token.tag
        elif token.type == "inline":
            children = token.children or []
            said = "".join(
                "\n" if c.type == "hardbreak" else c.content
                for c in children
                if c.type in ("text", "text_special", "hardbreak")
            )
            blocks.append((tag, said, {c.type for c in children}))
        elif token.type in MARKUP:
            blocks.append(("!", token.type, set()))
    return blocks


def test_it_writes_the_models_words_as_text() -> None:
    blocks = _blocks(_report())
    assert not [b for b in blocks if b[0] == "!" or b[2] & MARKUP]
    texts = [said for _, said, _ in blocks]
    assert blocks[0][:2] == ("h1", "Tournament: " + " ".join(QUESTION.split()))
    assert "Use <b>PostgreSQL</b> for __init__." in texts
    assert "---\n```\nstill text" in texts
    assert "see [x](http://e.x) and <i>this</i>" in texts
    assert "Stopped early: Budget: <i>spent</i>" in texts
    assert [h for tag, h, _ in blocks if tag == "h2"] == [
        "Recommendation",
        "Matches",
        "Key refinements",
    ]
