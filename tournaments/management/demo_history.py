"""Years of a big club's history for ``manage.py demo_data --deals N``.

N deals on weekly club evenings up to yesterday, several tables a night, written through the
results import (``services.imports.results_import``), the path a club's ten years of
spreadsheets take: every deal is scored by the scoring core and stored with its score lines,
history row and standings totals exactly as the import stores them, at the import's speed
(about 2,000 deals a second) rather than ``deal_record``'s (a few dozen).
"""

from __future__ import annotations

import datetime
import math
import random

from rules import RuleSet
from scoring.cards import SUITS
from tournaments.models import Club, Game
from tournaments.results_format import DAIFUGO_COLUMNS, NAME_SEPARATOR, NAPOLEON_COLUMNS
from tournaments.selectors.rulesets import ruleset_rules
from tournaments.services.imports import results_import
from tournaments.services.players import player_get_or_create
from tournaments.services.ratings import ratings_replay

SURNAMES = tuple(
    "佐藤 鈴木 高橋 田中 伊藤 渡辺 山本 中村 小林 加藤 吉田 山田 松本 井上 木村 "
    "斎藤 清水 森 池田 橋本".split()
)
GIVEN = tuple("翔 陽菜 蓮 結衣 大翔 葵 悠真 凛 湊 結菜 樹 咲良 颯 美月 陸 花 蒼 芽依 律 楓".split())
NIGHTS_MAX = 520  # ten years of weekly evenings; a bigger club plays at more tables a night
DEALS_PER_NIGHT = 60  # a small club's evening; fewer deals make fewer evenings
NAPOLEON_SHARE = 0.6


def roster_size(deals: int) -> int:
    """About one member per 400 deals of history: ten for a small club, 400 at most."""
    return max(10, min(len(SURNAMES) * len(GIVEN), deals // 400))


def member_names(count: int, first: tuple[str, ...]) -> list[str]:
    names = list(first[:count])
    for surname in SURNAMES:
        for given in GIVEN:
            if len(names) >= count:
                return names
            names.append(surname + given)
    return names


def napoleon_deal(rng: random.Random, seats: list, rules: RuleSet) -> dict:
    """One plausible Napoleon deal over ``seats``: bids mostly near the minimum, about half of
    them made, the odd solo and redeal."""
    if rng.random() < 0.06:
        return {"seats": seats, "napoleon": None, "redeal": True}
    low, high = rules.bids[len(seats)]
    bid = min(high, low + rng.choices(range(6), weights=(30, 26, 18, 12, 8, 6))[0])
    napoleon = rng.choice(seats)
    trump = rng.choice(SUITS)
    called = rng.choices(["SA", f"{trump}J", f"{trump}A", f"{trump}K"], weights=(6, 2, 2, 1))[0]
    solo = rng.random() < 0.1
    adjutant = None if solo else rng.choice([s for s in seats if s != napoleon])
    widow = rules.widow[len(seats)]
    discarded = rng.choices(range(widow + 1), weights=[5] + [2] * widow)[0]
    honours = max(0, min(20 - discarded, bid + rng.randint(-4, 3)))
    data = {"seats": seats, "napoleon": napoleon, "bid": bid, "trump": trump,
            "called": called, "adjutant": adjutant, "solo": solo, "honours": honours,
            "discarded": discarded, "redeal": False}  # fmt: skip
    if rules.discard_policy == "last_trick":
        data["last_trick"] = rng.choice(("napoleon", "allies"))
    return data


def daifugo_round(rng: random.Random, seats: list, previous_top=None, forbidden_finish=True,
                  ) -> dict:  # fmt: skip
    """One Daifugō round: the last round's 大富豪 often first again, the odd forbidden finish."""
    order = rng.sample(seats, len(seats))
    if previous_top is not None and rng.random() < 0.4:  # the 大富豪's cards are better
        order.remove(previous_top)
        order.insert(0, previous_top)
    forbidden = [rng.choice(order[:-1])] if rng.random() < 0.08 and forbidden_finish else []
    return {"players": list(seats), "order": order, "forbidden": forbidden}


def _napoleon_cells(day: str, table: str, code: str, data: dict) -> list[str]:
    cells = [day, table, code, NAME_SEPARATOR.join(data["seats"])]
    if data["redeal"]:
        return [*cells, "", "", "", "", "", "", "", ""]
    adjutant = data["napoleon"] if data["solo"] else data["adjutant"]  # the file's 独り立ち
    return [*cells, data["napoleon"], str(data["bid"]), data["trump"], data["called"], adjutant,
            str(data["honours"]), str(data["discarded"]), data.get("last_trick") or ""]  # fmt: skip


def _nights(deals: int, today: datetime.date) -> list[tuple[datetime.date, int]]:
    """(evening, deals that evening), weekly up to yesterday, oldest first, adding up to N."""
    count = max(1, min(NIGHTS_MAX, math.ceil(deals / DEALS_PER_NIGHT)))
    last = today - datetime.timedelta(days=1)
    days = [last - datetime.timedelta(weeks=w) for w in range(count)][::-1]
    return [(day, deals // count + (1 if i < deals % count else 0)) for i, day in enumerate(days)]


def history_rows(*, deals: int, today: datetime.date, rng: random.Random, names: list[str],
                 napoleon: dict[str, RuleSet], daifugo: tuple[str, RuleSet],
                 ) -> tuple[list, list]:  # fmt: skip
    """The Napoleon and the Daifugō results files (header first) of ``deals`` deals in all.
    ``napoleon`` maps the club's Napoleon rule set codes to their rules (the first is the
    usual one, the others are played at one table every other evening); ``daifugo`` is the
    Daifugō rule set's code and rules."""
    nap_rows = [[*NAPOLEON_COLUMNS, "last_trick"]]
    dai_rows = [list(DAIFUGO_COLUMNS)]
    codes = list(napoleon)
    for night, (day, quota) in enumerate(_nights(deals, today)):
        label = day.isoformat()
        tables = 0
        while quota > 0:
            count = min(quota, rng.randint(6, 16))
            quota -= count
            tables += 1
            if rng.random() < NAPOLEON_SHARE:
                code = codes[1] if len(codes) > 1 and tables == 2 and night % 2 else codes[0]
                sizes = [n for n in (5, 5, 5, 4, 6) if n in napoleon[code].bids]
                seats = rng.sample(names, rng.choice(sizes))
                for _ in range(count):
                    data = napoleon_deal(rng, seats, napoleon[code])
                    nap_rows.append(_napoleon_cells(label, f"T{tables}", code, data))
            else:
                sizes = [n for n in (4, 5, 6) if n in daifugo[1].players]
                seats = rng.sample(names, rng.choice(sizes))
                top = None
                for _ in range(count):
                    data = daifugo_round(rng, seats, top, daifugo[1].forbidden_finish)
                    top = data["order"][0]
                    dai_rows.append([label, f"T{tables}", daifugo[0],
                                     NAME_SEPARATOR.join(data["order"]),
                                     NAME_SEPARATOR.join(data["forbidden"])])  # fmt: skip
    return nap_rows, dai_rows


def history_import(*, club: Club, deals: int, today: datetime.date, rng: random.Random,
                   first_names: tuple[str, ...], user=None) -> int:  # fmt: skip
    """Import ``deals`` deals of history into ``club`` (its rule sets made already); returns
    the number of deals written."""
    names = member_names(roster_size(deals), first_names)
    for name in names:
        player_get_or_create(club=club, name=name)
    rulesets = {r.code: ruleset_rules(r) for r in club.rulesets.order_by("id")}
    napoleon = {code: r for code, r in rulesets.items() if r.game == Game.NAPOLEON}
    daifugo = next((code, r) for code, r in rulesets.items() if r.game == Game.DAIFUGO)
    nap_rows, dai_rows = history_rows(deals=deals, today=today, rng=rng, names=names,
                                      napoleon=napoleon, daifugo=daifugo)  # fmt: skip
    written = 0
    for rows in (nap_rows, dai_rows):
        if len(rows) > 1:
            written += results_import(club=club, rows=rows, user=user).deals
    # The club is whole when the command ends, ratings included: the imports queued their
    # replay for the task worker, which may not run yet (a backup taken now, a bench); a
    # worker that runs it later writes the same ratings again.
    for game in (Game.NAPOLEON, Game.DAIFUGO):
        ratings_replay(club_id=club.pk, game=game)
    return written
