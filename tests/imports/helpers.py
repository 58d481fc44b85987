"""Helpers for the import tests: points per player name, read back from stored score lines."""

from collections import defaultdict
from pathlib import Path

from tournaments.models import Deal, ScoreLine

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"
NAPOLEON_HEADER = "date,table,rules,players,napoleon,bid,trump,called,adjutant,honours,discarded"
DAIFUGO_HEADER = "date,table,rules,order,forbidden"


def csv_bytes(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


def points_by_deal(club) -> list[dict[str, int]]:
    """Each deal's points by player name, deals in session (date, table) and seq order."""
    result = []
    deals = Deal.objects.filter(club=club).order_by("session__date", "session__table", "seq")
    for deal in deals:
        lines = ScoreLine.objects.filter(deal=deal).select_related("player")
        result.append({line.player.name: line.points for line in lines})
    return result


def totals(club) -> dict[str, int]:
    sums: dict[str, int] = defaultdict(int)
    for line in ScoreLine.objects.filter(club=club).select_related("player"):
        sums[line.player.name] += line.points
    return dict(sums)


def ods_bytes(rows, *, sheet: str = "Sheet1") -> bytes:
    """A minimal OpenDocument spreadsheet as LibreOffice writes one (mimetype first, stored):
    ``datetime.date`` cells are date cells, ``int`` cells numbers, the rest text; ``None`` an
    empty cell."""
    import datetime
    import io
    import zipfile
    from xml.sax.saxutils import escape, quoteattr

    def cell(value) -> str:
        if value is None:
            return "<table:table-cell/>"
        if isinstance(value, datetime.date):
            return (f'<table:table-cell office:value-type="date" '
                    f'office:date-value="{value.isoformat()}"><text:p>'
                    f'{value:%Y/%m/%d}</text:p></table:table-cell>')  # fmt: skip
        if isinstance(value, (int, float)):
            return (f'<table:table-cell office:value-type="float" office:value="{value}">'
                    f"<text:p>{value}</text:p></table:table-cell>")  # fmt: skip
        return (f'<table:table-cell office:value-type="string"><text:p>{escape(str(value))}'
                "</text:p></table:table-cell>")  # fmt: skip

    body = "".join(
        "<table:table-row>" + "".join(cell(v) for v in row) + "</table:table-row>" for row in rows
    )
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
        ' xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
        ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3">'
        f"<office:body><office:spreadsheet><table:table table:name={quoteattr(sheet)}>"
        f"{body}</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"'
        ' manifest:version="1.3">'
        '<manifest:file-entry manifest:full-path="/" manifest:media-type='
        '"application/vnd.oasis.opendocument.spreadsheet"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr(
            zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet",
            compress_type=zipfile.ZIP_STORED,
        )  # fmt: skip
        z.writestr("META-INF/manifest.xml", manifest, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()
