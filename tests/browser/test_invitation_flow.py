"""At 360×640: an owner invites a scorekeeper; a new person signs up through the invitation,
verifies their e-mail, records a Daifugō round, says which player they are and, once the owner
confirms, sees their own standing on the club home."""

import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from tests import factories
from tournaments.models import Deal, Membership, Player, PlayerClaim

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= 360


def phone_context(browser):
    return browser.new_context(
        viewport={"width": 360, "height": 640}, locale="ja-JP", device_scale_factor=1,
        has_touch=True,
    )  # fmt: skip


def tap(page, selector):
    """Tap a control that re-renders the entry form through htmx, and wait for the new form."""
    with page.expect_response(lambda r: "/preview/" in r.url and r.request.method == "POST"):
        page.locator(selector).first.click()
    page.wait_for_selector("#preview:not([aria-busy='true'])", state="attached")


def login(page, base, username, password, next_url):
    page.goto(f"{base}{reverse('login')}?next={next_url}")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{next_url}")


def test_invitation_sign_up_verify_record_claim(live_server, browser, settings):
    settings.SITE_URL = live_server.url
    club = factories.ClubFactory(slug="inv", name="ナポレオン部")
    owner = factories.UserFactory(username="boss")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    names = ["太郎", "花子", "Ken", "ゆき", "Sam"]
    players = [factories.PlayerFactory(club=club, name=n) for n in names]
    daifugo = factories.session(
        club=club, date=timezone.localdate(),
        ruleset=factories.ClubRuleSetFactory(club=club, code="daifugo-common",
                                             preset="daifugo-common"),
    )  # fmt: skip
    base = live_server.url

    # The owner creates a scorekeeper invitation on their phone: a link and a QR code.
    owner_context = phone_context(browser)
    boss = owner_context.new_page()
    boss.set_default_timeout(15000)
    invitations = reverse("club_invitations", args=[club.slug])
    login(boss, base, "boss", "pass-word-123", invitations)
    boss.select_option("select[name=role]", "scorekeeper")
    boss.click("#new-invitation button[type=submit]")
    boss.wait_for_selector(".invitation-open .qr svg")
    assert boss.locator(".invitation-open .qr svg").bounding_box()["width"] <= 360
    link = boss.locator(".invitation-open .invite-link").input_value()
    assert link.startswith(f"{base}/invite/")
    assert fits(boss)

    # A new person opens it, signs up and verifies the address from the e-mail.
    context = phone_context(browser)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(link)
    assert "記録係" in page.locator("main").inner_text()
    assert fits(page)
    page.click("main a[href*='/accounts/signup/']")
    page.fill("input[name=email]", "yuki@example.org")
    page.fill("input[name=username]", "yuki")
    page.fill("input[name=password1]", "yuki-pass-2026")
    page.fill("input[name=password2]", "yuki-pass-2026")
    assert fits(page)
    page.click("main button[type=submit]")
    page.wait_for_url("**/accounts/confirm-email/")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["yuki@example.org"]
    confirm = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mail.outbox[0].body).group(0)
    page.goto(confirm)
    assert fits(page)
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{reverse('invitation_open', args=[link.rstrip('/').rsplit('/', 1)[1]])}")
    page.click("main button[type=submit]")  # join the club
    page.wait_for_url(f"**{reverse('club_home', args=[club.slug])}")
    assert Membership.objects.get(club=club, user__username="yuki").role == "scorekeeper"

    # As a scorekeeper they record a Daifugō round.
    page.goto(f"{base}{reverse('round_new', args=[club.slug, daifugo.pk])}")
    went_out = [players[1], players[0], players[2], players[3]]
    for player in players[:4]:  # who is at the table, then the order they went out
        tap(page, f'label:has(input[name=players][value="{player.id}"])')
    for player in went_out:
        tap(page, f'[data-tap-player="{player.id}"]')
    page.click("button[name=action][value=save]")
    page.wait_for_selector(f'[data-total="{players[1].id}"]')
    assert Deal.objects.filter(session=daifugo, created_by__username="yuki").count() == 1
    assert fits(page)

    # "This is me": 花子; the owner confirms; the club home shows my standing.
    page.goto(f"{base}{reverse('club_me', args=[club.slug])}")
    page.select_option("select[name=player]", str(players[1].id))
    page.click("#this-is-me button[type=submit]")
    page.wait_for_selector(".messages")
    assert PlayerClaim.objects.get(user__username="yuki").status == "pending"
    assert fits(page)
    boss.goto(f"{base}{reverse('club_manage', args=[club.slug])}")
    boss.click(f"a[href='{invitations}']")  # from the management page
    boss.click("#claims button.primary")
    boss.wait_for_selector(".messages")
    assert Player.objects.get(pk=players[1].pk).user.username == "yuki"
    page.goto(f"{base}{reverse('club_home', args=[club.slug])}")
    standing = page.locator("#my-standing")
    assert "花子" in standing.inner_text()
    assert "1位" in standing.inner_text() or "1 of" in standing.inner_text()
    assert fits(page)
    owner_context.close()
    context.close()
