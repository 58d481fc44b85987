"""Who reads: one object per request, ``request.reader``.

``tournaments.middleware.ReaderMiddleware`` sets it once per request, after Django's
authentication, as pretix sets ``request.event`` and ``request.organizer``: the logged-in user
(or Django's anonymous one) and what the request has learnt about them so far, each read at
most once per request and never kept past it (a role taken away counts at the next request):

- ``roles``: their role in each club, by club id (None: not a member). ``club_for_request``
  reads it with the club, ``selectors.events.tournament_for_reader`` with the tournament (on a
  read, both take the answer kept in the cache for the club's data version, which every change
  of a membership moves), and ``permissions.club_role`` otherwise (one query, then kept here).
- ``players`` and ``claims``: their player in the club ("this is me"), and the name of the
  player their claim waiting for an owner names, by club id; read with the club when a view
  asks for them (``club_for_request(..., with_player=True)``).
- ``extra_staff``: per tournament id, whether they are among its extra staff (read with the
  tournament; ``selectors.events.is_staff`` and ``selectors.visibility`` read the rest).
- ``visibility``: per club id, what ``selectors.visibility.deal_visibility`` hides from them
  (a ``Visibility``), computed once.

Every permission check and read that depends on who reads takes the reader. Code that runs
outside a request (commands, exports, services, tests) may pass a user (or None) instead:
``Reader.of`` makes a reader of it, which remembers what it reads for as long as the caller
keeps it.

A login or a logout inside a request (allauth's views) gives ``request.user`` another user:
the reader made before it is not theirs. Those views answer with a redirect, and the next
request has its own reader; ``Reader.of_request`` (used where a request is all a function is
given) makes a new reader whenever the request's user is no longer the reader's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser


@dataclass(eq=False)
class Reader:
    """Who reads one request, and what is known of them so far (module doc)."""

    user: object  # the request's user: a user, or Django's AnonymousUser
    roles: dict[int, str | None] = field(default_factory=dict)
    players: dict[int, int | None] = field(default_factory=dict)
    claims: dict[int, str | None] = field(default_factory=dict)
    extra_staff: dict[int, bool] = field(default_factory=dict)
    visibility: dict[int, object] = field(default_factory=dict)  # selectors.visibility's

    @property
    def is_authenticated(self) -> bool:
        return bool(getattr(self.user, "is_authenticated", False))

    @property
    def is_superuser(self) -> bool:
        """Site staff: they act as owners of every club."""
        return self.is_authenticated and bool(self.user.is_superuser)

    @property
    def pk(self) -> int | None:
        """The user's id; None when nobody is logged in."""
        return self.user.pk if self.is_authenticated else None

    @classmethod
    def of(cls, who) -> Reader:
        """``who`` itself when it is a reader; otherwise a new reader of the user ``who`` (None:
        nobody logged in)."""
        if isinstance(who, Reader):
            return who
        return cls(user=AnonymousUser() if who is None else who)

    @classmethod
    def of_request(cls, request) -> Reader:
        """``request.reader``, made and set here for a request the middleware did not see (a
        test's ``RequestFactory``) or whose user changed since (a login, a logout)."""
        reader = getattr(request, "reader", None)
        user = getattr(request, "user", None)
        if reader is None or reader.user is not user:
            reader = request.reader = cls.of(user)
        return reader
