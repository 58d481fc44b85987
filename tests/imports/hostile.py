"""Hostile files, built small and fast in the test: what the security review uploaded.

- ``ods_bomb``: an .ods of a few hundred bytes whose one row says it repeats ``rows`` times and
  holds one cell that says it repeats ``columns`` times (rows × columns cells once built);
- ``xlsx_laughs``: an .xlsx one of whose parts declares nested XML entities ("billion laughs");
- ``xlsx_strings``: an .xlsx with ``count`` tiny shared strings (3 million: 51 MB unpacked from
  about 125 KB), written by a generator straight into the zip.
"""

import functools
import io
import zipfile

import openpyxl

from .helpers import ods_bytes

BOMB_ROW = (
    '<table:table-row table:number-rows-repeated="{rows}">'
    '<table:table-cell table:number-columns-repeated="{columns}" office:value-type="string">'
    "<text:p>x</text:p></table:table-cell></table:table-row>"
)


def _rewritten(data: bytes, part: str, content) -> bytes:
    """``data`` (a zip) with ``part`` replaced or added: ``content`` bytes, or an iterable of
    byte chunks written as they come (so a 51 MB part is never held whole)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            if info.filename != part:
                target.writestr(info, source.read(info.filename))
        info = zipfile.ZipInfo(part, date_time=(2026, 1, 5, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        with target.open(info, "w") as stream:
            for chunk in [content] if isinstance(content, bytes) else content:
                stream.write(chunk)
    return out.getvalue()


@functools.cache  # built once per test run: bytes, never changed
def ods_bomb(rows: int = 1000, columns: int = 16_384) -> bytes:
    clean = ods_bytes([])
    content = zipfile.ZipFile(io.BytesIO(clean)).read("content.xml").decode()
    bomb = content.replace(
        "</table:table>", BOMB_ROW.format(rows=rows, columns=columns) + "</table:table>"
    )
    return _rewritten(clean, "content.xml", bomb.encode())


def xlsx_clean(rows) -> bytes:
    book = openpyxl.Workbook()
    book.active.title = "Results"
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


LAUGHS = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(f'<!ENTITY lol{n} "{("&lol" + str(n - 1 or "") + ";") * 10}">' for n in range(1, 10))
    + "]>\n"
)


@functools.cache  # built once per test run: bytes, never changed
def xlsx_laughs(part: str = "xl/worksheets/sheet1.xml") -> bytes:
    """A clean workbook whose ``part`` starts with nested entities, used in its first cell."""
    clean = xlsx_clean([["date", "table"], ["2026-01-05", "A"]])
    original = zipfile.ZipFile(io.BytesIO(clean)).read(part).decode()
    body = original.split("?>", 1)[1] if original.startswith("<?xml") else original
    body = body.replace("<t>date</t>", "<t>&lol9;</t>")
    return _rewritten(clean, part, (LAUGHS + body).encode())


SST_TYPE = (
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
)


@functools.cache  # built once per test run: bytes, never changed
def xlsx_strings(count: int = 3_000_000, *, declared: bool = True) -> bytes:
    """A clean workbook with shared strings (``count`` times ``<si><t>x</t></si>``), declared
    as its readers find them."""
    clean = xlsx_clean([["date", "table"], ["2026-01-05", "A"]])
    types = zipfile.ZipFile(io.BytesIO(clean)).read("[Content_Types].xml").decode()
    types = types.replace("</Types>", SST_TYPE + "</Types>")
    clean = _rewritten(clean, "[Content_Types].xml", types.encode())
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    )
    head += f' count="{count}" uniqueCount="{count}">' if declared else ">"

    def chunks():
        yield head.encode()
        block = b"<si><t>x</t></si>" * 10_000
        for _ in range(count // 10_000):
            yield block
        yield b"<si><t>x</t></si>" * (count % 10_000) + b"</sst>"

    return _rewritten(clean, "xl/sharedStrings.xml", chunks())
