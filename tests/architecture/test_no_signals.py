"""No signal handler of the app does business work: services say what they change
(docs/architecture.md, "The club's data version")."""

import weakref

from django.core import signals as request_signals
from django.db.models import signals as model_signals

SIGNALS = [
    getattr(module, name)
    for module, names in (
        (model_signals, ("pre_init", "post_init", "pre_save", "post_save", "pre_delete",
                         "post_delete", "m2m_changed", "pre_migrate", "post_migrate")),
        (request_signals, ("request_started", "request_finished")),
    )
    for name in names
]  # fmt: skip


def _receivers(signal):
    for _key, receiver, *_rest in signal.receivers:
        if isinstance(receiver, weakref.ReferenceType):
            receiver = receiver()
        if receiver is not None:
            yield getattr(receiver, "__func__", receiver)


def test_the_app_connects_no_receiver_to_django_signals():
    mine = [
        f"{r.__module__}.{r.__qualname__}"
        for signal in SIGNALS
        for r in _receivers(signal)
        if getattr(r, "__module__", "").startswith(("tournaments", "config", "core"))
    ]
    assert mine == []
