"""One vocabulary: game terms glossed the same way on every English page, counts that agree with
their number, and Daifugō counted in rounds (回戦), never in deals.

The catalogue holds every message a template or the code shows, so its English msgids are where
an unglossed term or a "1 rounds" hides; the pages are rendered too, because templates also
write terms through the ``|term`` filter and table headings (``i18n.GLOSSES``).
"""

import datetime
import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from tests import factories
from tests.hardening.helpers import build_club
from tests.i18n.test_catalogue import PO, parse_po
from tournaments.i18n import GLOSSES, glossed, list_join
from tournaments.models import Club, ImportJob
from tournaments.services import events as svc
from tournaments.services.invitations import invitation_create

# Longest first, and a term inside a longer one (富豪 in 大富豪) is the longer one's.
_TERMS = sorted(GLOSSES, key=len, reverse=True)
_TERM = re.compile("|".join(re.escape(t) for t in _TERMS))

# A number written before a counted noun in a message that has no plural form: "%(n)s rounds"
# reads "1 rounds" when n is 1. Placeholders that are never 1 are allowed: the ends of a range
# (min, max) and table sizes (a table seats at least 3).
_NOUNS = (
    "players|rounds|deals|minutes|seats|sessions|tables|names|errors|entries|months|days|"
    "points|redeals|times|columns|lines|games|titles|cards"
)
_COUNTED = re.compile(r"(%\((\w+)\)[sd]|\{\{ ?(\w+) ?\}\}|\{(\w+)\})\s+(" + _NOUNS + r")\b")
_NEVER_ONE = {"min", "max", "counts"}


def unglossed(text: str) -> list[str]:
    """The game terms in ``text`` not followed by their one English gloss."""
    return [
        m.group()
        for m in _TERM.finditer(text)
        if not text[m.end() :].startswith(f" ({GLOSSES[m.group()]})")
    ]


def plural_traps(text: str) -> list[str]:
    found = []
    for m in _COUNTED.finditer(text):
        name = m.group(2) or m.group(3) or m.group(4)
        if name not in _NEVER_ONE:
            found.append(m.group())
    return found


def _catalogue():
    return [e for e in parse_po(PO) if not e.obsolete and e.msgid]


def test_the_checks_catch_what_they_are_for():
    assert unglossed("都落ち: the previous 大富豪 becomes 大貧民 (grand pauper).") == [
        "都落ち",
        "大富豪",
    ]
    assert unglossed("大富豪 (grand millionaire) and 富豪 (millionaire)") == []
    traps = plural_traps("%(n)s rounds · %(count)s deals per round")
    assert traps == ["%(n)s rounds", "%(count)s deals"]
    assert plural_traps("{n} entries wait") == ["{n} entries"]
    assert plural_traps("Daifugō needs %(min)s to %(max)s players") == []


def test_every_english_message_glosses_its_game_terms():
    bad = [
        f"line {e.line}: {text!r} lacks {terms}"
        for e in _catalogue()
        for text in filter(None, (e.msgid, e.msgid_plural))
        if text.strip() not in GLOSSES and (terms := unglossed(text))
    ]
    assert bad == [], "\n".join(bad)


def test_no_message_counts_without_a_plural_form():
    entries = _catalogue()
    msgids = {e.msgid for e in entries}

    def chosen_by_the_code(text: str, trap: str) -> bool:
        # The scoring core has no ngettext: it picks "%(points)s point." or "… points." itself.
        return text.replace(trap, trap[:-1]) in msgids

    bad = [
        f"line {e.line}: {e.msgid!r} ({traps})"
        for e in entries
        if e.msgid_plural is None
        and (traps := [t for t in plural_traps(e.msgid) if not chosen_by_the_code(e.msgid, t)])
    ]
    assert bad == [], "\n".join(bad)


def test_a_term_is_glossed_on_english_pages_only_and_lists_follow_the_language():
    with translation.override("en"):
        assert glossed("都落ち") == "都落ち (fall from the capital)"
        assert glossed("Ken") == "Ken"
        assert list_join(["Ken", "Sophie"]) == "Ken, Sophie"
    with translation.override("ja"):
        assert glossed("都落ち") == "都落ち"
        assert list_join(["Ken", "Sophie"]) == "Ken、Sophie"


def _main_text(response) -> str:
    assert response.status_code == 200, response.status_code
    body = response.content.decode().split("<main", 1)[1].split("</main>", 1)[0]
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", "", body.split(">", 1)[1]))
    return re.sub(r"\s+", " ", text)


@pytest.fixture
def daifugo_pages(db):
    club, players, _nap, dai = build_club(deals=4, public=True)
    return [
        reverse("standings_all", args=[club.slug, "daifugo"]),
        reverse("standings_all", args=[club.slug, "daifugo"]) + "?min=20",  # rates hidden
        reverse("ratings", args=[club.slug, "daifugo"]),
        reverse("ratings", args=[club.slug, "daifugo"]) + "?all=1",
        reverse("session_detail", args=[club.slug, dai.pk]),
    ]


@pytest.mark.django_db
def test_daifugo_pages_count_rounds_and_gloss_their_terms(client, daifugo_pages):
    for url in daifugo_pages:
        english = _main_text(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
        assert not re.search(r"\bdeals?\b", english, re.I), (url, english)
        assert re.search(r"\brounds?\b", english, re.I), (url, english)
        assert unglossed(english) == [], (url, english)
        assert not re.search(r"\b1 (rounds|players|sessions)\b", english), (url, english)
        japanese = _main_text(client.get(url, HTTP_ACCEPT_LANGUAGE="ja"))
        assert "ディール" not in japanese and "回戦" in japanese, (url, japanese)
        assert "(grand millionaire)" not in japanese, (url, japanese)


@pytest.mark.django_db
def test_the_account_pages_speak_in_efudas_voice(client):
    """allauth's own words ("Sign Up", "Then please sign in.", ユーザー登録) give way to efuda's
    in both languages (locale/en overrides allauth's English, locale/ja its Japanese)."""
    url = reverse("account_signup")
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Sign up" in english and "Already have an account?" in english
    for allauths in ("Sign Up", "Signup", "Then please", "Sign In"):
        assert allauths not in english, allauths
    japanese = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "新規登録" in japanese and "ユーザー登録" not in japanese
    login = client.get(reverse("account_login"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Remember Me" not in login and "Sign In" not in login


def test_the_outbox_says_plainly_that_the_login_or_pin_expired():
    """Not "efuda no longer knows this phone (...)": the person is told what happened."""
    for lang, said in (("en", "Your login or your PIN has expired."), ("ja", "期限が切れました")):
        with translation.override(lang):
            page = render_to_string("components/outbox.html", {"page": "/entry/"})
        login = re.search(r'data-t-login="([^"]*)"', page).group(1)
        assert said in login and "knows this phone" not in login, (lang, login)


_TEMPLATES = Path(settings.BASE_DIR) / "templates"
_TAGS = Path(settings.BASE_DIR) / "tournaments" / "templatetags"
# A status label: the element that says what state a thing is in (a round, an invitation, a
# deal at a tournament table, a rating, a rule set).
_STATUS = re.compile(
    r'<(span|small)\b[^>]*class="[^"]*\b(state|ev-flag|provisional)\b[^"]*"[^>]*>(.*?)</\1>', re.S
)


def test_status_labels_start_with_a_capital_in_english():
    """Status labels read "Finished", "Open", "Provisional", like "Disputed" beside them."""
    lowercase = []
    labels = 0
    # the templates' labels, and those the deal cards write in Python (templatetags)
    sources = [*sorted(_TEMPLATES.rglob("*.html")), *sorted(_TAGS.glob("*.py"))]
    for path in sources:
        for element in _STATUS.finditer(path.read_text()):
            for text in re.findall(
                r'\{% translate "([^"]+)"|gettext\("([^"]+)"\)', element.group(3)
            ):
                text = text[0] or text[1]
                labels += 1
                if text[0].islower():
                    lowercase.append(f"{path.name}: {text!r}")
    assert labels >= 12 and lowercase == [], lowercase


def test_the_import_status_starts_with_a_capital():
    job = ImportJob(pk=1, club=Club(slug="c"), status=ImportJob.Status.QUEUED, filename="x.csv")
    with translation.override("en"):
        page = render_to_string("tournaments/imports/_job.html", {"job": job, "club": job.club})
    assert '<label for="import-progress">Waiting…</label>' in page


@pytest.mark.django_db
def test_a_long_list_names_both_ends_and_the_page(client):
    """django-tables2's lowercase "next" stood alone on the first page; efuda's pager says
    "← Previous · Page 1 of 2 · Next →" in both languages."""
    club = factories.ClubFactory(is_public=True)
    rules = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    for day in range(21):
        factories.session(club=club, ruleset=rules, date=datetime.date(2026, 10, 1 + day))
    url = reverse("session_list", args=[club.slug])
    first = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    pager = first.split('<nav class="pager', 1)[1].split("</nav>", 1)[0]
    assert "Page 1 of 2" in pager and 'rel="next"' in pager and "Next →" in pager
    assert "← Previous" in pager and 'rel="prev"' not in pager
    assert not re.search(r">\s*(next|previous)\s*<", first)
    second = client.get(url + "?page=2", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    pager = second.split('<nav class="pager', 1)[1].split("</nav>", 1)[0]
    assert "2ページ中2ページ目" in pager and 'rel="prev"' in pager and "前へ" in pager
    assert "次へ" in pager and 'rel="next"' not in pager


_EMPTY_OPTION = re.compile(r'<option value=""[^>]*>([^<]*)</option>')


def _empty_choices_of(page: str) -> list[str]:
    return [html.unescape(text).strip() for text in _EMPTY_OPTION.findall(page)]


def _a_sentence(text: str) -> bool:
    """A sentence ("Choose a player"), not "---------", "–", "— choose a player —", "(anyone)"."""
    return bool(text) and text[0].isalpha() and not text[0].islower()


def test_every_empty_choice_in_the_templates_and_forms_is_a_sentence():
    templates = [
        f"{path.relative_to(_TEMPLATES)}: {m.group()!r}"
        for path in sorted(_TEMPLATES.rglob("*.html"))
        for m in re.finditer(r'<option value="">(?!\{% translate ")[^<]*', path.read_text())
    ]
    assert templates == [], templates
    forms = Path(settings.BASE_DIR) / "tournaments" / "forms"
    texts = [
        m.group(1)
        for path in sorted(forms.glob("*.py"))
        for m in re.finditer(r'\(""\s*,\s*_\("([^"]*)"\)\)', path.read_text())
    ]
    assert len(texts) >= 5 and [t for t in texts if not _a_sentence(t)] == [], texts


@pytest.mark.django_db
def test_no_form_page_shows_an_empty_choice_as_dashes(client):
    owner = factories.UserFactory(username="empty-choice-owner")
    club, players, _nap, dai = build_club(deals=1, owner=owner)
    member = factories.UserFactory(username="empty-choice-member")
    factories.MembershipFactory(club=club, user=member, role="member")
    pages = {
        owner: [
            reverse("session_new", args=[club.slug]),
            reverse("club_blank_sheet", args=[club.slug]),
            reverse("tournament_new", args=[club.slug]),
            reverse("club_invitations", args=[club.slug]),
            reverse("player_merge", args=[club.slug]),
            reverse("round_new", args=[club.slug, dai.pk]),
            reverse("club_manage", args=[club.slug]),
            reverse("ruleset_new", args=[club.slug]),
            reverse("results_export", args=[club.slug]),
        ],
        member: [reverse("club_me", args=[club.slug])],
    }
    seen = 0
    for user, urls in pages.items():
        client.force_login(user)
        for url in urls:
            for lang in ("en", "ja"):
                response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
                assert response.status_code == 200, (url, response.status_code)
                page = response.content.decode()
                assert "---------" not in page, (url, lang)
                empties = _empty_choices_of(page)
                seen += len(empties)
                bad = [t for t in empties if not (t and t[0] not in "-–—(")]
                assert bad == [], (url, lang, bad)
    assert seen >= 8


# "Nov. 25, 2026", "25 November", "November 2026" (Django's English formats) and "2026年11月25日"
# (its Japanese one): efuda writes dates one way in both languages, 2026-11-25 (and 2026-11-25
# 19:30), so a page never mixes two forms.
_LOCALISED_DATE = re.compile(
    r"\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.? \d{1,2}, \d{4}\b"
    r"|\b\d{1,2} (January|February|March|April|June|July|August|September|October|November"
    r"|December)\b|\b(January|February|March|April|June|July|August|September|October"
    r"|November|December),? \d{1,4}\b|\d{4}年\d{1,2}月(\d{1,2}日)?"
)


def test_the_date_check_catches_django_s_localised_dates():
    for text in ("Nov. 25, 2026", "Oct. 3, 2026, 7:30 p.m.", "November 25", "2026年11月25日"):
        assert _LOCALISED_DATE.search(text), text
    assert not _LOCALISED_DATE.search("2026-11-25 19:30 · Leaders in 2026-11 · May 3 players")


@pytest.mark.django_db
def test_every_page_writes_dates_in_iso_form_in_both_languages(client):
    owner = factories.UserFactory(username="dates-owner")
    club, players, nap, dai = build_club(deals=2, owner=owner, public=True)
    t = svc.tournament_create(
        club=club, name="Autumn cup", date=datetime.date(2026, 11, 21), ruleset=nap.ruleset,
        rounds_planned=2, is_public=True, seed=5, user=owner,
    )  # fmt: skip
    invitation_create(club=club, by=owner, role="member", max_uses=1, days=7)
    client.force_login(owner)
    slug = club.slug
    urls = [
        reverse("club_home", args=[slug]),
        reverse("session_list", args=[slug]),
        reverse("session_detail", args=[slug, nap.pk]),
        reverse("session_detail", args=[slug, dai.pk]),
        reverse("player_detail", args=[slug, players[0].pk]),
        reverse("standings_month", args=[slug, "napoleon", 2026, 10]),
        reverse("ratings", args=[slug, "napoleon"]),
        reverse("tournament_list", args=[slug]),
        reverse("tournament_detail", args=[t.pk]),
        reverse("tournament_manage", args=[t.pk]),
        reverse("club_invitations", args=[slug]),
        reverse("deal_history", args=[slug, nap.deals.first().pk]),
        reverse("my_clubs"),
    ]
    for url in urls:
        for lang in ("en", "ja"):
            page = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
            found = [m.group() for m in _LOCALISED_DATE.finditer(page)]
            assert found == [], (url, lang, found)
    listing = client.get(urls[1], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2026-10-03" in listing
    tournaments = client.get(urls[7], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2026-11-21" in tournaments
