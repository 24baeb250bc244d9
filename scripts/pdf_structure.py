"""Read a tagged PDF back: the text of each marked-content sequence, what is drawn outside any, and
the structure tree in order (scripts/make_documents.py and tests/test_documents_pdfua.py).

pikepdf parses the content streams; the text is decoded through each font's ToUnicode map, the
way a screen reader's PDF engine reads it. Only what the documents use is read: text, paths and
images, in page content and in the form XObjects it draws.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import pikepdf

# Operators that put something on the page: text, path painting, shadings, inline images, XObjects.
_TEXT_OPERATORS = {"Tj", "TJ", "'", '"'}
_PAINT_OPERATORS = {"S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "sh", "BI", "Do"}


def _hex_bytes(token: str) -> bytes:
    return bytes.fromhex(token)


def _utf16(token: str) -> str:
    return _hex_bytes(token).decode("utf-16-be")


@dataclass
class ToUnicode:
    """A font's ToUnicode CMap: character codes (of `width` bytes) to text."""

    width: int
    table: dict[int, str]

    @classmethod
    def of_font(cls, font: pikepdf.Object) -> ToUnicode:
        stream = font.get("/ToUnicode")
        if stream is None:
            raise ValueError(f"font {font.get('/BaseFont')} has no ToUnicode map")
        text = stream.read_bytes().decode("latin-1")
        ranges = re.search(r"begincodespacerange\s*<([0-9A-Fa-f]+)>", text)
        width = len(ranges.group(1)) // 2 if ranges else 1
        table: dict[int, str] = {}
        for block in re.findall(r"beginbfchar(.*?)endbfchar", text, re.DOTALL):
            for source, target in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>", block):
                table[int(source, 16)] = _utf16(target)
        for block in re.findall(r"beginbfrange(.*?)endbfrange", text, re.DOTALL):
            for low, high, target in re.findall(
                r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]*>|\[[^\]]*\])", block
            ):
                start, end = int(low, 16), int(high, 16)
                if target.startswith("["):
                    for offset, each in enumerate(re.findall(r"<([0-9A-Fa-f]*)>", target)):
                        table[start + offset] = _utf16(each)
                else:
                    first = _hex_bytes(target[1:-1])
                    base, last = first[:-2], int.from_bytes(first[-2:], "big")
                    for offset in range(end - start + 1):
                        table[start + offset] = (base + (last + offset).to_bytes(2, "big")).decode("utf-16-be")
        return cls(width, table)

    def decode(self, data: bytes) -> str:
        codes = (int.from_bytes(data[i : i + self.width], "big") for i in range(0, len(data), self.width))
        return "".join(self.table.get(code, "\ufffd") for code in codes)


@dataclass
class MarkedContent:
    """What a page's content streams say, by marked content: text by MCID, the /Lang of each MCID,
    every MCID, and whatever is drawn inside no marked content (untagged) or inside an /Artifact."""

    text: dict[int, str] = field(default_factory=dict)
    lang: dict[int, str] = field(default_factory=dict)
    mcids: set[int] = field(default_factory=set)
    untagged: list[str] = field(default_factory=list)
    artifact_text: list[str] = field(default_factory=list)


def _shown(operator: str, operands: list, font: ToUnicode | None) -> str:
    if font is None:
        raise ValueError(f"text shown ({operator}) before any font is set")
    strings = operands[0] if operator == "TJ" else operands[-1:]
    return "".join(font.decode(bytes(item)) for item in strings if isinstance(item, pikepdf.String))


def read_page(page: pikepdf.Page) -> MarkedContent:
    """The marked content of one page (its content streams and the form XObjects they draw)."""
    result = MarkedContent()
    fonts: dict[tuple[int, int], ToUnicode] = {}

    def font_of(resources: pikepdf.Object, name: str) -> ToUnicode:
        font = resources.Font[name]
        if font.objgen not in fonts:
            fonts[font.objgen] = ToUnicode.of_font(font)
        return fonts[font.objgen]

    def walk(stream: pikepdf.Object, resources: pikepdf.Object, stack: list[tuple[str, int | None]]) -> None:
        font: ToUnicode | None = None
        for operands, operator in pikepdf.parse_content_stream(stream):
            op = str(operator)
            if op in ("BDC", "BMC"):
                tag = str(operands[0])
                properties = operands[1] if op == "BDC" else None
                if isinstance(properties, pikepdf.Name):
                    properties = resources.Properties[properties]
                mcid = int(properties.MCID) if properties is not None and "/MCID" in properties else None
                if mcid is not None:
                    result.mcids.add(mcid)
                if mcid is not None and properties is not None and "/Lang" in properties:
                    result.lang[mcid] = str(properties.Lang)
                stack.append((tag, mcid))
            elif op == "EMC":
                stack.pop()
            elif op == "Tf":
                font = font_of(resources, operands[0])
            elif op in _TEXT_OPERATORS or op in _PAINT_OPERATORS:
                inside = _innermost(stack)
                if op == "Do":
                    xobject = resources.XObject[operands[0]]
                    if xobject.get("/Subtype") == "/Form":
                        walk(xobject, xobject.get("/Resources", resources), stack)
                        continue
                text = _shown(op, list(operands), font) if op in _TEXT_OPERATORS else ""
                if inside is None:
                    result.untagged.append(text or op)
                elif inside == "artifact":
                    result.artifact_text.append(text)
                elif text:
                    result.text[inside] = result.text.get(inside, "") + text

    for stream in page.obj.Contents if isinstance(page.obj.Contents, pikepdf.Array) else [page.obj.Contents]:
        walk(stream, page.obj.Resources, [])
    return result


def _innermost(stack: list[tuple[str, int | None]]) -> int | str | None:
    """The MCID that content belongs to, "artifact" inside an artifact, None outside both."""
    for tag, mcid in reversed(stack):
        if tag == "/Artifact":
            return "artifact"
        if mcid is not None:
            return mcid
    return None


@dataclass
class Element:
    """A structure element: its type, its dictionary, its kids (elements, text of MCIDs, annotations) in order."""

    tag: str
    node: pikepdf.Object
    kids: list[Element | str | pikepdf.Object] = field(default_factory=list)
    # On the root: every (page object, MCID) the tree reaches.
    marked: set[tuple[tuple[int, int], int]] = field(default_factory=set)

    @property
    def text(self) -> str:
        return "".join(kid.text if isinstance(kid, Element) else kid for kid in self.kids if not _is_annotation(kid))

    def walk(self) -> Iterator[Element]:
        yield self
        for kid in self.kids:
            if isinstance(kid, Element):
                yield from kid.walk()

    def annotations(self) -> list[pikepdf.Object]:
        return [kid for kid in self.kids if _is_annotation(kid)]


def _is_annotation(kid: object) -> bool:
    return isinstance(kid, pikepdf.Object)


def structure(pdf: pikepdf.Pdf) -> tuple[Element, dict[tuple[int, int], MarkedContent]]:
    """The structure tree (its root's kids in order) and the marked content of every page by page object."""
    pages = {page.obj.objgen: read_page(page) for page in pdf.pages}
    marked: set[tuple[tuple[int, int], int]] = set()

    def content(page: pikepdf.Object, mcid: int) -> str:
        marked.add((page.objgen, mcid))
        return pages[page.objgen].text.get(mcid, "")

    def build(node: pikepdf.Object, page: pikepdf.Object | None) -> Element:
        page = node.get("/Pg", page)
        element = Element(str(node.get("/S", "/StructTreeRoot")), node)
        kids = node.get("/K")
        for kid in [] if kids is None else kids if isinstance(kids, pikepdf.Array) else [kids]:
            if isinstance(kid, int):
                element.kids.append(content(page, kid))
            elif kid.get("/Type") == "/MCR":
                element.kids.append(content(kid.get("/Pg", page), int(kid.MCID)))
            elif kid.get("/Type") == "/OBJR":
                element.kids.append(kid.Obj)
            else:
                element.kids.append(build(kid, page))
        return element

    tree = build(pdf.Root.StructTreeRoot, None)
    tree.marked = marked
    return tree, pages
