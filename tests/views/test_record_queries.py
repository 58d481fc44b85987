"""Recording a deal through the entry form costs a fixed number of queries, whatever the club's
history (docs/performance.md, "Recording a deal"): at most 20 for a Napoleon deal (23 before the
entry form stopped reading its players for a post that saves and the client id's look-up came
with the session's lock). The test database wraps each test in a
transaction, so the service's own transaction shows as a savepoint and its release, where a
server logs BEGIN and COMMIT: the same count."""

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.views.helpers import napoleon_post
from tournaments.models import Deal, ScoreLine
from tournaments.services.deals import deal_record

pytestmark = pytest.mark.django_db

NAPOLEON_QUERIES = 20
DAIFUGO_QUERIES = 20  # and the 大富豪 of the round before (都落ち)


def _recorded(keeper, url, data) -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        response = keeper.post(url, data)
    assert response.status_code == 302, response.content.decode()[:500]
    return [q["sql"] for q in ctx.captured_queries]


def test_recording_a_napoleon_deal(keeper, napoleon_session, players):
    deal_record(session=napoleon_session, data={"seats": [p.id for p in players[1:6]],
                                                "redeal": True})  # fmt: skip
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    _recorded(keeper, url, napoleon_post(players))  # the first rated deal of the club
    queries = _recorded(keeper, url, napoleon_post(players, honours=12))
    assert len(queries) <= NAPOLEON_QUERIES, "\n".join(queries)
    assert Deal.objects.filter(session=napoleon_session).count() == 3
    assert ScoreLine.objects.filter(session=napoleon_session).count() == 10


def test_recording_a_daifugo_round(keeper, daifugo_session, players):
    a, b, c, d = (p.id for p in players[:4])
    url = reverse("round_new", args=[daifugo_session.club.slug, daifugo_session.pk])

    def post(order):
        return {"players": [a, b, c, d], "order": [*order, ""], "forbidden": [],
                "client_id": str(uuid.uuid4()), "action": "save"}  # fmt: skip

    _recorded(keeper, url, post([a, b, c, d]))
    queries = _recorded(keeper, url, post([b, a, c, d]))
    assert len(queries) <= DAIFUGO_QUERIES, "\n".join(queries)
    second = Deal.objects.get(session=daifugo_session, seq=2)
    # the 大富豪 of round 1 did not go out first in round 2: 都落ち
    assert second.data["previous_daifugo"] == second.outcome["miyako_ochi"] == str(a)
