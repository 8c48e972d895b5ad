"""Hawaii's interpretation points (where the seed allows more than one reading: each option
with its source, the default with its reason) and the rulesets that bundle them (a part of
spec.py)."""

from rulespec.spec import option

from .spec import book, game, notes

# =====================================================================================
# Interpretation points: where the text allows more than one reading (each option with
# its source, the default with its reason), and the rulesets that bundle them
# =====================================================================================
beach_return = game.point(
    "beach_return", "May a pawn go back to the beach for free before moving on?",
    source=book.at("足の支払い")
        .says("§Paying feet: each step to a neighbouring place costs one foot (a diagonal "
            "step too, and staying put costs one); wherever your pawn is, going back to the "
            "beach costs nothing -- which the original rules allow and the online version "
            "(BGA) does not."),
    free=book.at("足の支払い", "自分のコマがどこにあっても、砂浜に戻る際には足を支払う必要はありません")
        .says("Wherever your pawn is, you do not have to pay feet to return to the "
            "beach."),
    forbidden=book.at("足の支払い", "本来のルールではこのアクションが実行できるのですが、BGAではなぜかできません")
        .says("The original rules allow this action, but for some reason it "
            "cannot be done on BGA."),
    default="free",
    because="the text states the free return as the rule and reports BGA's refusal "
        "as a deviation of the online version ('for some reason'); the page "
        "itself adds it may just be a missing button")
combine_boats = game.point(
    "combine_boats", "How many boats may be used together for one trip (fishing or an island)?",
    source=book.at("ボートの使用")
        .says("§Using boats: a boat lets you fish or visit an island; the boat you choose caps "
            "the feet you can pay (canoe 2, level-I boat 3, level-II boat 4 with one free "
            "foot); each boat is used once per round. Islands cost 3, 4, 5 and 6 feet."),
    two=option(
        notes.at() + " (BGA Italian help: the 6-feet island with two 3-feet boats, "
        "or the 4-feet boat plus the 2-feet boat paying 5); the seed's 5- and "
        "6-feet islands are out of reach of any single boat (§島の訪問, §ボートの使用)",
        english="BGA's Italian help: reach the 6-feet island with two 3-feet boats, "
                "or pay 5 with the 4-feet boat plus the 2-feet boat."),
    one=book.at("ボートの使用", "選んだボードによって支払える「足」の上限値が決まります")
        .says("The boat you choose sets the most feet you can pay."),
    any="INFERENCE: nothing in the seed or the BGA help limits a trip to two boats "
        "once boats combine; at most three in the model (assumption "
        "trip_boats_bound)",
    default="two",
    because="with one boat per trip the 5- and 6-feet islands could never be visited "
        "(no boat carries more than 4 feet); the only source that describes "
        "combining (BGA's Italian help) combines two, and two reach every island")
final_tie = game.point(
    "final_tie", "Who wins when the highest final scores are tied?",
    source=book.at("ゲーム終了")
        .says("§End of the game: after round five, add the points from tile effects to the "
            "points earned during play; the player with the most victory points wins."),
    shared=book.at("ゲーム終了", "最も多くの勝利点を獲得していたプレイヤーが勝者です (no tie rule)")
        .says("The player with the most victory points is the winner (the text "
            "gives no tie rule)."),
    resources=option(
        notes.at() + " (yucata: English rules' tie-breaker 'sum of remaining "
        "resources')",
        english="Tied players compare the sum of their remaining resources "
                "(shells, feet and fruit)."),
    default="shared",
    because="the source names no tie-breaker, so tied players share the win; the "
        "English rules' tie-breaker is recorded as the other reading")
fish_bonus_foot = game.point(
    "fish_bonus_foot", "Does a level-II boat's bonus foot catch a fish token (pay 1 foot, fish 2)?",
    source=book.at("釣り")
        .says("§Fishing: pay feet by boat and take as many fish tokens as the feet paid; the "
            "level-II boat's bonus foot cannot catch a fish token by itself, because it only "
            "lets you pay one foot less once you pay at least one."),
    counts=option(
        book.at("ボートの使用", "足を３個支払えば、足４個分支払ったことになります") + "; §釣り: "
        "「最低でも１個の足を支払わなければオマケの足を使うことはできない」 (with a foot paid, "
        "the bonus counts)",
        english="Pay 3 feet and you have paid 4; you cannot use the bonus foot unless "
                "you pay at least one foot."),
    paid_only=option(
        book.at("釣り", "魚トークンは支払った「足」の数と同じ数だけ獲得できます") + "; "
        "「オマケの足１個を使って魚トークン１個を獲得する、ということはできません」",
        english="You take as many fish tokens as the feet you paid; you cannot use "
                "the bonus foot to take a fish token."),
    default="counts",
    because="§釣り explains the refusal by the bonus foot being usable only once a foot "
        "is paid (最低でも１個の足を支払わなければ), which implies that with a foot "
        "paid it counts")
village_without_tiki = game.point(
    "village_without_tiki", "Is a village valid on a board without any tiki?",
    source=book.at("タイルの配置")
        .says("§Placing tiles: a village is valid at the end only if its rightmost tile reaches "
            "the column of a tiki; tikis are placed from the right and make villages valid "
            "sooner."),
    invalid=option(
        book.at("タイルの配置", "それぞれの村の一番右に置かれているタイルがティキが置かれている"
                        "列に到達することが条件です") + " (no tiki: no column to reach)",
        english="A village counts when its rightmost tile reaches the column where a "
                "tiki stands."),
    board_edge=option(
        "INFERENCE: the tiki line falls back to the board's last column "
        "(§タイルの配置: 個人ボードは下の画像のように７列に分かれており); no source states it",
        english="(Inference) The player board is divided into 7 columns; without a "
                "tiki, the last column is the line to reach."),
    default="invalid",
    because="the condition names a tiki's column; the seed describes no line without one")
fruit_payment = game.point(
    "fruit_payment", "Without an exchange cottage, may fruit pay part of a payment (1 fruit and 2 "
    "shells for a 3)?",
    source=book.at("画面説明")
        .says("§The screen: shells are money, feet are movement, and fruit is a joker-like "
            "resource usable in place of shells or feet."),
    whole=notes.at() + " (Polish BGA help: a 4-step move costs 4 feet OR 4 fruit); "
        "§タイル効果の詳細: mixing is the exchange cottage's effect",
    per_unit=option(
        book.at("画面説明", "フルーツ、貝にも足の代わりにも使えるジョーカーのような資源です")
        + " (a joker stands in for any one unit)",
        english="Fruit: a joker-like resource that can stand in for shells or for "
                "feet."),
    default="whole",
    because="the only source that says how fruit pays (Polish BGA help) pays whole "
        "payments, and if fruit mixed anyway, the exchange cottage's 貝、足、"
        "フルーツを混ぜて支払う would add nothing for fruit")
exchange_uses = game.point(
    "exchange_uses", "May an exchange cottage serve both payments of one purchase (the move and "
    "the price)?",
    source=book.at("タイル効果の詳細", "交換コテージ")
        .says("§Tile effects, exchange cottage: with it you may mix shells, feet and fruit in "
            "a payment; with a level-II exchange cottage, for example, a payment of 2 shells "
            "may be made with 2 feet, or with 1 shell and 1 foot."),
    once_per_turn=notes.at() + " (yucata, German page: the English rules add 'each "
        "exchange hut may be used only once per turn')",
    per_payment=option(
        book.at("タイル効果の詳細", "貝、足、フルーツを混ぜて支払うことができます")
        + " (no limit on how often); yucata lists the limit as an English deviation "
          "from the German rules",
        english="With this tile you may pay with a mix of shells, feet and fruit."),
    default="once_per_turn",
    because="the only text on how often is the English edition's; the seed's example "
        "uses the cottage for one payment")
goal_ranking = game.point(
    "goal_ranking", "Are the round-goal prizes ranked by the price-token totals, or by the totals "
    "with the surfers' reductions added?",
    source=book.at("ラウンド目標")
        .says("§Round goal: players whose price tokens this round add up to the goal score "
            "points; among them the one with the most price tokens gets the first prize, the "
            "next the second, the others the third."),
    raw=book.at("ラウンド目標", "目標を達成してるプレイヤーのうち、最も多くの価格トークンを集めた"
                                 "プレイヤーは")
        .says("Among the players who met the goal, the one who collected the most "
            "price tokens ..."),
    lowered=option(
        book.at("タイル効果の詳細", "ラウンド目標の達成値を４引き下げる") + " (a lowered goal "
        "counts like a higher total)",
        english="(the level-II surfer) lowers the round goal to reach by 4"),
    default="raw",
    because="the prizes go to whoever collected the most price tokens (最も多くの価格"
        "トークンを集めた); a surfer lowers the goal, not the total")
price_cap = game.point(
    "price_cap", "When a drawn price token would make a place's sum equal to its printed cap, is "
    "it placed or flipped to a fish token?",
    source=book.at("細かいルール")
        .says("§Fine print: price tokens are placed so that the sum on each place does not "
            "exceed its printed cap, so some places may get no token; the leftover tokens are "
            "turned over and become fish tokens."),
    at_most=option(
        book.at("細かいルール", "価格トークンの数字の合計値が各エリアごとに設定されている上限値を"
                        "超えないように") + "; §足の支払い: 「この数字以下になるように」",
        english="Price tokens are placed so that their sum does not exceed each "
                "place's cap; ... so that the sum is at or below this number."),
    below=notes.at() + " (phantasiogames.net: 'chips that equal or exceed the "
        "printed number get flipped over to become fish')",
    default="at_most",
    because="the seed says twice that the sum stays at or below the number "
        "(超えないように, この数字以下); goblins.net and throatpunchgames.com agree")
income_after_last_round = game.point(
    "income_after_last_round",
    "Do income tiles (shell, foot and fruit tiles) pay once more when round 5 ends?",
    source=book.at("ラウンド終了と新たなラウンドの開始")
        .says("§End of a round and a new round: when a new round starts, players receive "
            "shells and feet (plus what their income tiles give), boats are ready again and "
            "new tokens are dealt; the game ends after round five."),
    none=option(
        book.at("ラウンド終了と新たなラウンドの開始", "新たなラウンドが開始されると、次の勝利が行われます"
                                       "・各プレイヤーに貝と足が支給される（自分の村に貝や足や"
                                       "フルーツが追加で支給されるタイルを置いているプレイヤーは"
                                       "その分も支給される）") + " (no round 6)",
        english="When a new round starts: each player receives shells and feet (and "
                "what their shell, foot and fruit tiles add)."),
    tiles=option(
        book.at("タイル効果の詳細", "「レベルⅡ灌漑タイル」についてはラウンド終了時に任意の資源を得る効果")
        + "; " + notes.at() + " (spielmonster.de: shell hut '+1 shell at end of each "
          "round')",
        english="The level-II irrigation tile's effect of gaining a resource of "
                "choice at the end of a round."),
    default="none",
    because="the seed lists tile income among what a new round brings, and the game "
        "ends after round 5; it matters only for leftover resources "
        "(final_tie=resources)")
laka_fruit = game.point(
    "laka_fruit", "Does Laka count fruit tiles in villages that are not valid?",
    source=book.at("タイル効果の詳細", "ラカ")
        .says("§Tile effects: Laka also scores the fruit tiles in villages other than its own; "
            "Kanaloa scores surfers in valid villages only."),
    all_villages=option(
        book.at("タイル効果の詳細", "ラカ: このタイルが置かれている村以外に置かれているフルーツ"
                           "タイルも得点の対象になります") + " (no condition on the "
        "villages, unlike Kanaloa's 有効な村に配置されたサーファー)",
        english="Laka: fruit tiles in villages other than its own also score."),
    valid_villages="INFERENCE by analogy with §タイル効果の詳細 カナロア and "
        "§ゲーム終了 (end effects count only in valid villages)",
    default="all_villages",
    because="Laka's note names no condition, while the note beside it restricts "
        "Kanaloa to valid villages; the contrast reads as no restriction")

kanaloa_surfers = game.point(
    "kanaloa_surfers", "Does Kanaloa count the surfers of all the player's valid villages, or "
    "only a surfer in its own village?",
    source=book.at("タイル効果の詳細", "カナロア")
        .says("§Tile effects, Kanaloa: surfers in valid villages count toward it, surfers in "
            "villages that are not valid do not."),
    valid_villages=book.at("タイル効果の詳細", "カナロア: 有効な村（村として成立している状態）に配置された"
                                    "サーファーは対象になりますが、有効でない村に配置されたサーファーは"
                                    "効果の対象になりません")
        .says("Kanaloa: surfers placed in valid villages count, surfers placed in "
            "villages that are not valid do not."),
    own_village=option(
        book.at("タイル効果の詳細", "フラダンサー: 得点の対象になるのは、フラダンサータイルが置かれて"
                           "いるのと同じ村だけです") + "; only Laka is noted to count "
        "beyond its village (ラカ: このタイルが置かれている村以外に置かれているフルーツタイルも)",
        english="Hula dancer: only the village the hula dancer lies in scores; "
                "(Laka: fruit tiles in villages other than its own also score)."),
    default="valid_villages",
    because="Kanaloa's own village must be valid for its end effect anyway "
        "(§ゲーム終了), so the note about surfers in villages that are not valid "
        "says something only if surfers outside its village count")
pele_floor = game.point(
    "pele_floor", "Can Pele make a purchase's move cost no feet at all?",
    source=book.at("タイル効果の詳細", "ペレ")
        .says("§Tile effects, Pele: the feet paid for a purchase are reduced; the feet paid for "
            "fishing and island visits are not."),
    zero=option(
        book.at("タイル効果の詳細", "ペレ: タイル購入時に支払う足が軽減されます") + " (no "
        "lower limit named)",
        english="Pele: the feet paid when buying a tile are reduced."),
    one_foot=option(
        book.at("足の支払い", "同じ場所に留まって、その場所で再びタイルを購入する場合でも足を１個"
                       "支払う必要があります") + " (every purchase pays at least one foot)",
        english="Even to stay on the same place and buy there again you must pay one "
                "foot."),
    default="zero",
    because="Pele's note names no lower limit; the one foot of §足の支払い prices a "
        "move (staying put), which is what Pele reduces")
exchange_direction = game.point(
    "exchange_direction", "Does an exchange cottage mix any payment, or only a shell price (feet "
    "or fruit paying part of the shells)?",
    source=book.at("タイル効果の詳細", "交換コテージ")
        .says("§Tile effects, exchange cottage: with it you may mix shells, feet and fruit in "
            "a payment; with a level-II exchange cottage, for example, a payment of 2 shells "
            "may be made with 2 feet, or with 1 shell and 1 foot."),
    any_payment=option(
        book.at("タイル効果の詳細", "交換コテージ: このタイルの効果を使うと、貝、足、フルーツを"
                           "混ぜて支払うことができます") + " (no payment named)",
        english="Exchange cottage: with this tile you may pay with a mix of shells, "
                "feet and fruit."),
    price_only=option(
        book.at("タイル効果の詳細", "貝２個の支払いを足２個で支払ったり、貝１個と足１個で支払う"
                           "ことができます") + " (the example only mixes a shell payment)",
        english="A payment of 2 shells may be made with 2 feet, or with 1 shell and "
                "1 foot."),
    default="any_payment",
    because="the rule names all three resources and no particular payment; the "
        "example shows one case of it")

RULESET_ENGLISH = (notes.at() + " (yucata, German rules page, listing the English rules' "
                   "deviations)")
game.ruleset(
    "rulebook",
    options={"beach_return": "free", "final_tie": "shared"},
    source=book.at("足の支払い", "本来のルールではこのアクションが実行できる") + "; §ゲーム終了",
    doc="The printed rules as the seed reports them: the free return to the beach (the seed's "
        "one note on the printed rules) and no tie-breaker. Every other point keeps its "
        "default, which follows the seed's text.")
game.ruleset(
    "bga",
    options={"beach_return": "forbidden", "fruit_payment": "whole", "combine_boats": "two"},
    source=book.at("足の支払い", "BGAではなぜかできません") + "; " + notes.at() + " (Polish and Italian BGA "
           "help pages)",
    doc="The online version as the seed describes it (no free return to the beach), with "
        "the BGA help pages' fruit payments (whole payments) and boats (two together).")
game.ruleset(
    "english",
    options={"final_tie": "resources", "exchange_uses": "once_per_turn"},
    source=RULESET_ENGLISH,
    doc="The English edition's deviations as yucata lists them: the resource tie-breaker "
        "and each exchange cottage once per turn. Its other two (no skipped village row; "
        "2 points for space 1 after round 5) agree with the seed and the model already.")
