"""At 360×640 with touch, a non-technical organiser runs a club from a new account, following
links only (the one address typed is the site's; the other opened is the confirmation link in
the mail): sign up, create the club and a house rule set, invite a scorekeeper and a member,
import a LibreOffice .ods and an Excel .xlsx with days written 2026/11/20, take every deal out,
import it into a second club and compare, print the blank sheet. Every tap is counted; the
counts are the ones in docs/accounts.md and docs/import-format.md."""

import datetime
import io
import re

import openpyxl
import pytest
from django.core import mail
from pypdf import PdfReader

from tests.exports.test_results_export import snapshot
from tests.imports.helpers import ods_bytes
from tournaments.models import Club, ClubRuleSet, Deal, GameSession, Invitation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAPOLEON_HEADER = ["date", "table", "rules", "players", "napoleon", "bid", "trump", "called",
                   "adjutant", "honours", "discarded"]  # fmt: skip
NAPOLEON_ROWS = [  # a date cell, then days typed as LibreOffice shows them
    [datetime.date(2026, 11, 20), "A", "napoleon-wiki-house", "太郎;花子;Ken;ゆき;Sam", "太郎",
     13, "S", "SA", "花子", 14, 1],
    ["2026/11/20", "A", "napoleon-wiki-house", "太郎;花子;Ken;ゆき;Sam", "Ken", 12, "H", "HJ",
     "ゆき", 10, 2],
    ["2026/11/20", "A", "napoleon-wiki-house", "太郎;花子;Ken;ゆき;Sam", None, None, None, None,
     None, None, None],
    ["2026/11/27", "B", "napoleon-wiki-house", "太郎;花子;Ken;ゆき;Sam", "Sam", 14, "D", "DA",
     "Sam", 15, 0],
]  # fmt: skip
DAIFUGO_ROWS = [
    ["date", "table", "rules", "order", "forbidden"],
    ["2026/11/20", "大富豪卓", "daifugo-common", "太郎;花子;Ken;ゆき;Sam", None],
    ["2026/11/20", "大富豪卓", "daifugo-common", "Ken;太郎;Sam;花子;ゆき", None],
    ["2026/11/21", "大富豪卓", "daifugo-common", "Sam;Ken;花子;ゆき;太郎", "Sam"],
]


class Organiser:
    """The phone, counting taps: a click or the tap that focuses a field before typing."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.steps: dict[str, int] = {}

    def tap(self, selector: str):
        self.taps += 1
        self.page.locator(selector).first.tap()

    def go(self, selector: str):
        """Tap a link and wait for its page."""
        self.taps += 1
        with self.page.expect_navigation():
            self.page.locator(selector).first.tap()

    def type(self, selector: str, text: str):
        self.taps += 1
        self.page.locator(selector).first.fill(text)

    def choose(self, selector: str, value: str):
        self.taps += 2  # open the list, pick
        self.page.locator(selector).first.select_option(value)

    def upload(self, selector: str, name: str, body: bytes, mime: str):
        self.taps += 2  # open the file picker, pick the file
        self.page.locator(selector).set_input_files({"name": name, "mimeType": mime,
                                                     "buffer": body})  # fmt: skip

    def step(self, name: str):
        self.steps[name] = self.taps - sum(self.steps.values())

    def fits(self) -> bool:
        return self.page.evaluate("document.documentElement.scrollWidth") <= 360


def _xlsx(rows) -> bytes:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_an_organiser_runs_a_club_from_a_new_account(live_server, browser, settings, tmp_path):
    settings.SITE_URL = live_server.url
    context = browser.new_context(viewport={"width": 360, "height": 640}, locale="ja-JP",
                                  device_scale_factor=1, has_touch=True)  # fmt: skip
    page = context.new_page()
    page.set_default_timeout(20000)
    me = Organiser(page)

    # A new account: sign up, confirm from the mail, land where a club can be created.
    page.goto(live_server.url + "/")
    me.go("header a[href*='/accounts/signup/']")
    me.type("input[name=email]", "kana@example.org")
    me.type("input[name=username]", "kana")
    me.type("input[name=password1]", "kana-pass-2026")
    me.type("input[name=password2]", "kana-pass-2026")
    me.tap("main button[type=submit]")
    page.wait_for_url("**/accounts/confirm-email/")
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+", mail.outbox[-1].body).group(0)
    me.taps += 1  # the link in the mail
    page.goto(link)
    me.tap("main button[type=submit]")
    page.wait_for_selector("#start")
    assert "efudaへようこそ" in page.locator("main").inner_text() and me.fits()
    me.step("sign up")

    # Create the club.
    me.go("#start a[href='/clubs/new/']")
    me.type("input[name=name]", "金曜ナポレオン会")
    me.type("input[name=slug]", "kinyou")
    me.tap("main button[type=submit]")
    page.wait_for_url("**/c/kinyou/manage/")
    assert me.fits()
    me.step("create the club")

    # A house rule set: named by its name, preset and options in the same form.
    me.go("a[href='/c/kinyou/manage/rulesets/new/']")
    me.type("input[name=name]", "ハウスルール")
    me.tap("label.preset-choice:has(input[value='napoleon-wiki'])")
    me.type("input[name='options.min_bid']", "12")
    me.choose("select[name='options.discard_policy']", "napoleon")
    assert me.fits()
    me.tap("button[name=action][value=save]")
    page.wait_for_selector(".messages")
    house = ClubRuleSet.objects.get(club__slug="kinyou")
    assert (house.name, house.code) == ("ハウスルール", "napoleon-wiki-house")
    assert house.options == {"min_bid": 12, "discard_policy": "napoleon"}
    me.step("house rule set")

    # Invite a scorekeeper, then a member.
    me.go(".manage-nav a[href='/c/kinyou/manage/invitations/']")
    me.choose("select[name=role]", "scorekeeper")
    me.tap("#new-invitation button[type=submit]")
    page.wait_for_selector(".invitation-open .qr svg")
    me.step("invite a scorekeeper")
    me.choose("select[name=role]", "member")
    me.tap("#new-invitation button[type=submit]")
    page.wait_for_selector(".messages")
    assert sorted(Invitation.objects.values_list("role", flat=True)) == ["member", "scorekeeper"]
    assert me.fits()
    me.step("invite a member")

    # Import a LibreOffice .ods (Napoleon) and an Excel .xlsx (Daifugō) from the club's tools.
    me.go("main .crumbs a[href='/c/kinyou/']")
    me.go("#tools a[href='/c/kinyou/manage/import/']")
    me.upload("input[name=file]", "金曜.ods", ods_bytes([NAPOLEON_HEADER, *NAPOLEON_ROWS]),
              "application/vnd.oasis.opendocument.spreadsheet")  # fmt: skip
    me.tap("main form button[type=submit]")
    page.wait_for_selector("#import-job .msg-success, .import-problems, .messages")
    assert "取り込みました" in page.locator("main").inner_text(), page.locator("main").inner_text()
    me.step("import an .ods")
    me.go("a[href='/c/kinyou/manage/import/']")
    me.upload("input[name=file]", "大富豪.xlsx", _xlsx(DAIFUGO_ROWS),
              "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")  # fmt: skip
    me.tap("main form button[type=submit]")
    page.wait_for_selector("#import-job .msg-success, .import-problems, .messages")
    assert "大富豪3回戦" in page.locator("main").inner_text()
    club = Club.objects.get(slug="kinyou")
    assert Deal.objects.filter(club=club).count() == 7 and me.fits()
    me.step("import an .xlsx")

    # Take every deal out: Napoleon as CSV, Daifugō as a workbook.
    files = {}
    me.go("main .crumbs a[href='/c/kinyou/']")
    me.go("#tools a[href='/c/kinyou/export/']")
    assert me.fits()
    for game, fmt in (("napoleon", "csv"), ("daifugo", "xlsx")):
        me.tap(f"input[name=game][value={game}]")
        me.tap(f"input[name=format][value={fmt}]")
        with page.expect_download() as download:
            me.tap("main form button[type=submit]")
        files[game] = tmp_path / download.value.suggested_filename
        download.value.save_as(files[game])
    assert files["napoleon"].name == "kinyou-napoleon-all.csv"
    me.step("export everything")

    # A second club, from the front page; import both files there.
    me.go("header a.brand")
    me.go("#start a[href='/clubs/new/']")
    me.type("input[name=name]", "写しの会")
    me.type("input[name=slug]", "copy")
    me.tap("main button[type=submit]")
    page.wait_for_url("**/c/copy/manage/")
    for game, mime in (
        ("napoleon", "text/csv"),
        ("daifugo", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    ):
        me.go(".manage-nav a[href='/c/copy/manage/import/']")
        me.upload("input[name=file]", files[game].name, files[game].read_bytes(), mime)
        me.tap("main form button[type=submit]")
        page.wait_for_selector("#import-job .msg-success, .import-problems, .messages")
        assert "取り込みました" in page.locator("body").inner_text()
        if game == "napoleon":
            me.go("main .crumbs a[href='/c/copy/manage/']")
    me.step("import into a second club")
    before, after = snapshot(club), snapshot(Club.objects.get(slug="copy"))
    assert before["ratings"] and len(before["sessions"]) == 4  # 2 Napoleon, 2 Daifugō
    for key in before:
        assert after[key] == before[key], key
    assert GameSession.objects.filter(club__slug="copy", ruleset__name="ハウスルール").count() == 2

    # Print the blank sheet for the house rules.
    me.go("main .crumbs a[href='/c/copy/']")
    me.go("#tools a[href='/c/copy/blank-sheet/']")
    me.choose("select[name=rules]", "napoleon-wiki-house")
    me.type("input[name=players]", "5")
    with page.expect_response(lambda r: "/blank-sheet/?" in r.url) as answer:
        me.tap("main form button[type=submit]")
    assert answer.value.headers["content-type"] == "application/pdf"
    # The phone shows the PDF; its bytes are read again from the same address to check them.
    pdf = io.BytesIO(page.request.get(answer.value.url).body())
    text = "".join(p.extract_text() for p in PdfReader(pdf).pages)
    assert "ハウスルール" in text and "-1" in re.sub(r"\s", "", text)
    me.step("print the blank sheet")

    print("taps per step:", me.steps, "total", me.taps)
    assert me.steps["create the club"] <= 5 and me.steps["invite a scorekeeper"] <= 4
    context.close()
