"""Path converters that range-check every number in a URL, so a number no row can have is a 404
before any view runs — never a 500 from the database (an id ≥ 2**63 overflows SQLite's and
PostgreSQL's bigint; year 0 has no dates). ASCII digits only: ``²`` or ``٣`` do not match."""

from django.urls import register_converter

MAX_ID = 2**63 - 1  # the largest BigAutoField value on both databases


class _Bounded:
    regex = "[0-9]{1,19}"
    low, high = 1, MAX_ID

    def to_python(self, value: str) -> int:
        number = int(value)
        if not self.low <= number <= self.high:
            raise ValueError(value)  # the URL does not match: 404
        return number

    def to_url(self, value) -> str:
        return str(int(value))


class IdConverter(_Bounded):
    """A database id or a round number: 1 … 2**63 − 1."""


class YearConverter(_Bounded):
    regex = "[0-9]{4}"
    low, high = 1, 9999

    def to_url(self, value) -> str:
        return f"{int(value):04d}"


class MonthConverter(_Bounded):
    regex = "[0-9]{1,2}"
    low, high = 1, 12

    def to_url(self, value) -> str:
        return f"{int(value):02d}"


register_converter(IdConverter, "id")
register_converter(YearConverter, "year")
register_converter(MonthConverter, "month")
