"""The API's lists, a page at a time: ``?page=N&page_size=M`` (django-ninja's page numbers),
with both bounded so that no page number reaches the database as an offset it cannot hold
(schemathesis found ``page=10**27`` answering 500: an integer too large for SQLite)."""

from __future__ import annotations

from ninja import Field, Schema
from ninja.pagination import PageNumberPagination

MAX_PAGE = 1_000_000


class Pages(PageNumberPagination):
    class Input(Schema):
        page: int = Field(1, ge=1, le=MAX_PAGE)
        page_size: int | None = Field(None, ge=1, le=1000)


class Page:
    """A queryset (or a list), sliced by the paginator and written by ``out``."""

    def __init__(self, queryset, out) -> None:
        self.queryset, self.out = queryset, out

    def __getitem__(self, item):
        return [self.out(row) for row in self.queryset[item]]

    def __len__(self) -> int:
        if isinstance(self.queryset, list):
            return len(self.queryset)
        return self.queryset.count()
