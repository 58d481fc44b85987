"""factory_boy factories. ``.build()`` makes objects without the database."""

import datetime

import factory
from django.contrib.auth import get_user_model

from tournaments import models
from tournaments.services import events
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


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = "member"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"player{n}")


class ClubRuleSetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.ClubRuleSet
        django_get_or_create = ("club", "code")

    club = factory.SubFactory(ClubFactory)
    code = "napoleon-wiki"
    preset = "napoleon-wiki"
    options = factory.LazyFunction(dict)


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
