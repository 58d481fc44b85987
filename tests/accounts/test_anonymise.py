"""A player anonymised on request by the club's owner (docs/accounts.md, "Anonymising a
player"): the name replaced by 「匿名 N」 on every page and file and in every row and history row
the club keeps, the names of the players merged into them too; the points kept; cached pages
drop the name at once; an undone merge brings the merged player back anonymous."""

import datetime
import io

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import models
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.accounts.test_merge import NAMES, _club
from tests.reports.test_pdfs import pdf_text
from tournaments.models import Club, Deal, Player, PlayerMerge, StandingAggregate
from tournaments.services import events as ev
from tournaments.services.clubs import club_update
from tournaments.services.invitations import invitation_create
from tournaments.services.merge import player_merge, player_merge_undo
from tournaments.services.players import player_anonymise, player_rename

pytestmark = pytest.mark.django_db

OLD = ("太郎", "太朗")  # the player's name and the mistyped name merged into it


def _texts_naming(club, name: str) -> list[str]:
    """Every text column of every row (and history row) of the app's models that holds
    ``name``: where the club could still show or give it away."""
    found = []
    for model in apps.get_app_config("tournaments").get_models():
        for field in model._meta.fields:
            if isinstance(field, (models.CharField, models.TextField)):
                count = model._default_manager.filter(**{f"{field.name}__contains": name}).count()
                if count:
                    found.append(f"{model._meta.label}.{field.name}: {count}")
    return found


def _points_by_id(club) -> list[tuple]:
    return sorted(
        StandingAggregate.objects.filter(club=club).values_list(
            "player_id", "game", "period", "points", "deals"
        )
    )


@pytest.fixture
def world():
    """A public club where 「太朗」 (a typo for 太郎) was merged into 太郎, who then played a
    tournament, was handed an adjustment and was replaced at a seat, and is named in an
    invitation's note: every kind of row that quotes a player's name."""
    club, players, wrong = _club(typo=True)
    owner = factories.UserFactory(username="anon-owner")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    club_update(club=club, name=club.name, is_public=True)
    player_merge(club=club, keep=players["太郎"], merge=wrong, by=owner)
    wiki = club.rulesets.get(code="napoleon-wiki")
    t = ev.tournament_create(
        club=club, name="冬の大会", date=datetime.date(2026, 2, 1), ruleset=wiki, seed=3,
        is_public=True, user=owner,
    )  # fmt: skip
    entries = {n: ev.entry_add(tournament=t, name=n, checked_in=True) for n in NAMES[:5]}
    ev.adjustment_add(entry=entries["太郎"], points="-1", reason="遅刻 太郎", user=owner)
    ev.round_draw(tournament=t)
    ev.entry_replace(tournament=t, replaced=entries["太郎"], substitute="美咲", user=owner)
    invitation_create(
        club=club, by=owner, role="member", max_uses=1, days=7, player=players["太郎"],
        note="太郎さんへ",
    )  # fmt: skip
    return {"club": club, "owner": owner, "taro": players["太郎"], "t": t}


def _pages(club, taro, t) -> dict[str, str]:
    slug = club.slug
    standings = reverse("standings_all", args=[slug, "napoleon"])
    session = Deal.objects.filter(club=club, napoleon=taro).first().session_id
    return {
        "home": reverse("club_home", args=[slug]),
        "standings": standings,
        "csv": standings + "?format=csv",
        "daifugo": reverse("standings_all", args=[slug, "daifugo"]),
        "player": reverse("player_detail", args=[slug, taro.pk]),
        "session": reverse("session_detail", args=[slug, session]),
        "ratings": reverse("ratings", args=[slug, "napoleon"]) + "?all=1",
        "tournament": reverse("tournament_detail", args=[t.pk]),
    }


def test_the_owner_anonymises_a_player_everywhere(world, django_capture_on_commit_callbacks):
    club, owner, taro, t = world["club"], world["owner"], world["taro"], world["t"]
    assert all(_texts_naming(club, name) for name in OLD)  # the world names them everywhere
    points = _points_by_id(club)
    visitor = Client()
    pages = _pages(club, taro, t)
    before = {label: visitor.get(url).content.decode("utf-8-sig") for label, url in pages.items()}
    assert "太郎" in before["standings"] and "太郎" in before["player"]  # kept in the page cache
    version = Club.objects.get(pk=club.pk).data_version
    browser = Client()
    browser.force_login(owner)
    url = reverse("player_anonymise", args=[club.slug, taro.pk])
    manage = browser.get(reverse("club_manage", args=[club.slug])).content.decode()
    assert f'href="{url}"' in manage  # the button beside the player
    asked = browser.get(url)
    assert asked.status_code == 200 and "太郎" in asked.content.decode()
    assert Player.objects.get(pk=taro.pk).name == "太郎"  # asking changes nothing
    with django_capture_on_commit_callbacks(execute=True):
        done = browser.post(url)
    assert done.status_code == 302 and done["Location"].endswith("#players")
    assert Player.objects.get(pk=taro.pk).name == "匿名 1"
    assert Club.objects.get(pk=club.pk).data_version > version
    assert _points_by_id(club) == points  # the points stay, by player
    for name in OLD:
        assert _texts_naming(club, name) == [], name
    assert PlayerMerge.objects.get(club=club).merged_name == "匿名 2"
    assert set(Player.history.filter(id=taro.pk).values_list("name", flat=True)) == {"匿名 1"}
    # every page and file, for a visitor (from the cache before) and for the owner
    for label, address in pages.items():
        for client in (visitor, browser):
            text = client.get(address).content.decode("utf-8-sig")
            assert not any(name in text for name in OLD), label
    assert "匿名 1" in visitor.get(pages["standings"]).content.decode()
    pdf = pdf_text(visitor.get(pages["standings"] + "?format=pdf").content)
    assert "匿名 1" in pdf and "太郎" not in pdf
    export = browser.get(reverse("results_export", args=[club.slug]) + "?game=napoleon&format=csv")
    assert "匿名 1" in export.content.decode("utf-8-sig")
    deal = Deal.objects.filter(club=club, napoleon=taro).first()
    for address in (reverse("deal_history", args=[club.slug, deal.pk]),
                    reverse("player_merge", args=[club.slug]),
                    reverse("club_invitations", args=[club.slug])):  # fmt: skip
        text = browser.get(address).content.decode()
        assert not any(name in text for name in OLD), address
    out = io.StringIO()
    call_command("export_standings", club=club.slug, game="napoleon", everything=True, stdout=out)
    assert "匿名 1" in out.getvalue() and "太郎" not in out.getvalue()


def test_an_undone_merge_brings_the_merged_player_back_anonymous():
    club, players, wrong = _club(typo=True)
    record = player_merge(club=club, keep=players["太郎"], merge=wrong)
    player_anonymise(player=players["太郎"])
    back = player_merge_undo(record=PlayerMerge.objects.get(pk=record.pk))
    assert back.pk == wrong.pk and back.name == "匿名 2"
    assert Deal.objects.filter(club=club, napoleon=back).exists()
    assert not any(_texts_naming(club, name) for name in OLD)


def test_numbers_are_the_clubs_own_and_anonymising_again_keeps_the_number():
    club = factories.ClubFactory()
    first, second, third = (factories.PlayerFactory(club=club, name=n) for n in NAMES[:3])
    other = factories.PlayerFactory(name="太郎")  # another club's 太郎 is not theirs
    assert player_anonymise(player=first).name == "匿名 1"
    assert player_anonymise(player=second).name == "匿名 2"
    assert player_anonymise(player=first).name == "匿名 1"
    player_rename(player=Player.objects.get(pk=first.pk), name="花子さん")  # asked to be named
    assert player_anonymise(player=third).name == "匿名 1"  # the lowest free number
    assert Player.objects.get(pk=other.pk).name == "太郎"
    assert Player.history.filter(id=other.pk, name="太郎").exists()
