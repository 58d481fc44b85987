"""Marker for translatable texts in the pure core.

``N_`` returns its argument unchanged. It only marks a literal so that ``makemessages``
(xgettext with ``--keyword=N_``) extracts it; the Django app translates the msgid with
``gettext`` when it shows the text. No translation table lives here.
"""


def N_(s: str) -> str:  # noqa: N802 - conventional gettext marker name
    return s
