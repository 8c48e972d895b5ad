"""MOTU's interpretation points: where the seed allows more than one reading, each
option with its source, the default with its reason, and the two rulesets. A part of
spec.py; every point has its scenarios in scenarios/reading_<point>.toml.
"""

from rulespec.spec import option

from .spec import (ADD, FATE, FINAL, REFILL, ROUND, SCORING, SETUP, TAKE, TRAVELLER, game)

# =====================================================================================
# Interpretation points (the seed's silences and ambiguities)
# =====================================================================================
no_placement = game.point(
    "no_placement",
    "What happens to a taken card that has no legal placement?",
    source=ADD.at("62-84")
        .says("§2: the card must be put on your island, keeping the three placement rules; the "
              "text says nothing about a card that cannot be placed."),
    choose_another=option(TAKE.at(56, "このカードを取ることができず、別のカードを選ばなければなりません") + " (by analogy)",
                          english="A card you cannot add cannot be taken: choose another (as for "
                                  "a card you cannot pay for). If no card you can afford fits, "
                                  "you take one and set it aside."),
    set_aside=option(ADD.at(62, "島カードは…上に置く必要があります") + " (silent on failure)",
                     english="Any affordable card may be taken; one that fits nowhere is set "
                             "aside and the island gets no card this turn."),
    default="choose_another",
    because="the seed's one rule for a card you cannot handle (L56, coconuts) is to choose "
            "another, and L132 expects 4, 7 and 9 cards placed by the three scorings")
diagonal = game.point(
    "diagonal_contact",
    "Does sea touch land where two cells meet only at a corner?",
    source=ADD.at("70, 82-84")
        .says("§2: when adding sea, the water may not be joined directly to land; it must be "
              "separated from land by beach."),
    orthogonal=ADD.at(84, "その水域を直接陸地につなげることはできません")
        .says("Sea may not be joined directly to land: only cells sharing an edge touch."),
    diagonal_too=ADD.at(84, "ビーチで陸地から分離する必要があります")
        .says("Sea must be separated from land by beach: a corner contact is not separated."),
    default="orthogonal",
    because="'directly joined' (直接つなげる) reads as sharing an edge; a corner is a point the "
            "whole-cell grid introduces, which the physical cards rarely make")
beach_cut = game.point(
    "beach_cut",
    "May a later card cut an existing beach (leave it ending against land or sea)?",
    source=ADD.at("68, 78-80")
        .says("§2: beaches must be continuous; when adding a beach both its ends must stick out "
              "of the island and may not join land or sea directly."),
    forbidden=ADD.at(68, "ビーチは連続してつながっている必要があります")
        .says("Beaches must be continuous: no beach of the island may end against land or sea, "
              "old ones included."),
    allowed=ADD.at(80, "島にビーチを追加する場合、ビーチの両端が島から突き出ている必要があります")
        .says("When you add a beach, both its ends must stick out of the island: only the added "
              "card's beaches are checked."),
    default="forbidden",
    because="the rule's heading (L68, L78) states a property of the island, which a card cutting "
            "an old beach would break; L80 explains it for the added card. A review of Atua "
            "(ducksch-spielt.de) names the ambiguity")
beach_end = game.point(
    "beach_end",
    "What may an end of an added beach rest on?",
    source=ADD.at("68, 78-80")
        .says("§2: beaches must be continuous; when adding a beach both its ends must stick out "
              "of the island; they may not join land or sea directly."),
    beach_or_table=ADD.at(80, "陸や海に直接つなげることはできません")
        .says("Its ends may not join land or sea directly: they rest on the table or on another "
              "beach, a T-junction included."),
    same_band=ADD.at(68, "ビーチは連続してつながっている必要があります")
        .says("Beaches must run on continuously: an end may continue a beach running the same "
              "way, not meet another beach's side (no T-junction)."),
    table_only=ADD.at(80, "ビーチの両端が島から突き出ている必要があります")
        .says("Both ends of the beach must stick out of the island: they rest on the table, never "
              "on another beach."),
    default="beach_or_table",
    because="L80's second sentence names what an end may not join, land and sea; an end resting "
            "on another beach keeps the sand continuous (L68), and nothing in the text tells a "
            "continuation from a T-junction")
sea_rule = game.point(
    "sea_rule",
    "Does the sea rule also forbid adding land next to the island's sea, or only adding sea next "
    "to land?",
    source=ADD.at("70, 82-84")
        .says("§2: sea may not be joined to land; when adding sea, the water may not be joined "
              "directly to land."),
    both_ways=ADD.at(82, "海は陸地につなげることはできません")
        .says("Sea may not be joined to land: no sea next to land, whichever card brings the "
              "land."),
    added_sea_only=ADD.at(84, "島に海を追加するとき、その水域を直接陸地につなげることはできません")
        .says("When you add sea, that water may not be joined directly to land: only the added "
              "card's sea is checked, so added land may meet old sea."),
    default="both_ways",
    because="the rule's heading (L70, L82) states a property of the island, as for beaches "
            "(beach_cut); L84 explains it for the added sea")
scoring_time = game.point(
    "scoring_time",
    "When does the intermediate scoring happen: when a deck's last card is drawn, or after that "
    "player's optional steps 4-5?",
    source=ROUND.at("45-52").also(REFILL.at(90))
        .says("The turn lists the scoring as its sixth step; the refill step says the drawing of "
              "a deck's last card triggers it 'now'."),
    end_of_turn=ROUND.at("45-52", "6. 中間決算を計算(ラウンド4、7、9のみ)")
        .says("The turn has six steps in order; the intermediate scoring is step 6, after buying "
              "a fate card and playing the traveller."),
    at_draw=REFILL.at(90, "デッキの最後のカードを引いた場合、今度は中間決算を計算します")
        .says("If you drew a deck's last card, the intermediate scoring is computed now."),
    default="end_of_turn",
    because="L45 says the steps are carried out in order, with the scoring last; L90 names what "
            "triggers it")
traveller_coconuts = game.point(
    "traveller_coconuts",
    "Do the traveller's printed coconuts count for the fate card 'coconuts not on cards' and for "
    "the final tie-break?",
    source=TRAVELLER.at(107).also(FATE.at(102), FINAL.at(163))
        .says("The coconut source and the coconut bonus name the traveller's coconuts; the fate "
              "card and the tie-break do not."),
    count=TRAVELLER.at(107, "この旅人カードに描かれた要素(シンボルやココナッツカウンター)をポイントの合計数の計算に含める")
        .says("The traveller's elements (symbols and coconut counters) count towards your totals."),
    ignore=FATE.at(102, "ココナッツカウンター(カード上に配置されていないもの)").also(FINAL.at(163, "ココナッツカウンターが最も多いプレイヤー"))
        .says("The fate card counts counters not placed on cards and the tie-break counts coconut "
              "counters: the printed coconuts count only where the text says so (the source L142, "
              "the bonus L159)."),
    default="count",
    because="L107 states in general that the traveller's symbols and coconuts count towards your "
            "totals; L117 only forbids paying with them")
traveller_majorities = game.point(
    "traveller_majorities",
    "Do a revealed traveller's symbols count for the fate cards' majorities?",
    source=TRAVELLER.at(107).also(FINAL.at(157))
        .says("The traveller's elements count towards your totals once it is revealed; the fate "
              "cards ask who has the most of their element(s)."),
    count=TRAVELLER.at(107, "この旅人カードに描かれた要素(シンボルやココナッツカウンター)をポイントの合計数の計算に含める")
        .says("From then on the traveller's elements count in your totals: its symbols are among "
              "yours for every count."),
    island_only=FINAL.at(157, "所有している各運命カードで指定された要素を最も多く持っているか")
        .says("A fate card asks who has the most of its element: what each island shows; L107's "
              "totals are the harmony points' (the sources)."),
    default="count",
    because="L107 adds the traveller's elements to your totals without naming the sources alone, "
            "as the traveller_coconuts point does for its coconuts")
longest_beach = game.point(
    "longest_beach",
    "Which beach cells make one beach for the longest-beach bonus?",
    source=FINAL.at(158).also(ADD.at(80))
        .says("The longest beach is the one made of the most island cards; a beach has two ends."),
    touching=FINAL.at(158, "最も長いビーチ(構成する島カードの枚数が最も多い)")
        .says("The longest beach is the one made of the most island cards: beach cells that touch "
              "make one beach."),
    joined_ends=ADD.at(80, "ビーチの両端")
        .says("A beach is a band with two ends: bands join where an end rests on another band; "
              "two bands lying side by side are two beaches."),
    default="touching",
    because="L158 measures a beach by the cards it is made of and says nothing of how bands join: "
            "touching sand is one beach on the table")
beach_bonus_at_zero = game.point(
    "beach_bonus_at_zero",
    "When nobody has a beach, do all players share the longest-beach bonus?",
    source=FINAL.at(158)
        .says("The player with the longest beach gets 5 more harmony points; if tied, all of them "
              "do."),
    tied_at_zero=FINAL.at(158, "同数の場合、それらのプレイヤー全員がこの追加の5ポイントを獲得します")
        .says("If tied, all those players get the extra 5 points: no beach at all is a tie too."),
    needs_a_beach=FINAL.at(158, "ビーチが最も長いプレイヤーは、さらに5ハーモニーポイントを獲得します")
        .says("The player with the longest beach gets 5: a player without a beach has no longest "
              "beach."),
    default="tied_at_zero",
    because="the text ties the bonus to the longest length and shares it on a tie; it sets no "
            "minimum")
beach_card = game.point(
    "beach_card",
    "What is a 'beach card' for the fate card 'most beach cards'?",
    source=FATE.at(101).also(FINAL.at(158))
        .says("The fate card counts beach cards; the longest beach counts the island cards that "
              "make it."),
    visible_beach=SCORING.at(134, "シンボルは完全に見えている場合にのみカウント")
        .says("A card of your island that shows beach (only what is visible counts)."),
    printed_beach=FATE.at(101, "ビーチカードが最も多い場合")
        .says("Any card of your island printed with beach, covered or not."),
    default="visible_beach",
    because="only visible things count in the seed's scoring (L134), and the longest beach (L158) "
            "is made of the cards that show it")
traveller_scoring = game.point(
    "traveller_scoring",
    "Does the traveller score per element in the row, or per two elements (German edition Atua)?",
    source=TRAVELLER.at("107-118")
        .says("Each traveller scores at once from the row; the German edition changed the rate to "
              "per two elements."),
    per_element=TRAVELLER.at(115, "中央の列にあるビーチカードごとに3ポイント")
        .says("3 points per beach card in the central row."),
    per_two=TRAVELLER.at(111, "ドイツ語版Atuaでは、右下隅のハーモニーポイントが、要素2つごとにポイントを得るように修正されました")
        .says("In the German edition Atua the points are per two elements."),
    default="per_element",
    because="the Japanese text (of the original edition) gives per element; the German change is "
            "an edition, a ruleset")
components = game.point(
    "components",
    "Are travellers and fate cards in play?",
    source=SETUP.at("17-21")
        .says("Travellers and fate cards are part of the setup; the first game is recommended "
              "without them."),
    full=SETUP.at("17-19")
        .says("Deal the travellers and turn up the fate cards."),
    first_game=SETUP.at(21, "MOTUを初めてプレイする際は、旅人カードと運命カードは使用しないことをお勧めします")
        .says("In your first game, leave out the travellers and the fate cards."),
    default="full",
    because="the full game is the rule; the first game is a recommendation (a ruleset)")
FULL = components.is_("full")

game.ruleset("first_game", options={"components": "first_game"},
             source=SETUP.at(21, "MOTUを初めてプレイする際は、旅人カードと運命カードは使用しない"
                                   "ことをお勧めします"),
             doc="The recommended first game: no travellers and no fate cards; every other "
                 "point keeps its default.")
game.ruleset("atua", options={"traveller_scoring": "per_two"},
             source=TRAVELLER.at("111-118", "ドイツ語版Atuaでは…要素2つごとに"),
             doc="The German edition Atua (Schmidt): travellers score per two elements of the "
                 "row. The seed reports no other difference of that edition.")
