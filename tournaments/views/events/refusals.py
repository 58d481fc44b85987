"""What a visitor is told when a table's page is not theirs to open: a card opened before its
round starts, an old card, another player's table. Each answer says why and where to go on
(the table of the current round, the PIN page, the tournament); none names a private
tournament's players to someone who may not see them."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from ...selectors import events as sel
from .common import Refused


def _clock(rnd) -> str:
    """When a running round's clock runs out, as the time of day (empty while stopped)."""
    if rnd is None or rnd.timer_ends_at is None:
        return ""
    return time_format(timezone.localtime(rnd.timer_ends_at), "H:i")


def _not_started(request, tournament, state, rnd, card: str, links: list) -> Refused:
    """A card opened before its round starts: when it will, and to scan it again then."""
    before = state.round(rnd.number - 1)
    if before is not None and before.started_at and not before.finished_at:
        ends = _clock(before)
        when = (
            _(
                "Round %(before)s is being played; its clock runs out at %(time)s, and "
                "round %(round)s starts after it."
            )
            % {"before": before.number, "time": ends, "round": rnd.number}
            if ends
            else _("Round %(before)s is still being played; round %(round)s starts after it.")
            % {"before": before.number, "round": rnd.number}
        )
    else:
        when = _("Round %(round)s starts as soon as the staff start it.") % {"round": rnd.number}
    return Refused(
        tournament=tournament,
        title=_("Round %(round)s has not started yet") % {"round": rnd.number},
        lines=[card, when, _("Keep this card and scan it again when the round starts.")],
        links=[(_("Try again"), request.get_full_path()), *links],
        status=409,
    )


def _finished(tournament, rnd, playing, entry, card: str, links: list, pin_link) -> Refused:
    """A card of a finished round: which round is played now, if any."""
    now = (
        _("Round %(round)s is being played now: your seat is on its card.")
        % {"round": playing.number}
        if playing is not None and playing.number != rnd.number
        else _("The next round has not started yet.")
    )
    if entry is None:
        links.insert(0, pin_link)
    return Refused(
        tournament=tournament,
        title=_("This card is for round %(round)s, which is finished") % {"round": rnd.number},
        lines=[card, now],
        links=links,
        status=410,
    )


def _not_yours(tournament, table, rnd, entry, mine, links: list) -> Refused:
    """A player with a PIN at another table's page: whose seat it is, and where theirs is."""
    lines = [
        _("You are %(name)s, and you are not seated at table %(table)s of round %(round)s.")
        % {"name": entry.player.name, "table": table.number, "round": rnd.number}
    ]
    replaced = next((r for r in table.replacements or [] if r["out"] == entry.player_id), None)
    if replaced is not None:
        names = sel.names_of(tournament)
        lines.append(
            _("%(name)s took over your seat there from deal no. %(seq)s.")
            % {"name": names.get(replaced["in"], "?"), "seq": replaced["from_seq"]}
        )
    if mine is None and entry.player_id in rnd.sitouts:
        lines.append(_("You sit out round %(round)s.") % {"round": rnd.number})
    return Refused(
        tournament=tournament,
        title=_("This is not your table"),
        lines=lines,
        links=links,
        status=403,
    )


def table_refusal(request, tournament, table, entry) -> Refused:
    """Why this visitor (not staff, not seated at ``table``) cannot open it, and the way on."""
    state = sel.tournament_state(tournament)
    rnd = table.round
    card = _("This card is for round %(round)s, table %(table)s.") % {
        "round": rnd.number,
        "table": table.number,
    }
    links = []
    if sel.can_see(request.reader, tournament, entry):
        links.append((_("The tournament"), reverse("tournament_detail", args=[tournament.pk])))
    pin_link = (_("Enter your PIN"), reverse("tournament_pin", args=[tournament.pk]))
    playing = state.playing
    if rnd.started_at is None:
        return _not_started(request, tournament, state, rnd, card, links)
    mine = sel.entry_table(tournament, entry) if entry is not None else None
    if mine is not None and mine.pk != table.pk:
        links.insert(
            0,
            (
                _("Your table: %(label)s") % {"label": f"R{mine.round.number}-T{mine.number}"},
                reverse("tournament_table", args=[tournament.pk, mine.pk]),
            ),
        )
    if rnd.finished_at is not None or (playing is not None and playing.number > rnd.number):
        return _finished(tournament, rnd, playing, entry, card, links, pin_link)
    if entry is None:  # no PIN on this browser (or staff rights ended): the PIN is the way in
        return Refused(
            tournament=tournament,
            title=_("This table is for its players and the staff"),
            lines=[card, _("Enter your PIN to open your own table.")],
            links=[pin_link, *links],
            status=403,
        )
    return _not_yours(tournament, table, rnd, entry, mine, links)
