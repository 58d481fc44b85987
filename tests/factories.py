"""factory_boy factories. ``.build()`` makes objects without the database; ``create`` (calling
the factory) goes through the services, as the club's pages would: the club's data version
moves with each write (tests/club_versions.py checks every transaction)."""

import datetime

import factory
from django.contrib.auth import get_user_model

from tournaments import models
from tournaments.services import events
from tournaments.services.clubs import club_create
from tournaments.services.members import membership_set
from tournaments.services.players import player_get_or_create, player_set_active
from tournaments.services.rulesets import ruleset_save
from tournaments.services.sessions import session_create


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")

    @factory.post_generation
    def password(self, create, extracted, **kwargs):
        self.set_password(extracted or "pass-word-123")
        if create:
            self.save(update_fields=["password"])


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Club

    slug = factory.Sequence(lambda n: f"club{n}")
    name = factory.Sequence(lambda n: f"ナポレオン部 {n}")
    is_public = False

    @classmethod
    def _create(cls, model_class, *, slug, name, is_public):
        return club_create(slug=slug, name=name, is_public=is_public)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = "member"

    @classmethod
    def _create(cls, model_class, *, club, user, role):
        return membership_set(club=club, user=user, role=role)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"player{n}")

    @classmethod
    def _create(cls, model_class, *, club, name, active=True):
        player = player_get_or_create(club=club, name=name)
        if not active:
            player = player_set_active(player=player, active=False)
        return player


class ClubRuleSetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.ClubRuleSet

    club = factory.SubFactory(ClubFactory)
    code = "napoleon-wiki"
    preset = "napoleon-wiki"
    options = factory.LazyFunction(dict)

    @classmethod
    def _create(cls, model_class, *, club, code, preset, options, name=""):
        """The club's rule set of that code as it stands, or a new one (``ruleset_save``)."""
        existing = models.ClubRuleSet.objects.filter(club=club, code=code).first()
        if existing is not None:
            return existing
        return ruleset_save(club=club, code=code, preset=preset, options=options, name=name)


def session(*, club, ruleset, date, table="A"):
    return session_create(club=club, ruleset=ruleset, date=date, table=table)


def tournament(*, club, ruleset, entrants: int, seed: int = 7, **kwargs):
    """A tournament of ``entrants`` checked-in players (選手1 …) on ``ruleset``, dated
    2026-11-21, drawn with ``seed``: what the tournament tests start from."""
    made = events.tournament_create(
        club=club, name="秋の大会", date=datetime.date(2026, 11, 21), ruleset=ruleset,
        seed=seed, **kwargs,
    )  # fmt: skip
    for i in range(1, entrants + 1):
        events.entry_add(tournament=made, name=f"選手{i}", checked_in=True)
    return made


def started_round(tournament_):
    """The tournament's first round, drawn and started."""
    return events.round_start(rnd=events.round_draw(tournament=tournament_))
