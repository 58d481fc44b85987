"""The lines that explain a Napoleon score to the players (translatable, see core.i18n)."""

from __future__ import annotations

from core.i18n import N_
from core.messages import Message


def explain_redeal() -> Message:
    return Message(N_("Nobody bid: 流れ (redeal). The deal is recorded and scores nothing."))


def _signed(value: int) -> str:
    return f"{value:+d}"


def explain(
    *,
    napoleon,
    adjutant,
    bid,
    trump,
    called,
    honours,
    discarded,
    discards_to,
    policy,
    army,
    won,
    plan_b,
    all20,
    points,
    roles,
) -> tuple[Message, ...]:
    """Contract, count, outcome and points, in the order a scorekeeper reads them out."""
    lines = [_contract(napoleon, adjutant, bid, trump, called)]
    lines.append(Message(N_("The Napoleon army took %(honours)s honours in tricks."),
                         {"honours": honours}))  # fmt: skip
    if discarded:
        lines.append(_discards(discarded, discards_to, policy))
    lines.append(_outcome(bid, army, won, plan_b, all20))
    ally = next(p for s, p in points.items() if roles[s] == "ally")
    params = {"napoleon": _signed(points[napoleon]), "ally": _signed(ally)}
    if adjutant is None:
        lines.append(Message(N_("Points: Napoleon %(napoleon)s, each ally %(ally)s."), params))
    else:
        params["adjutant"] = _signed(points[adjutant])
        lines.append(Message(
            N_("Points: Napoleon %(napoleon)s, adjutant %(adjutant)s, each ally %(ally)s."),
            params,
        ))  # fmt: skip
    return tuple(lines)


def _contract(napoleon, adjutant, bid, trump, called) -> Message:
    params = {"napoleon": napoleon, "bid": bid, "trump": trump}
    if adjutant is not None:
        params["adjutant"] = adjutant
        if called:
            params["called"] = called
            text = N_("%(napoleon)s bid %(bid)s %(trump)s with adjutant %(adjutant)s "
                      "(called %(called)s).")  # fmt: skip
        else:
            text = N_("%(napoleon)s bid %(bid)s %(trump)s with adjutant %(adjutant)s.")
    elif called:
        params["called"] = called
        text = N_("%(napoleon)s bid %(bid)s %(trump)s and plays solo: the called card "
                  "%(called)s was in the widow or in Napoleon's own hand.")  # fmt: skip
    else:
        text = N_("%(napoleon)s bid %(bid)s %(trump)s and plays solo (no adjutant).")
    return Message(text, params)


def _discards(discarded, discards_to, policy) -> Message:
    params = {"discarded": discarded}
    if policy == "last_trick":
        if discards_to == "napoleon":
            text = N_("%(discarded)s discarded honours go to the last trick's winner: the "
                      "Napoleon army.")  # fmt: skip
        else:
            text = N_("%(discarded)s discarded honours go to the last trick's winner: the "
                      "allies.")  # fmt: skip
    elif discards_to == "napoleon":
        text = N_("%(discarded)s discarded honours count for the Napoleon army.")
    elif discards_to == "allies":
        text = N_("%(discarded)s discarded honours belong to the allies.")
    else:
        text = N_("%(discarded)s discarded honours count for nobody.")
    return Message(text, params)


def _outcome(bid, army, won, plan_b, all20) -> Message:
    params = {"bid": bid, "count": army}
    if plan_b:
        text = N_("The army took all 20 with a bid of %(bid)s: 作戦B (Plan B), the allies win.")
    elif all20 and won:
        text = N_("The army took all 20 with a bid of 20: Napoleon wins; all 20 doubles "
                  "the points.")  # fmt: skip
    elif all20:
        text = N_("The army took all 20 with a bid of %(bid)s: all 20 loses, Napoleon loses "
                  "and the points are doubled.")  # fmt: skip
    elif won:
        text = N_("Army count %(count)s ≥ bid %(bid)s: Napoleon wins.")
    else:
        text = N_("Army count %(count)s < bid %(bid)s: the allies win.")
    return Message(text, params)
