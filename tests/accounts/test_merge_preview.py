"""The merge preview says every reason the merge would be refused before asking, each with the
way to clear it, and the merge refuses with exactly the first of them; a tournament entry that
was never drawn can be taken out, and then the merge goes through."""

import pytest
from django.test import Client
from django.urls import reverse

from core.errors import EfudaError
from tests import club_versions, factories
from tests.accounts.test_merge import NAMES, _club, snapshot
from tests.hardening.helpers import napoleon_data
from tournaments.i18n import error_text
from tournaments.models import Player, PlayerMerge, TournamentEntry
from tournaments.selectors.entries import entry_kept_because, entry_removable, removable_entries
from tournaments.selectors.merge import merge_preview
from tournaments.services import events
from tournaments.services.deals import deal_record
from tournaments.services.merge import MESSAGES, merge_refusal, player_merge

pytestmark = pytest.mark.django_db


@pytest.fixture
def typo():
    club, players, wrong = _club(typo=True, deals=2)
    owner = factories.UserFactory(username="merge-owner")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    client = Client()
    client.force_login(owner)
    return club, players, wrong, client


def _tournament(club, name="秋の大会"):
    ruleset = club.rulesets.get(code="napoleon-wiki")
    return events.tournament_create(club=club, name=name, date=factories.datetime.date(
        2026, 11, 21), ruleset=ruleset, seed=7)  # fmt: skip


def _ask(client, club, keep, merge):
    return client.post(
        reverse("player_merge", args=[club.slug]), {"keep": keep.pk, "merge": merge.pk}
    )


def test_every_reason_is_said_before_asking_in_the_order_the_merge_checks(typo, english):
    club, players, wrong, client = typo
    taro = players["太郎"]
    # Two accounts, two tournaments (one never drawn, one where 太朗 played), one shared deal.
    with club_versions.unchecked():  # each linked to an account by hand
        Player.objects.filter(pk=taro.pk).update(user=factories.UserFactory(username="a"))
        Player.objects.filter(pk=wrong.pk).update(user=factories.UserFactory(username="b"))
    waiting = _tournament(club, "冬の大会")
    entry = events.entry_add(tournament=waiting, name="太朗")
    played = factories.tournament(club=club, ruleset=club.rulesets.get(code="napoleon-wiki"),
                                  entrants=4)  # fmt: skip
    played_entry = events.entry_add(tournament=played, name="太朗", checked_in=True)
    factories.started_round(played)
    session = club.sessions.filter(game="napoleon").order_by("date").first()
    both = [taro.id, wrong.id] + [players[n].id for n in NAMES[1:4]]
    shared = deal_record(session=session, data=napoleon_data(both, n=0))
    keep, merge = Player.objects.get(pk=taro.pk), Player.objects.get(pk=wrong.pk)
    before = snapshot(club)

    preview = merge_preview(club=club, keep=keep, merge=merge)
    assert [o.code for o in preview.obstacles] == [
        "merge_two_accounts", "merge_tournament", "merge_tournament_played", "merge_together",
    ]  # fmt: skip
    accounts, waiting_o, played_o, together = preview.obstacles
    assert waiting_o.entry_id == entry.pk and waiting_o.tournament_id == waiting.pk
    assert played_o.entry_id is None and played_o.tournament_id == played.pk
    assert together.deal.pk == shared.pk and together.params["count"] == 1
    assert preview.may_swap

    page = _ask(client, club, keep, merge).content.decode()
    texts = [
        "“太郎” and “太朗” are linked to two different accounts: they are two people.",
        "“太朗” is entered in the tournament “冬の大会” (2026-11-21): take that entry out, "
        "then merge.",
        "“太朗” played in the tournament “秋の大会” (2026-11-21): a player with a place in a "
        "tournament cannot be merged away. Merge the other way round, keeping “太朗”.",
        f"“太郎” and “太朗” both played in 1 deal(s) (first: {session.date.isoformat()}, "
        f"table A, deal {shared.seq}): they are two people, so they cannot be merged.",
    ]
    for text in texts:
        assert text in page, text
    assert [error_text(merge_refusal(o)) for o in preview.obstacles] == texts
    assert "This merge would be refused:" in page and "Yes, merge them" not in page
    manage = reverse("tournament_manage", args=[waiting.pk]) + f"#entry-{entry.pk}"
    assert f'href="{manage}"' in page and "Take the entry out" in page
    assert f'href="{reverse("tournament_detail", args=[played.pk])}"' in page
    deal_link = reverse("session_detail", args=[club.slug, session.pk]) + f"#deal-{shared.seq}"
    assert f'href="{deal_link}"' in page
    # The other way round is offered: keep 太朗, merge 太郎.
    swap = page.split("merge-refusals", 1)[1].split("</form>", 1)[0]
    assert f'name="keep" value="{merge.pk}"' in swap and f'name="merge" value="{keep.pk}"' in swap
    assert 'name="confirm"' not in swap

    # The merge itself refuses with the first, exactly, and changes nothing.
    with pytest.raises(EfudaError) as refused:
        player_merge(club=club, keep=keep, merge=merge)
    assert refused.value.code == "merge_two_accounts" and refused.value.field == "merge"
    assert refused.value.message == MESSAGES["merge_two_accounts"]
    assert refused.value.params == {"kept": "太郎", "merged": "太朗"}
    assert snapshot(club) == before and not PlayerMerge.objects.exists()
    assert played_entry.pk in set(TournamentEntry.objects.values_list("pk", flat=True))


def test_each_reason_alone_is_the_merges_refusal(typo):
    club, players, wrong, _client = typo
    keep = players["太郎"]
    entry = events.entry_add(tournament=_tournament(club), name="太朗")
    with pytest.raises(EfudaError) as refused:
        player_merge(club=club, keep=keep, merge=wrong)
    assert (refused.value.code, refused.value.params) == (
        "merge_tournament",
        {"merged": "太朗", "kept": "太郎", "tournament": "秋の大会", "date": "2026-11-21"},
    )
    events.entry_remove(entry=entry)
    session = club.sessions.filter(game="napoleon").first()
    both = [keep.id, wrong.id] + [players[n].id for n in NAMES[1:4]]
    first = deal_record(session=session, data=napoleon_data(both, n=0))
    deal_record(session=session, data=napoleon_data(both, n=1))
    with pytest.raises(EfudaError) as refused:
        player_merge(club=club, keep=keep, merge=wrong)
    assert refused.value.code == "merge_together"
    assert refused.value.params == {"kept": "太郎", "merged": "太朗", "count": 2,
                                    "date": session.date.isoformat(), "table": "A",
                                    "seq": first.seq}  # fmt: skip


def test_an_entry_never_drawn_is_taken_out_from_the_link_and_the_merge_goes_through(typo, english):
    club, players, wrong, client = typo
    tournament = _tournament(club)
    entry = events.entry_add(tournament=tournament, name="太朗", checked_in=True)
    events.entry_add(tournament=tournament, name="花子", checked_in=True)
    manage = client.get(reverse("tournament_manage", args=[tournament.pk])).content.decode()
    remove = reverse("tournament_entry_remove", args=[tournament.pk, entry.pk])
    assert manage.count("Take out (never drawn)") == 2 and f'action="{remove}"' in manage
    done = client.post(remove, follow=True).content.decode()
    assert "太朗 is no longer entered in this tournament." in done
    assert not TournamentEntry.objects.filter(pk=entry.pk).exists()
    history = TournamentEntry.history.filter(id=entry.pk).order_by("-history_id").first()
    assert history.history_type == "-" and history.history_change_reason == "taken out"
    page = _ask(client, club, players["太郎"], wrong).content.decode()
    assert "This merge would be refused:" not in page and "Yes, merge them" in page
    post = {"keep": players["太郎"].pk, "merge": wrong.pk, "confirm": "1"}
    assert client.post(reverse("player_merge", args=[club.slug]), post).status_code == 302
    assert not Player.objects.filter(pk=wrong.pk).exists()


def test_a_merge_refused_at_the_confirmation_shows_the_preview_again(typo, english):
    """A reason that appeared after the preview (an entry made meanwhile): the confirmation
    answers with the refusal and the preview, and no second confirmation is offered."""
    club, players, wrong, client = typo
    events.entry_add(tournament=_tournament(club), name="太朗")
    post = {"keep": players["太郎"].pk, "merge": wrong.pk, "confirm": "1"}
    response = client.post(reverse("player_merge", args=[club.slug]), post)
    page = response.content.decode()
    assert response.status_code == 400 and "This merge would be refused:" in page
    assert "take that entry out, then merge." in page and "Yes, merge them" not in page
    assert Player.objects.filter(pk=wrong.pk).exists()


def test_an_entry_stays_once_the_tournament_depends_on_it(club, english):
    ruleset = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    tournament = factories.tournament(club=club, ruleset=ruleset, entrants=5)
    late = events.entry_add(tournament=tournament, name="遅刻")
    adjusted = events.entry_add(tournament=tournament, name="罰点")
    events.adjustment_add(entry=adjusted, points="-1", reason="遅刻")
    never_drawn = set(tournament.entries.exclude(pk=adjusted.pk).values_list("pk", flat=True))
    assert removable_entries(tournament) == never_drawn and late.pk in never_drawn
    assert entry_kept_because(adjusted) == "entry_adjusted" and entry_removable(late)
    rnd = factories.started_round(tournament)  # 遅刻 was not checked in: still never drawn
    seated = tournament.entries.get(player__name="選手1")
    assert entry_kept_because(seated) == "entry_played"
    assert removable_entries(tournament) == {late.pk}
    with pytest.raises(EfudaError) as refused:
        events.entry_remove(entry=seated)
    assert error_text(refused.value) == (
        "選手1 has had a seat or a sit-out in a round of this tournament, so the entry stays: "
        "“Leaves after this round” keeps them out of the later rounds."
    )
    with pytest.raises(EfudaError) as refused:
        events.entry_remove(entry=adjusted)
    assert refused.value.code == "entry_adjusted" and refused.value.params == {"name": "罰点"}
    events.round_finish(rnd=rnd, last=True)
    tournament.refresh_from_db()
    assert removable_entries(tournament) == set()
    with pytest.raises(EfudaError) as refused:
        events.entry_remove(entry=late)
    assert refused.value.code == "entry_finished"
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 7


def test_a_sit_out_and_a_substitute_have_had_a_part(club):
    ruleset = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    tournament = factories.tournament(club=club, ruleset=ruleset, entrants=7)
    rnd = factories.started_round(tournament)
    (table,) = rnd.tables.all()
    (sitout,) = rnd.sitouts
    assert entry_kept_because(tournament.entries.get(player_id=sitout)) == "entry_played"
    substitute = events.entry_add(tournament=tournament, name="代打", checked_in=True)
    replaced = tournament.entries.get(player_id=table.seats[0])
    events.entry_replace(tournament=tournament, replaced=replaced, substitute="代打")
    substitute.refresh_from_db()
    assert entry_kept_because(substitute) == "entry_played"
    assert entry_kept_because(replaced) == "entry_played"  # seated before the change
