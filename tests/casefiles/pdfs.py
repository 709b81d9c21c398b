"""Real PDF bytes for the tests, written by hand to the PDF 1.4 format (no tool needed)."""

from __future__ import annotations


def _pdf(objects: list[bytes]) -> bytes:
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)


def text_pdf(lines: list[str]) -> bytes:
    """A one-page PDF whose text layer holds ``lines``."""
    content = (
        b"BT /F1 12 Tf 72 720 Td 14 TL "
        + b" ".join(
            b"(" + line.encode("latin-1").replace(b"(", b"\\(").replace(b")", b"\\)") + b") Tj T*"
            for line in lines
        )
        + b" ET"
    )
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> >> >>",
            f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
    )


def image_only_pdf() -> bytes:
    """A page that only paints a rectangle: no text layer, like a scan."""
    content = b"0 0 1 rg 72 72 200 200 re f"
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
        ]
    )


def no_pages_pdf() -> bytes:
    return _pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"])


def encrypted_pdf() -> bytes:
    """The text PDF above, locked with a password by pypdf."""
    import io

    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for page in PdfReader(io.BytesIO(text_pdf(["A locked secret."]))).pages:
        writer.add_page(page)
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# --- Hostile PDFs: small files that cost a careless reader minutes or gigabytes. ---


def _flate(data: bytes) -> bytes:
    import zlib

    return zlib.compress(data, 9)


def _page_with(content: bytes, *, compressed: bool) -> list[bytes]:
    """Objects 1-4 of a one-page PDF whose page paints ``content``."""
    stream_dict = f"<< /Length {len(content)}" + (" /Filter /FlateDecode" if compressed else "")
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        f"{stream_dict} >>\nstream\n".encode() + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]


def deep_page_tree_pdf(depth: int = 400) -> bytes:
    """A page tree ``depth`` /Pages nodes deep (a few KB), one page at the bottom."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    for level in range(depth):
        number = level + 2
        objects.append(f"<< /Type /Pages /Kids [{number + 1} 0 R] /Count 1 >>".encode())
    objects.append(f"<< /Type /Page /Parent {depth + 1} 0 R /MediaBox [0 0 9 9] >>".encode())
    return _pdf(objects)


def cyclic_page_tree_pdf() -> bytes:
    """A /Pages node whose kid is its own parent."""
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>",
        ]
    )


def doubling_page_tree_pdf(levels: int = 40) -> bytes:
    """Each /Pages node lists the next one twice: 2**levels pages in about 2 KB."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    for level in range(levels):
        kid = level + 3
        objects.append(
            f"<< /Type /Pages /Kids [{kid} 0 R {kid} 0 R] /Count {2 ** (levels - level)} >>".encode()
        )
    objects.append(b"<< /Type /Page /MediaBox [0 0 9 9] >>")
    return _pdf(objects)


def deflate_bomb_pdf(megabytes: int = 100) -> bytes:
    """A content stream of ``megabytes`` MB of spaces, deflated to a few hundred KB."""
    import zlib

    packer = zlib.compressobj(9)
    chunk = b" " * (1024 * 1024)
    content = b"".join(packer.compress(chunk) for _ in range(megabytes)) + packer.flush()
    return _pdf(_page_with(content, compressed=True))


def token_bomb_pdf(operators: int = 3_000_000) -> bytes:
    """A deflated content stream of millions of tiny text operators (tens of KB)."""
    return _pdf(
        _page_with(_flate(b"BT /F1 1 Tf " + b"(a) Tj " * operators + b"ET"), compressed=True)
    )


def slow_pages_pdf(pages: int = 60, operators: int = 900_000) -> bytes:
    """``pages`` pages sharing one deflated stream of just under pypdf's token limit.

    Each page is within every limit of the library, but reading them all takes minutes.
    """
    content = _flate(b"BT /F1 1 Tf " + b"(a) Tj " * operators + b"ET")
    kids = " ".join(["3 0 R"] * pages)
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> >> >>",
            f"<< /Length {len(content)} /Filter /FlateDecode >>\nstream\n".encode()
            + content
            + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
    )


def many_empty_pages_pdf(pages: int = 50_000, *, declared: int | None = None) -> bytes:
    """``pages`` empty pages (one page object listed ``pages`` times): a few hundred KB.

    ``declared``: the count the page tree claims, if it lies.
    """
    kids = " ".join(["3 0 R"] * pages)
    count = pages if declared is None else declared
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
        ]
    )


def long_text_pdf(pages: int) -> bytes:
    """``pages`` pages, each with its own line of text (page N says 'Page N.')."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    font = 3
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    kids = []
    for page in range(1, pages + 1):
        content = f"BT /F1 12 Tf 72 720 Td (Page {page}.) Tj ET".encode()
        page_number = len(objects) + 1
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {page_number + 1} 0 R "
            f"/Resources << /Font << /F1 {font} 0 R >> >> >>".encode()
        )
        objects.append(
            f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream"
        )
        kids.append(f"{page_number} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {pages} >>".encode()
    return _pdf(objects)


HOSTILE_PDFS = {
    "deep page tree": deep_page_tree_pdf,
    "cyclic page tree": cyclic_page_tree_pdf,
    "doubling page tree": doubling_page_tree_pdf,
    "deflate bomb": deflate_bomb_pdf,
    "token bomb": token_bomb_pdf,
    "slow pages": slow_pages_pdf,
    "50,000 empty pages": many_empty_pages_pdf,
    "50,000 pages counted as 1": lambda: many_empty_pages_pdf(declared=1),
}
