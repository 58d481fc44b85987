"""The entry form's POST for a valid five-player Napoleon deal (napoleon-wiki), as the phone
sends it; tests change one field at a time."""

import uuid


def napoleon_fields(seats: list) -> dict:
    """The deal's own fields for ``seats`` (five ids): the first is Napoleon, the second the
    adjutant, 13 spades, called ♠A, 14 honours (a win)."""
    return {
        "seats": seats,
        "napoleon": seats[0],
        "bid": 13,
        "trump": "S",
        "called_suit": "S",
        "called_rank": "A",
        "adjutant": seats[1],
        "honours": 14,
        "discarded": 0,
    }


def napoleon_post(players, *, action="save", client_id=None, **changes) -> dict:
    """Seats are the first five ``players``; the first is Napoleon, the second the adjutant,
    13 spades, called ♠A, 14 honours. A change to ``None`` leaves the field out (as a form
    that never sent it); ``client_id`` defaults to a new id, as each form shown gets."""
    seats = [p.id for p in players[:5]]
    data = {
        **napoleon_fields(seats),
        "client_id": str(client_id if client_id is not None else uuid.uuid4()),
        "action": action,
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}
