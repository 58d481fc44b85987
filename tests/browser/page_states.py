"""Every page state the accessibility check visits (docs/accessibility.md lists them).

A state is a page as someone sees it at one moment: a page, a form refused with its errors, a
page with a dialogue open. ``World`` builds one club with one of everything (sessions of both
games, a tournament in its first round with a deal waiting and one disputed, a Daifugō
tournament drawn and not started, a finished one, an import that failed, an invitation, a
claim waiting); each state is reached by the person it belongs to, following the page as they
would (a form is filled in and sent, not faked).

``who``: ``visitor`` (not logged in), ``member`` (a club member), ``owner`` (the club's owner,
who also runs the tournaments), ``player`` (a tournament player logged in with a PIN, on the
visitor's phone after the visitor states).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from django.urls import reverse

from tests import factories
from tests.browser.scorekeeper import Table, make_table
from tournaments.models import ImportJob
from tournaments.services import events as svc
from tournaments.services.claims import player_claim
from tournaments.services.clubs import club_update
from tournaments.services.deals import deal_delete, deal_record
from tournaments.services.import_jobs import import_job_create
from tournaments.services.invitations import invitation_create
from tournaments.services.members import membership_set
from tournaments.services.merge import player_merge

BAD_IMPORT = (
    "date,table,rules,players,napoleon,bid,trump,called,adjutant,honours,discarded\n"
    "2026-13-01,A,napoleon-wiki,太郎;花子;Ken;ゆき;Sam,太郎,12,S,SA,花子,14,0\n"
    "2026-11-02,A,napoleon-wiki,太郎;花子;Ken;ゆき;Sam,太郎,13,X,SA,花子,14,0\n"
).encode()


@dataclass
class World:
    table: Table
    member: object
    tournament: object  # Napoleon, round 1 playing, a deal waiting at table 1, one disputed
    table_one: object
    pin: str  # seat 2 of table 1
    dai_tournament: object  # Daifugō, round 1 drawn, not started
    finished: object  # a finished tournament
    job: ImportJob
    invitation: object

    @property
    def slug(self) -> str:
        return self.table.club.slug


def _napoleon(seats, bid=13):
    return {"seats": list(seats), "napoleon": seats[0], "bid": bid, "trump": "S",
            "called": "SA", "adjutant": seats[1], "honours": 14, "discarded": 0,
            "last_trick": None, "redeal": False}  # fmt: skip


def build_world() -> World:
    table = make_table()
    club, owner = table.club, table.user
    club_update(club=club, name=club.name, is_public=True)
    membership_set(club=club, user=owner, role="owner")
    nap, dai = table.nap, table.dai
    ids = [p.id for p in table.seated]
    for n in range(2, 5):  # a few more deals: standings, ratings, charts
        seats = ids[n - 2 :] + ids[: n - 2]
        deal_record(session=nap, user=owner, data=_napoleon(seats, 13 + n % 3))
        order = ids[n - 1 :] + ids[: n - 1]
        deal_record(session=dai, user=owner, data={"players": ids, "order": order, "forbidden": []})
    again = deal_record(session=nap, user=owner, data=_napoleon(ids))
    deal_delete(deal=again, user=owner)  # a deleted deal on the session page

    member = factories.UserFactory(username="member")
    factories.MembershipFactory(club=club, user=member, role="member")
    player_claim(club=club, user=member, player=table.players[5])  # waits for the owner
    extra = factories.PlayerFactory(club=club, name="ケン")
    player_merge(club=club, keep=table.players[2], merge=extra, by=owner)
    invitation = invitation_create(club=club, by=owner, role="member", max_uses=5, days=7)

    t = svc.tournament_create(
        club=club, name="秋の絵札杯", date=datetime.date(2026, 11, 21), ruleset=nap.ruleset,
        rounds_planned=2, deals_per_round=4, minutes_per_round=30, require_confirmation=True,
        is_public=True, seed=3, user=owner,
    )  # fmt: skip
    for i in range(1, 11):
        svc.entry_add(tournament=t, name=f"選手{i:02d}", checked_in=True)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t), user=owner)
    svc.timer_start(rnd=rnd, minutes=30)
    one, two = rnd.tables.order_by("number")
    seat1 = t.entries.get(player_id=one.seats[0])
    seat2 = t.entries.get(player_id=one.seats[1])
    svc.table_deal_record(table=one, data=_napoleon(one.seats), entry=seat1)  # waiting
    disputed = svc.table_deal_record(table=two, data=_napoleon(two.seats), user=owner, staff=True)
    svc.deal_dispute(deal=disputed, user=owner, staff=True, note="honours miscounted")
    svc.adjustment_add(entry=seat1, points=-1, reason="late", user=owner)
    pin = svc.pin_issue(entry=seat2)

    dt = svc.tournament_create(
        club=club, name="大富豪ナイト", date=datetime.date(2026, 11, 28), ruleset=dai.ruleset,
        rounds_planned=3, deals_per_round=1, minutes_per_round=20, is_public=True, seed=5,
        user=owner,
    )  # fmt: skip
    for i in range(1, 9):
        svc.entry_add(tournament=dt, name=f"Dai{i}", checked_in=True)
    svc.round_draw(tournament=dt)

    done = svc.tournament_create(
        club=club, name="Spring Cup", date=datetime.date(2026, 4, 4), ruleset=nap.ruleset,
        rounds_planned=1, is_public=True, seed=9, user=owner,
    )  # fmt: skip
    for i in range(1, 6):
        svc.entry_add(tournament=done, name=f"Spring{i}", checked_in=True)
    first = svc.round_start(rnd=svc.round_draw(tournament=done), user=owner)
    only = first.tables.get()
    svc.table_deal_record(table=only, data=_napoleon(only.seats), user=owner, staff=True)
    svc.round_finish(rnd=first, user=owner)

    job = import_job_create(club=club, data=BAD_IMPORT, user=owner, filename="bad.csv",
                            language="ja")  # fmt: skip
    job.refresh_from_db()
    return World(table=table, member=member, tournament=t, table_one=one, pin=pin,
                 dai_tournament=dt, finished=done, job=job, invitation=invitation)  # fmt: skip


# ---------------------------------------------------------------------------------------------
# How each state is reached: ``go(world, page, base)`` leaves the page in the state.


def _open(path: str) -> Callable:
    def go(w: World, page, base: str):
        page.goto(base + path(w))

    return go


def _submit(page, selector="form.stack button[type=submit]", *, novalidate=False):
    """Send the form; ``novalidate``: past the browser's own checks (required fields), as an
    older browser would, so the server's refusal is what shows."""
    if novalidate:
        page.locator(selector).first.evaluate("b => { b.form.noValidate = true; }")
    with page.expect_navigation():
        page.locator(selector).first.click()


def _login_refused(w, page, base):
    page.goto(base + reverse("login"))
    page.fill("input[name=login]", "keeper")
    page.fill("input[name=password]", "not-the-password")
    _submit(page)


def _signup_refused(w, page, base):
    page.goto(base + reverse("account_signup"))
    page.fill("input[name=email]", "keeper@example.org")
    page.fill("input[name=username]", "keeper")
    page.fill("input[name=password1]", "short")
    page.fill("input[name=password2]", "different")
    _submit(page)


def _csrf_failure(w, page, base):
    page.goto(base + reverse("login"))
    page.context.clear_cookies()  # the form's token no longer matches any cookie
    page.fill("input[name=login]", "keeper")
    page.fill("input[name=password]", "pass-word-123")
    _submit(page)


def _pin_refused(w, page, base):
    page.goto(base + reverse("tournament_table", args=[w.tournament.pk, w.table_one.pk]))
    page.locator('input[name="seat"][value="2"]').check()
    page.fill("input[name=pin]", "000000")
    _submit(page, "form.ev-pin button[type=submit]")


def _pin_login(w, page, base):
    """The PIN holder opens the table's QR address, chooses the seat and types the PIN: the
    table page with the deal waiting for their confirmation and the entry form."""
    page.goto(base + reverse("tournament_table", args=[w.tournament.pk, w.table_one.pk]))
    page.locator('input[name="seat"][value="2"]').check()
    page.fill("input[name=pin]", w.pin)
    _submit(page, "form.ev-pin button[type=submit]")
    page.locator("#deal-form").wait_for()


def _dispute_open(w, page, base):
    page.locator("details.ev-dispute summary").first.click()


def _new_session_refused(w, page, base):
    page.goto(base + reverse("session_new", args=[w.slug]))
    page.fill("input[name=table]", "")
    page.fill("input[name=date]", "")
    _submit(page, novalidate=True)


def _deal_refused(w, page, base):
    """Save with the bid and the rest not chosen: the server's refusal with its summary."""
    page.goto(base + reverse("deal_new", args=[w.slug, w.table.nap.pk]))
    page.locator("#preview:not([aria-busy='true'])").wait_for(state="attached")
    page.locator("button[name=action][value=save]").click()  # refused: the form comes back
    page.locator("#error-summary").wait_for()


def _ruleset_refused(w, page, base):
    page.goto(base + reverse("ruleset_new", args=[w.slug]))
    page.fill("input[name=name]", "x" * 101)
    _submit(page, "button[name=action][value=save]")


def _import_refused(w, page, base):
    page.goto(base + reverse("manage_import", args=[w.slug]))
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "bad.csv", "mimeType": "text/csv", "buffer": BAD_IMPORT}],  # fmt: skip
    )
    _submit(page, "form.import-form button[type=submit]")


def _tournament_refused(w, page, base):
    page.goto(base + reverse("tournament_new", args=[w.slug]))
    page.fill("input[name=rounds_planned]", "99")
    _submit(page, novalidate=True)


def _merge_preview(w, page, base):
    page.goto(base + reverse("player_merge", args=[w.slug]))
    players = w.table.players
    page.select_option("select[name=keep]", str(players[0].pk))
    page.select_option("select[name=merge]", str(players[5].pk))
    _submit(page)


def _draw_again(w, page, base):
    page.goto(base + reverse("tournament_manage", args=[w.dai_tournament.pk]))
    _submit(page, "form.ev-drawform button[type=submit]")


def _correct(w, page, base):
    deal = w.table_one.session.deals.first()
    page.goto(base + reverse("tournament_deal_correct",
                             args=[w.tournament.pk, w.table_one.pk, deal.pk]))  # fmt: skip


def _boom(w, page, base):
    page.goto(base + "/_boom/")


@dataclass(frozen=True)
class State:
    name: str
    who: str
    go: Callable


def _p(name, who, path):
    return State(name, who, _open(path))


def r(name, *args, query=""):
    """The address of ``name``; an argument that is a function is asked the world."""
    return lambda w: reverse(name, args=[a(w) if callable(a) else a for a in args]) + query


def slug(w):
    return w.slug


def tid(w):
    return w.tournament.pk


def nap(w):
    return w.table.nap.pk


def dai(w):
    return w.table.dai.pk


STATES: list[State] = [
    # Anyone, not logged in
    _p("home", "visitor", r("home")),
    _p("login", "visitor", r("login")),
    State("login refused", "visitor", _login_refused),
    _p("sign-up", "visitor", r("account_signup")),
    State("sign-up refused", "visitor", _signup_refused),
    _p("password reset", "visitor", r("account_reset_password")),
    _p("invitation find", "visitor", r("invitation_find")),
    _p("invitation", "visitor", r("invitation_open", lambda w: w.invitation.token)),
    _p("club home", "visitor", r("club_home", slug)),
    _p("standings napoleon month", "visitor", r("standings_month", slug, "napoleon", 2026, 11)),
    _p("standings daifugo all time", "visitor", r("standings_all", slug, "daifugo")),
    _p("ratings napoleon", "visitor", r("ratings", slug, "napoleon")),
    _p("ratings daifugo everyone", "visitor", r("ratings", slug, "daifugo", query="?all=1")),
    _p("ratings explained", "visitor", r("ratings_about", slug)),
    _p("player", "visitor", r("player_detail", slug, lambda w: w.table.players[0].pk)),
    _p("sessions", "visitor", r("session_list", slug)),
    _p("session napoleon", "visitor", r("session_detail", slug, nap)),
    _p("session daifugo", "visitor", r("session_detail", slug, dai)),
    _p("blank sheet", "visitor", r("club_blank_sheet", slug)),
    _p("blank sheet refused", "visitor", r("club_blank_sheet", slug, query="?rules=&players=99")),
    _p("tournaments", "visitor", r("tournament_list", slug)),
    _p("tournament playing", "visitor", r("tournament_detail", tid)),
    _p("tournament standings", "visitor", r("tournament_standings", tid)),
    _p("tournament clock", "visitor", r("tournament_timer", tid)),
    _p("tournament daifugo drawn", "visitor",
       r("tournament_detail", lambda w: w.dai_tournament.pk)),
    _p("tournament finished", "visitor", r("tournament_detail", lambda w: w.finished.pk)),
    _p("PIN", "visitor", r("tournament_pin", tid)),
    _p("PIN at a table", "visitor", r("tournament_table", tid, lambda w: w.table_one.pk)),
    State("PIN refused", "visitor", _pin_refused),
    _p("not found", "visitor", lambda w: "/c/no-such-club/"),
    State("server error", "visitor", _boom),
    State("CSRF refused", "visitor", _csrf_failure),
    # A player with a PIN (the visitor's phone, logged in with the PIN)
    State("table with PIN", "player", _pin_login),
    State("table dispute open", "player", _dispute_open),
    # A member of the club
    _p("home member", "member", r("home")),
    _p("club home member", "member", r("club_home", slug)),
    _p("me in this club", "member", r("club_me", slug)),
    _p("forbidden", "member", r("club_manage", slug)),
    # The owner (who records, manages and runs tournaments)
    _p("my clubs", "owner", r("my_clubs")),
    _p("club home owner", "owner", r("club_home", slug)),
    _p("new session", "owner", r("session_new", slug)),
    State("new session refused", "owner", _new_session_refused),
    _p("deal entry", "owner", r("deal_new", slug, nap)),
    _p("round entry", "owner", r("round_new", slug, dai)),
    State("deal entry refused", "owner", _deal_refused),
    _p("deal edit", "owner", r("deal_edit", slug, lambda w: w.table.deals(w.table.nap).first().pk)),
    _p("deal history", "owner",
       r("deal_history", slug, lambda w: w.table.deals(w.table.dai).last().pk)),
    _p("manage club", "owner", r("club_manage", slug)),
    _p("invitations", "owner", r("club_invitations", slug)),
    _p("new rule set", "owner", r("ruleset_new", slug)),
    State("rule set refused", "owner", _ruleset_refused),
    _p("import", "owner", r("manage_import", slug)),
    State("import refused", "owner", _import_refused),
    _p("import job failed", "owner", r("manage_import_job", slug, lambda w: w.job.pk)),
    _p("export", "owner", r("results_export", slug)),
    _p("export refused", "owner", r("results_export", slug, query="?game=chess&date_from=x")),
    _p("merge players", "owner", r("player_merge", slug)),
    State("merge preview", "owner", _merge_preview),
    _p("new club", "owner", r("club_new")),
    _p("new tournament", "owner", r("tournament_new", slug)),
    State("new tournament refused", "owner", _tournament_refused),
    _p("run tournament", "owner", r("tournament_manage", tid)),
    _p("tournament staff", "owner", r("tournament_staff", tid)),
    State("draw again", "owner", _draw_again),
    _p("finish round", "owner", r("tournament_round_finish", tid, 1)),
    State("correct deal", "owner", _correct),
    _p("seating cards with PINs", "owner", r("tournament_seating_pins", tid, 1)),
    _p("table as staff", "owner", r("tournament_table", tid, lambda w: w.table_one.pk)),
    _p("log out", "owner", r("logout")),
]  # fmt: skip

WHO_ORDER = ("visitor", "player", "member", "owner")
