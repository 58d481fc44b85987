"""iCalendar text (RFC 5545) for the club's calendar, written by hand: a few lines, no library.

Content lines end in CRLF and are folded at 75 octets (a continuation starts with a space,
never inside a UTF-8 character); TEXT values escape backslashes, semicolons, commas and line
breaks (section 3.3.11). Plain Python: the view gathers the events.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

LINE_OCTETS = 75


@dataclass(frozen=True)
class Event:
    uid: str  # stable for one object: the same event keeps it from one download to the next
    day: datetime.date  # an all-day event
    summary: str
    url: str = ""
    description: str = ""


def escape_text(value: str) -> str:
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return value.replace("\r\n", "\\n").replace("\r", "\\n").replace("\n", "\\n")


def fold(line: str) -> str:
    """One content line, folded so that no physical line is longer than 75 octets."""
    out: list[str] = []
    current, size, limit = "", 0, LINE_OCTETS
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            out.append(current)
            current, size, limit = " ", 1, LINE_OCTETS
        current += char
        size += width
    out.append(current)
    return "\r\n".join(out)


def calendar_text(*, name: str, events: list[Event], stamp: datetime.datetime) -> str:
    """A VCALENDAR of all-day events; ``stamp`` (UTC) is every event's DTSTAMP."""
    dtstamp = stamp.astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//efuda//club calendar//JA",
        "CALSCALE:GREGORIAN",
        f"X-WR-CALNAME:{escape_text(name)}",
    ]
    for event in events:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{escape_text(event.uid)}",
            f"DTSTAMP:{dtstamp}",
            f"DTSTART;VALUE=DATE:{event.day:%Y%m%d}",
            f"DTEND;VALUE=DATE:{event.day + datetime.timedelta(days=1):%Y%m%d}",
            f"SUMMARY:{escape_text(event.summary)}",
        ]
        if event.description:
            lines.append(f"DESCRIPTION:{escape_text(event.description)}")
        if event.url:
            lines.append(f"URL:{event.url}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)
