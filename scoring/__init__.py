"""Pure scoring of one Napoleon deal or one Daifugō round (no Django, no database).

Vocabulary (the names used in code; docs/rules.md states every rule and names its source):

Napoleon (ナポレオン): 『トランプゲームナポレオン秘話』 (the originator's account),
「ナポレオン (Napoleone)」 (the wiki page) and 「ナポレオン」 (the club handout)
    Napoleon
        The player who won the auction: bids a count of honours and a trump suit.
    bid (立候補)
        A count of honours (10 to 20) plus a trump suit; higher count wins, then ♠ > ♥ > ♦ > ♣.
    trump (切り札)
        The suit named in the final bid.
    adjutant (副官)
        The holder of the card the Napoleon calls; plays on Napoleon's side, secretly.
    allies (連合軍)
        Everyone else; each of them is an "ally" in a result's roles.
    honours (絵札)
        A K Q J 10 of each suit, 20 in all. The Napoleon army (Napoleon + adjutant) counts
        the honours it won in tricks, plus discarded honours where the rules give them to it.
    widow / discards (伏せ札 / 捨て札)
        Cards left face down; the Napoleon exchanges with them and discards as many.
    solo (独り立ち)
        No adjutant: the called card was in the widow or in Napoleon's own hand.
    作戦B (Plan B)
        The originator's account: if the army takes all 20 honours on a bid below 20, the
        allies win.
    all 20 loses
        The club handout's option: taking all 20 loses unless the bid was 20, and doubles
        the points.
    redeal (流れ)
        Nobody bid: the deal is recorded and scores nothing.

Daifugō (大富豪): 「大富豪・大貧民」 (the Hyōsube rules) and
「俺が今から、トランプ:大富豪の世界共通の基本ルールを決める。」 (the common-rules post)
    大富豪 daifugo, 富豪 fugo, 平民 heimin, 貧民 hinmin, 大貧民 daihinmin
        Titles by finishing position (first out is 大富豪, the last one left is 大貧民).
    都落ち (miyako-ochi)
        The previous round's 大富豪 who does not finish first falls to 大貧民.
    forbidden finish (上がり禁止)
        The common-rules post: going out on a joker or a 2 (a 3 during a revolution) places
        you last.

Entry points: ``scoring.napoleon.score_napoleon`` and ``scoring.daifugo.score_daifugo``;
cards in ``scoring.cards``; the one user-facing error is ``core.errors.EfudaError``.
"""
