"""Aquatica's interpretation points: where the seed allows more than one reading,
each option with its source, the default with its reason, and the rulesets. A part
of spec.py; every point has its scenarios in scenarios/reading_<point>.toml.
"""

from rulespec.spec import option

from .spec import (COMPONENTS, PRINTINGS, book, game)

# =====================================================================================
# Interpretation points: where the text allows more than one reading
# =====================================================================================
order = game.interpretation(
    "order", question="Are a card's effects carried out in printed order, or in any order?",
    options={"printed": option(f"{COMPONENTS} §Turn (BGA English help; utility): 'resolve its "
                               "effects in printed order as fully as possible'",
                               english="Resolve the card's effects in printed order, as fully "
                                       "as possible."),
             "any": option(book.at("5", "これらのアクションは、好きな順番で行うことができます"),
                           english="These actions may be taken in any order you like.")},
    default="printed", source=book.at("7", "そのカードに示された効果を実行しなければなりません"),
    english="On your turn you must play one character card from your hand and carry out the "
            "effects shown on it.",
    default_reason="the seed says nothing about the order of a card's effects (its 'any "
                   "order' is about the main and extra actions); the English help and the "
                   "rulebook-citing utility say printed order")
partial = game.interpretation(
    "partial", question="When not every effect of the card can be carried out, must each "
    "possible one still be done, or may the player stop once one has failed?",
    options={"every_possible": option(
                 f"{book.at('8', 'すべて実行できる場合は、すべて実行しなければなりません')}; {COMPONENTS} "
                 "§Turn ('as fully as possible')",
                 english="If all the effects can be carried out, all must be; the card is "
                         "played 'as fully as possible'."),
             "any_once_one_fails": option(
                 book.at("8", "実行できる効果だけを使うことができます"),
                 english="Even if not all effects can be carried out, you may play the card "
                         "and use just the effects that can be."),
             "most_effects": option(
                 book.at("8", "カードの効果をすべて実行できる場合は、すべて実行しなければなりません"),
                 english="(Reading 'if all the effects can be carried out, all must be' as "
                         "a duty on the choices too: a recruit or a buy that spends the "
                         "coins the other needs is refused when some choice pays for both.)")},
    default="every_possible", source=book.at("8"),
    english="If all of the card's effects can be carried out, all must be. If not all can, "
            "you may still play the card and use only those that can be carried out.",
    default_reason="'as fully as possible' (the English help) reads L8 as a duty to do each "
                   "effect that can be done; 'may use' (できます) also reads as a permission; "
                   "L8's 'if all can be done' may also bind the choice of targets "
                   "(most_effects), which the English help does not say")
depth_reuse = game.interpretation(
    "depth_reuse", question="May one location's depths be used several times in one turn "
    "(use, slide up, use the next)?",
    options={"repeat": option(book.at("20", "現在の一番上の深さを探索することができ、深さを上にスライドさせて、"
                                        "次の深さを利用できるようにします"),
                              english="You may use the location's current top depth and slide "
                                      "it up, making the next depth available."),
             "once_per_turn": option(f"{COMPONENTS} §Turn (utility): 'max one resource depth "
                                     "per Location per Main Action'",
                                     english="At most one depth of each location per turn.")},
    default="repeat", source=book.at("14-20"),
    english="Each location shows depths on its left side; you may use the current top one "
            "and slide the card up so that the next becomes available.",
    default_reason="the seed sets no limit; the one-per-location limit is the community "
                   "utility's (it speaks of resource depths in the main action)")
empty_depth = game.interpretation(
    "empty_depth", question="May an empty depth be 'used' just to slide past it?",
    options={"blocks": option(book.at("21", "空の深さは使用できません…これらの場所を使用するためには、「上昇」効果を使わなければなりません"),
                              english="Empty depths cannot be used; to use such a location "
                                      "again you must use a Raise effect."),
             "slide_past": option(book.at("21", "空の深さを上にスライドさせると"),
                                  english="(Reading 'sliding an empty depth up' as something "
                                          "a player may do, gaining nothing.)")},
    default="blocks", source=book.at("21"),
    english="Some depths are empty: an empty depth cannot be used. Sliding up onto an empty "
            "depth blocks progress; to use such a location you must use the Raise effect.",
    default_reason="L21 says plainly that an empty depth cannot be used and that Raise is "
                   "the way past it")
resource_span = game.interpretation(
    "resource_span", question="Do unspent coins and power vanish when the main action ends, "
    "or at the end of the turn?",
    options={"main_action": option(book.at("17", "資源はメインアクション（キャラクターカードを使うとき）でのみ得ることができ"),
                                   english="Resources can be gained only during the main "
                                           "action (when the character card is used)."),
             "turn": option(book.at("75", "そのターンで使用できる2コインを得ます"),
                            english="Gain 2 coins, usable this turn.")},
    default="main_action", source=book.at("17, 75"),
    english="Resources are gained only in the main action and pay for recruiting, buying, "
            "conquering and effects; the coin icon gives 2 coins 'usable this turn'.",
    default_reason="L17 ties resources to the main action; L75's 'this turn' is the icon "
                   "list's shorthand and may mean the same")
goal_claim = game.interpretation(
    "goal_claim", question="May a goal whose condition was met earlier (on one of your "
    "turns) be claimed later, when it is no longer met?",
    options={"while_met": option(book.at("51", "プレイヤーが自分のターンに目標の条件を満たすと"),
                                 english="When a player meets a goal's condition on their "
                                         "turn, they may place a manta."),
             "once_met": option(book.at("51", "置くことができます"),
                                english="(Reading 'may place' as a right that stays once the "
                                        "condition has been met on your turn.)")},
    default="while_met", source=book.at("51"),
    english="When, on your turn, you meet a goal's condition, you may place your own manta "
            "(ready or tired) on that goal's best free spot.",
    default_reason="L51 ties the claim to meeting the condition; keeping an old right open "
                   "needs a memory the board does not show")
reserve_point = game.interpretation(
    "reserve", question="What counts as 'mantas in reserve' for the first tie-break?",
    options={"off_goals": option(book.at("70", "リザーブにあるマンタの数が多い方が勝ち"),
                                 english="The player with more mantas in reserve wins."),
             "ready_only": option(book.at("70", "リザーブ"),
                                  english="(Reading 'reserve' as the mantas still ready to "
                                          "use.)"),
             "trained_only": option(book.at("51", "自分のマンタ（自分の色のもの）"),
                                    english="(Reading 'reserve' as your own-colour mantas not "
                                            "placed on goals.)")},
    default="off_goals", source=book.at("70"),
    english="On a tie, the player with more mantas in reserve wins.",
    default_reason="every manta a player has that is not on a goal track, ready or tired, "
                   "trained or wild: the widest reading of 'reserve'")
deck_out = game.interpretation(
    "deck_exhausted", question="When does a deck count as exhausted: when its last card is "
    "drawn, or when a card must be drawn and none is left?",
    options={"last_card_drawn": option(f"{COMPONENTS} §End of game (FAQ): the Ocean Character "
                                       "deck runs out 'when its last card fills the row'",
                                       english="The deck runs out when its last card fills "
                                               "the row."),
             "draw_fails": option(book.at("60-61", "場所の山札が尽きた…キャラクターの山札が尽きた"),
                                  english="(Reading 'the deck ran out' as: a card had to be "
                                          "drawn and none was left.)")},
    default="last_card_drawn", source=book.at("58-61"),
    english="The end conditions: a player has reached all four goals; the location deck ran "
            "out; the character deck ran out.",
    default_reason="the community FAQ says the character deck runs out when its last card "
                   "fills the row; the location deck is read the same way")
kings = game.interpretation(
    "kings", question="Are the King cards used in the basic game?",
    options={"dealt": option(f"{COMPONENTS} §Setup (ultraboardgames; themeeplegamer.nl): 'King "
                             "1 to first player, King 2 to 2nd, ...; King card goes into "
                             f"starting hand'; {book.at('65, 71')}",
                             english="The first player gets King 1, the second King 2, and "
                                     "so on, into their starting hands."),
             "none": option(book.at("72", "王を使用しない基本設定のゲームの場合は、手番順が最後のプレイヤーの勝利"),
                            english="In the basic-setting game without Kings, the last player "
                                    "in turn order wins.")},
    default="dealt", source=book.at("65, 71-72"),
    english="Score 1 per card in hand, Kings included. Tied: most mantas in reserve, then "
            "the lower number on the King card; in the basic setting without Kings, the last "
            "player in turn order wins.",
    default_reason="L65 and L71 treat the Kings as part of the game and the rulebook deals "
                   "them in the basic setup; L72 describes a basic setting without them")
scout_keep = game.interpretation(
    "scout_keep", question="When scouting, may fewer locations be kept than fit in the upper "
    "row?",
    options={"up_to_four": option(book.at("47", "現在の場にある場所を4枚まで保持して"),
                                  english="Keep up to 4 of the current locations."),
             "all_that_fit": option(f"{COMPONENTS} §Turn; BGA English help: 'if there are "
                                    "more Locations than spaces, the player ... gets to choose "
                                    "which Locations to discard'",
                                    english="The row moves up; only when more locations than "
                                            "spaces are there does the player choose which to "
                                            "discard.")},
    default="up_to_four", source=book.at("47"),
    english="When you scout, keep up to 4 of the current locations, move them to the upper "
            "row, and refill 6 locations from the deck.",
    default_reason="the seed says 'up to 4' (4枚まで)")

discard_timing = game.interpretation(
    "discard_timing", question="Does the played card go to the discard pile as soon as it is "
    "played, or only once its effects are carried out?",
    options={"before_effects": option(
                 f"{book.at('9', 'キャラクターカードをプレイした後、そのカードは自分の捨て札の山に表向きで置きます')}; "
                 f"{COMPONENTS} §Turn (utility): 'play exactly 1 Character card ...; card goes "
                 "to your personal discard pile'",
                 english="After playing a character card, place it face up on your discard "
                         "pile (playing it is putting it down)."),
             "after_effects": option(
                 book.at("9", "プレイした後"),
                 english="(Reading 'after playing' as after the card's effects are carried "
                         "out: the card is not in the discard pile while they are, so a "
                         "take-back cannot take it back.)")},
    default="before_effects", source=book.at("7-9"),
    english="Play one character card from your hand and carry out its effects; after playing "
            "it, place it face up on your own discard pile.",
    default_reason="'after playing' (プレイした後) most plainly means once the card is put "
                   "down, and the utility lists the discard with the play; the other reading "
                   "changes what a take-back may take (King 1 and the Healer could not take "
                   "themselves back, so the Healer's free raise would not come every turn)")
matrona = game.interpretation(
    "matrona_returns", question="Does Matrona bring every discarded character back to the "
    "hand, or one of them?",
    options={"all": option(f"{PRINTINGS} CONFLICT: the community utility (citing the "
                           "rulebook p.7, p.10, p.31); rainbowresource.com; "
                           f"{COMPONENTS} §Turn: 'Matrona, which is never discarded: playing "
                           "her returns ALL discarded Characters to hand and readies all your "
                           "Mantas'",
                           english="Matrona is never discarded: playing her returns all "
                                   "discarded characters to hand and readies all your mantas."),
             "one": option(f"{PRINTINGS} (spielkultisten.de review): 'Matrone: take a card "
                           "back from the discard pile and ready all used Mantas'",
                           english="Matrona: take a card back from the discard pile and "
                                   "ready all used mantas.")},
    default="all", source=PRINTINGS,
    english="The seed does not describe Matrona; the sources on her differ.",
    default_reason="the utility cites the rulebook's pages for 'all' and a shop text agrees; "
                   "the review stands alone. Under 'all' Matrona goes to the discard pile as "
                   "every played card (L9) and comes back with the rest, so she never leaves "
                   "the hand (the utility: 'never discarded'); under 'one' she is discarded "
                   "like any card and a player can run out of cards to play, which no source "
                   "describes")

scout_optional = game.interpretation(
    "scout_optional", question="Must a scout shown on a card (or a depth, or a manta) be "
    "carried out, or may the player leave it?",
    options={"forced": option(f"{book.at('7', 'そのカードに示された効果を実行しなければなりません')}; "
                              f"{book.at('8', 'すべて実行しなければなりません')}",
                              english="You must carry out the effects shown on the card; if "
                                      "all can be carried out, all must be."),
             "optional": option(f"{book.at('47', 'スカウトを実施する場合')}; {COMPONENTS} §Turn "
                                "(BGA English help): 'Scout is optional in the updated rules'",
                                english="If you scout, ... (the English help: scouting is "
                                        "optional).")},
    default="forced", source=book.at("7-8, 45-47"),
    english="The card's effects must be carried out, all of them when all can be; when you "
            "scout, keep up to 4 locations and refill 6.",
    default_reason="L7-8 make every effect shown on the card a duty and name no exception; "
                   "'when scouting' (スカウトを実施する場合) describes how, not whether, and the "
                   "English help's 'optional' is the updated rules, which the seed does not "
                   "mention")
scout_rows = game.interpretation(
    "scout_rows", question="When scouting, which locations may be kept: those of the lower row "
    "only (the upper row is discarded), or those of both rows?",
    options={"lower_row": option(f"{COMPONENTS} §Turn (utility): 'Scout (discard top Location "
                                 "row, keep at most 4 of the bottom row and slide them up, "
                                 "refill bottom row to 6)'",
                                 english="Discard the top location row, keep at most 4 of the "
                                         "bottom row and slide them up, refill the bottom row."),
             "both_rows": option(book.at("47", "現在の場にある場所を4枚まで保持して上段のエリアに移動させ"),
                                 english="Keep up to 4 of the locations now on the table "
                                         "(either row) in the upper area.")},
    default="lower_row", source=book.at("47"),
    english="When you scout, keep up to 4 of the current locations, move them to the upper "
            "area, and refill 6 locations from the deck.",
    default_reason="the rulebook-citing utility discards the upper row; 'the current field' "
                   "(現在の場) may also mean both rows, and 'move to the upper area' fits "
                   "the lower row's cards best")

can_be_done = game.interpretation(
    "can_be_carried_out", question="When L8 asks whether an effect 'can be carried out', do the "
    "coins and power that ready mantas and location depths could still add count, or only "
    "those already gained?",
    options={"at_hand": option(book.at("8", "カードの効果をすべて実行できる場合は"),
                               english="If all the card's effects can be carried out (with "
                                       "what the player has gained so far), ..."),
             "with_extras": option(f"{book.at('5', 'さらに無制限に追加アクションを行うことができます')}; "
                                   f"{book.at('8', 'すべて実行できる場合は、すべて実行しなければなりません')}",
                                   english="(Reading 'can be carried out' as: could be, with "
                                           "the extra actions the player may still take -- a "
                                           "ready manta's or a depth's coins and power -- so "
                                           "the player must take them to pay.)")},
    default="at_hand", source=book.at("8"),
    english="If all of the card's effects can be carried out, all must be.",
    default_reason="the extra actions are the player's to take or not (L5 'can', できます); "
                   "reading L8 as forcing them would make a manta's use a duty whenever a "
                   "card's price is in reach, which no source says. Counted under "
                   "with_extras: each ready manta's coins or power and the top depth of each "
                   "location (not the depths beneath it)")

extra_timing = game.interpretation(
    "extra_timing", question="May an extra action whose icon is an effect (not coins or "
    "power) be taken in the middle of the main action, between the card's effects?",
    options={"around_main": option(book.at("19", "効果は、メインアクションの前後に実行することができます"),
                                   english="Effects can be carried out before or after the "
                                           "main action."),
             "any_time": option(book.at("5", "これらのアクションは、好きな順番で行うことができます"),
                                english="These actions may be taken in any order you like "
                                        "(an extra action between the card's effects too; "
                                        "its effect is carried out at once).")},
    default="around_main", source=book.at("5, 19"),
    english="One main action and any number of extra actions, in any order; a depth's "
            "effects can be carried out before or after the main action.",
    default_reason="L19 says before or after the main action, and L17 keeps the resources "
                   "for during it: the two kinds of icon have their own times. L5's 'any "
                   "order' orders whole actions and does not open the main action up")
score_timing = game.interpretation(
    "score_timing", question="Is scoring a location an effect that needs a score icon, or may "
    "a fully raised location be scored whenever the turn is free?",
    options={"effect": option(f"{book.at('22-26', '効果は、以下のいずれかの方法で発動できます')}; "
                              f"{book.at('43-44', '得点化')}; {COMPONENTS} §Turn ('Effects: ... "
                              "Score (move a fully risen Location to secret scoring pile)')",
                              english="Scoring is one of the effects, which come from a card, "
                                      "a ready manta or a location depth."),
             "at_will": option(book.at("44", "最後まで完全に上昇している場所があれば、そのカードを得点化し、"
                                         "繁栄点を得ることができます"),
                               english="If a location is fully raised, you may score it and "
                                       "gain its prosperity points.")},
    default="effect", source=book.at("22-26, 43-44"),
    english="Effects come from a character card, a ready manta or a location depth; "
            "scoring: a fully raised location can be scored for its prosperity points.",
    default_reason="L43 is an item of the list of effects (L22-47), and effects are set off "
                   "by a card, a manta or a depth (L23-26); the English help lists Score "
                   "among the effect icons. L44 alone reads as a standing permission")
extra_without_effect = game.interpretation(
    "extra_without_effect", question="May a manta or a depth be used when its effect cannot "
    "be carried out (just to tire the manta or to slide the location up)?",
    options={"allowed": option(book.at("20", "場所カードの現在の一番上の深さを探索することができ、深さを上にスライドさせて"),
                               english="You may use the location's current top depth and "
                                       "slide it up (nothing says the effect must be "
                                       "possible)."),
             "possible_only": option(book.at("13", "準備が整ったマンタを使って、そのマンタに示された効果を実行することができます"),
                                     english="You may use a ready manta to carry out the "
                                             "effect shown on it (using it is carrying out "
                                             "its effect: an effect that cannot be carried "
                                             "out cannot be used).")},
    default="allowed", source=book.at("13, 20-21"),
    english="Use a ready manta to carry out its effect; use a location's top depth and "
            "slide the location up.",
    default_reason="L8 lets a card be played when not all its effects can be done, and "
                   "L20-21 forbid only empty depths; an impossible effect is then simply "
                   "left. Under possible_only a depth showing an effect that cannot be done "
                   "blocks like an empty one")

# The rulesets bundle the readings of each text: the seed as it reads word for word, the
# printed rulebook as the research reports it, and the two modes of the basic game.
game.ruleset(
    "seed", options={"order": "any", "partial": "any_once_one_fails", "depth_reuse": "repeat",
                     "scout_keep": "up_to_four"},
    source=book.at("5, 8, 20, 47"),
    doc="The seed read word for word where the research reads otherwise: any order (L5), "
        "'may use' the possible effects (L8), no limit on a location's depths (L20), keep "
        "up to 4 when scouting (L47). Every other point keeps its default.")
game.ruleset(
    "rulebook", options={"order": "printed", "partial": "every_possible",
                         "depth_reuse": "once_per_turn", "deck_exhausted": "last_card_drawn",
                         "kings": "dealt", "scout_keep": "all_that_fit"},
    source=f"{COMPONENTS} §Turn, §End of game (the community utility citing the Base "
           "rulebook; the BGA English help)",
    doc="The published rulebook as the research reports it: effects in printed order and as "
        "fully as possible, one depth per location a turn, the character deck out when its "
        "last card fills the row, Kings dealt, the scouted row keeps what fits.")
game.ruleset("with_kings", options={"kings": "dealt"}, source=kings.options["dealt"],
             doc="The basic game with Kings 1..N dealt into the starting hands (ties: the "
                 "lower King number).")
game.ruleset("without_kings", options={"kings": "none"}, source=kings.options["none"],
             doc="The basic setting without Kings (ties: the last player in turn order).")
