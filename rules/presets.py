"""The five preset rule sets, written from their source documents as data.

Sources, by title (docs/rules.md "Sources" gives each one's short name used below):
- 『トランプゲームナポレオン秘話』: the originator's account;
- 「ナポレオン (Napoleone)」 on a wiki of trick-taking games: the wiki page;
- 「ナポレオン」: the club handout;
- 「大富豪・大貧民」: the Hyōsube rules;
- 「俺が今から、トランプ:大富豪の世界共通の基本ルールを決める。」: the common-rules post.

Every table below is copied from its document as printed there, so a club member can check it
against the document line by line; only the one cell efuda corrects differs (marked).
Building each ``RuleSet`` checks that its tables balance, so a wrong cell fails at import time.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from core.errors import EfudaError
from core.i18n import N_
from rules.ruleset import RuleSet
from rules.tables import flat_table, per_bid_table
from rules.titles import DAIFUGO_PLAYERS, DEFAULT_TITLE_POINTS

# Each preset's source document, by its title.
SOURCE_ORIGINATOR = "トランプゲームナポレオン秘話"
SOURCE_WIKI = "ナポレオン (Napoleone)"
SOURCE_JOKER = "ナポレオン"
SOURCE_HYOUSUBE = "大富豪・大貧民"
SOURCE_COMMON = "俺が今から、トランプ:大富豪の世界共通の基本ルールを決める。"

# The originator's account 【点数の付け方(5人)】: bid → (Napoleon, adjutant, each ally); solo bid →
# (Napoleon, each ally). Its solo cell at bid 11 reads 1; efuda scores 4 (= 4u, the only value
# that balances; docs/rules.md).
ORIGINATOR_5 = per_bid_table(
    normal={
        11: (2, 1, 1), 12: (4, 2, 2), 13: (6, 3, 3), 14: (8, 4, 4), 15: (10, 5, 5),
        16: (12, 6, 6), 17: (14, 7, 7), 18: (16, 8, 8), 19: (18, 9, 9), 20: (20, 10, 10),
    },
    solo={
        11: (4, 1),  # the document prints 1: corrected, see above
        12: (8, 2), 13: (12, 3), 14: (16, 4), 15: (20, 5),
        16: (24, 6), 17: (28, 7), 18: (32, 8), 19: (36, 9), 20: (40, 10),
    },
)  # fmt: skip

# The originator's account 【点数の付け方(4人)】: bids 13–20.
ORIGINATOR_4 = per_bid_table(
    normal={
        13: (3, 3, 3), 14: (4, 4, 4), 15: (5, 5, 5), 16: (6, 6, 6),
        17: (7, 7, 7), 18: (8, 8, 8), 19: (9, 9, 9), 20: (10, 10, 10),
    },
    solo={
        13: (9, 3), 14: (12, 4), 15: (15, 5), 16: (18, 6),
        17: (21, 7), 18: (24, 8), 19: (27, 9), 20: (30, 10),
    },
)  # fmt: skip

# The wiki page ★勝利ポイントの配分: Napoleon / adjutant / each other player; solo Napoleon / other.
WIKI_TABLES = {
    4: flat_table(1, 1, 1, 3, 1),
    5: flat_table(2, 1, 1, 4, 1),
    6: flat_table(2, 2, 1, 5, 1),
}

# The club handout ⑧得点計算: 5 players, Napoleon +2, adjutant +1, allies −1; solo +4 / −1.
JOKER_TABLES = {5: flat_table(2, 1, 1, 4, 1)}

_PRESET_LIST = (
    RuleSet(
        code="napoleon-originator",
        preset="napoleon-originator",
        game="napoleon",
        name_ja="ナポレオン(考案者ルール)",
        name_en=N_("Napoleon — originator's rules"),
        source=SOURCE_ORIGINATOR,
        players=(4, 5),
        jokers=0,
        widow={5: 2, 4: 4},  # 【人数とカード枚数】; +1 each with the joker
        bids={5: (11, 20), 4: (13, 20)},
        discard_policy="allies",  # 【捨てたカード】
        plan_b=True,  # 【作戦B】
        point_tables={5: ORIGINATOR_5, 4: ORIGINATOR_4},
    ),
    RuleSet(
        code="napoleon-wiki",
        preset="napoleon-wiki",
        game="napoleon",
        name_ja="ナポレオン(トリテwiki)",
        name_en=N_("Napoleon — trick-taking wiki rules"),
        source=SOURCE_WIKI,
        players=(4, 5, 6),
        jokers=0,
        widow={4: 4, 5: 2, 6: 4},  # ★準備
        bids={4: (10, 20), 5: (10, 20), 6: (10, 20)},  # ★ビッドの強さ
        discard_policy="nobody",  # *オプション* 1 (一般的)
        point_tables=WIKI_TABLES,
    ),
    RuleSet(
        code="napoleon-joker",
        preset="napoleon-joker",
        game="napoleon",
        name_ja="ナポレオン(ジョーカー入り)",
        name_en=N_("Napoleon — club rules with a joker"),
        source=SOURCE_JOKER,
        players=(5,),
        jokers=1,
        widow={5: 3},  # ① ディール
        bids={5: (10, 20)},  # ② ビット: 最低10枚から
        discard_policy="nobody",  # the handout does not say: nobody by default (efuda ruling)
        all20_loses=False,  # the "all 20 loses" option is off by default
        point_tables=JOKER_TABLES,
    ),
    RuleSet(
        code="daifugo-hyousube",
        preset="daifugo-hyousube",
        game="daifugo",
        name_ja="大富豪(ひょうすべルール)",
        name_en=N_("Daifugō — Hyōsube rules"),
        source=SOURCE_HYOUSUBE,
        players=DAIFUGO_PLAYERS,
        jokers=0,
        title_points=DEFAULT_TITLE_POINTS,
        miyako_ochi=True,
        forbidden_finish=False,  # the document calls that rule foolish and leaves it out
    ),
    RuleSet(
        code="daifugo-common",
        preset="daifugo-common",
        game="daifugo",
        name_ja="大富豪(一般ルール)",
        name_en=N_("Daifugō — common rules"),
        source=SOURCE_COMMON,
        players=DAIFUGO_PLAYERS,
        jokers=2,
        title_points=DEFAULT_TITLE_POINTS,
        miyako_ochi=True,
        forbidden_finish=True,  # 上がり禁止のカード
        diamond3_leads_first=True,  # ゲームの進み方 1
    ),
)

PRESETS: Mapping[str, RuleSet] = MappingProxyType({r.code: r for r in _PRESET_LIST})

# A table that does not balance must be refused (docs/rules.md). RuleSet checks itself when built;
# this says so once more where the presets are defined.
for _preset in PRESETS.values():
    _preset.check()


def get_preset(code: str) -> RuleSet:
    """The preset rule set named ``code``."""
    if not isinstance(code, str) or code not in PRESETS:
        raise EfudaError(
            "preset", "unknown_preset",
            N_("Unknown rule set “%(preset)s”; choose one of %(known)s."),
            {"preset": code if isinstance(code, str) else repr(code),
             "known": ", ".join(PRESETS)},
        )  # fmt: skip
    return PRESETS[code]
