"""Form fields with a range by default, so no number typed or posted reaches the database
unchecked: a value out of range is a message beside the field, never a 500."""

from django import forms

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
MAX_ID = 2**63 - 1  # a database id (BigAutoField) on both databases


class IntegerField(forms.IntegerField):
    """``forms.IntegerField`` bounded to a 32-bit integer unless narrower bounds are given."""

    def __init__(self, *, min_value=None, max_value=None, **kwargs):
        super().__init__(
            min_value=INT32_MIN if min_value is None else min_value,
            max_value=INT32_MAX if max_value is None else max_value,
            **kwargs,
        )


class IdField(IntegerField):
    """A database id: 1 … 2**63 − 1."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(**kwargs)
