"""Hawaii's state: the flow of play (phase, round, turn order, what is pending), the main
board (places, supply, price tokens, fish, islands) and each player's resources, villages,
tracks and boats; with the two expressions every rule reads, the player to move and the
number of players (a part of spec.py, imported before the rules). Each field cites the
rulebook section that says what it records."""

from rulespec.spec import PLAYERS, called

from .catalogue import (BEACH, BOARD_DRAWS, ISLAND_NAMES, KINDS, PlaceNo, TILE_COUNTS, TOKEN_COUNT,
                        VALUE)
from .spec import ROUNDS, VILLAGES, book, game
from .vocabulary import Dock, Founder, Gift, Isl, Kind, Level, Name, Phase, Place, TokenCode

# --- flow ------------------------------------------------------------------------------
phase = game.field("phase", Phase, initial=Phase.layout, flow=True, source=book.at("ゲーム進行"))
game.phases(phase, {
    Phase.layout: ("the board is being laid", book.at("ゲーム進行")),
    Phase.deal: ("price tokens are being dealt", book.at("細かいルール")),
    Phase.islands: ("islands are being drawn", book.at("島の訪問")),
    Phase.play: ("it is a player's turn", book.at("ゲーム進行")),
    Phase.fishing: ("the player is fishing", book.at("釣り")),
    Phase.gift: ("an island tile waits to be placed", book.at("島の訪問")),
}, source=book.at("ゲーム進行", "１ターンでは様々な行動のうち１つを選択して、それを実行します"))
round_ = game.field("round", range(1, ROUNDS + 1), initial=1, flow=True,
                    source=book.at("ゲーム進行", "ゲームは全５ラウンド行われ"))
order = game.field("order", range(0, 5), shape=(5,), initial=[0, 1, 2, 3, 4], flow=True,
                   source=book.at("パス", "次のラウンドのターン順") + "; assumption start_order",
                   doc="order[k] = the player who moves k-th this round")
turn_pos = game.field("turn_pos", range(0, 5), flow=True, source=book.at("ゲーム進行"),
                      doc="index into order of the player to move")
passed = game.field("passed", bool, shape=(PLAYERS,), flow=True,
                    source=book.at("パス", "パスをしたプレイヤーは、そのラウンドではもう二度と手番がこない"))
layout_step = game.field("layout_step", range(0, 11), flow=True,
                         source=book.at("ゲーム進行", "ゲーム開始時、メインボードにランダムにタイルが配置されます"))
deal_step = game.field("deal_step", range(0, BOARD_DRAWS + 5), flow=True,
                       source=book.at("細かいルール"), doc="how many price tokens were drawn this round")
pending_fish = game.field("pending_fish", range(0, 8), flow=True, source=book.at("釣り"),
                          doc="fish tokens still to take in the current fishing action")
pending_gift = game.field("pending_gift", Gift, flow=True, source=book.at("島の訪問"))

# --- the main board --------------------------------------------------------------------
pos_of = game.field("pos_of", range(0, 10), shape=(Place,),
                    source=book.at("ゲーム進行", "メインボードにランダムにタイルが配置されます"),
                    doc="board position (0-1 lowest row, 2-4, 5-7, 8-9 top row) of each place")
laid = game.field("laid", bool, shape=(Place,), flow=True,
                  source=book.at("ゲーム進行", "メインボードにランダムにタイルが配置されます"),
                  doc="the place has been laid on the board (game start)")
supply = game.field("supply", range(0, 26), shape=(Kind,),
                    initial=[TILE_COUNTS[k] for k in KINDS],
                    source=book.at("タイルの購入と配置", "用意されているタイルの数には上限があります"))
discard = game.field("discard", range(0, 26), shape=(Kind,),
                     source=book.at("タイルの配置", "そのタイルは保持や配置ができず捨てられる"))
bag = game.field("bag", range(0, 6), shape=(TokenCode,), initial=TOKEN_COUNT,
                 source=book.at("ゲーム進行", "価格トークンや魚トークンがランダムに配置され"),
                 doc="price tokens not yet dealt, by token code (code 0 unused)")
area_tok = game.field("area_tok", range(0, 4), shape=(PlaceNo, TokenCode),
                      source=book.at("貝の支払い", "そこに置かれている価格トークン"),
                      doc="price tokens on each place (by Place order), by token code")
pass_tok = game.field("pass_tok", range(0, 11), shape=(5,),
                      source=book.at("パス", "２番目以降のマスには右のマスにいくにつれて大きい数字の価格トークン"),
                      doc="token code on each pass space (0 = none; space 1 never has one)")
pass_by = game.field("pass_by", range(-1, 5), shape=(5,), initial=-1, flow=True,
                     source=book.at("パス"), doc="the player on each pass space (-1 = free)")
fish_pool = game.field("fish_pool", range(0, 6), shape=(TokenCode,),
                       source=book.at("細かいルール", "余った価格トークンが裏返されることで魚トークンとして準備"),
                       doc="fish tokens in the cove, by the code of their price side")
docks = game.field("docks", Isl, shape=(Dock,), initial=Isl.none,
                   source=book.at("島の訪問", "島は下の画像のように、ラウンド開始時に４つ準備されます"))
in_pile = game.field("in_pile", bool, shape=(Isl,),
                     initial=[False] + [True] * len(ISLAND_NAMES),
                     source=book.at("島の訪問", "新しい島タイルが補充されます"))
islands_gone = game.field("islands_gone", range(0, len(ISLAND_NAMES) + 1),
                          source=book.at("島の訪問", "訪問した島タイルは無くなります"))

# --- players ---------------------------------------------------------------------------
shells = game.field("shells", game.at_least(0), shape=(PLAYERS,), source=book.at("画面説明", "貝"))
feet = game.field("feet", game.at_least(0), shape=(PLAYERS,), source=book.at("画面説明", "足"))
fruit = game.field("fruit", game.at_least(0), shape=(PLAYERS,), source=book.at("画面説明", "フルーツ"))
vp = game.field("vp", game.at_least(0), shape=(PLAYERS,), source=book.at("画面説明", "勝利点"))
pawn = game.field("pawn", range(0, 12), shape=(PLAYERS,), initial=BEACH,
                  source=book.at("足の支払い", "ラウンド開始時には、必ず砂浜に自分のコマが置かれます"),
                  doc="board position 0-9, 10 = beach, 11 = pass area")
ALL_TOKENS_VALUE = sum(v * c for v, c in zip(VALUE, TOKEN_COUNT))
round_total = game.field("round_total", range(0, ALL_TOKENS_VALUE + 1), shape=(PLAYERS,),
                         source=book.at("画面説明", "このラウンドで獲得した価格トークンの合計値"))
spears = game.field("spears", range(0, 6), shape=(PLAYERS,), source=book.at("貝の支払い"),
                    doc="spear price tokens taken this round")
took = game.field("took", range(0, 6), shape=(PLAYERS, TokenCode), source=book.at("貝の支払い"),
                  doc="price tokens taken this round (price side), by code")
caught = game.field("caught", range(0, 6), shape=(PLAYERS, TokenCode), source=book.at("釣り"),
                    doc="fish tokens caught this round, by the code of their price side")
founder = game.field("founder", Founder, shape=(PLAYERS, VILLAGES), initial=Founder.none,
                     source=book.at("タイルの配置", "各村の１枚目のタイル"))
has = game.field("has", bool, shape=(PLAYERS, VILLAGES, Name),
                 source=book.at("タイルの配置", "１つの村に同じ名前のタイルを２枚以上置くことはできない"))
lvl2 = game.field("lvl2", bool, shape=(PLAYERS, VILLAGES, Name),
                  source=book.at("タイルの配置", "補足２"), doc="the tile lies on its level-II side")
width = game.field("width", range(0, 17), shape=(PLAYERS, VILLAGES),
                   source=book.at("タイルの配置", "個人ボードは下の画像のように７列に分かれており"))
tikis = game.field("tikis", range(0, 6), shape=(PLAYERS,),
                   source=book.at("タイルの配置", "ティキは個人ボードの上部に右詰めで置かれていきます"))
kahunas = game.field("kahunas", range(0, 6), shape=(PLAYERS,),
                     source=book.at("タイルの配置", "カフナはそれぞれの村の左側に上から順番に置かれます"))
boats = game.field("boats", range(0, TILE_COUNTS["boat"] + 1), shape=(PLAYERS, Level),
                   source=book.at("ボートの使用", "個人ボード下部にあるボート"))
boats_used = game.field("boats_used", range(0, TILE_COUNTS["boat"] + 1), shape=(PLAYERS, Level),
                        source=book.at("ボートの使用", "１つのボートは１ラウンド中に一度しか使えません"))
canoe_used = game.field("canoe_used", bool, shape=(PLAYERS,),
                        source=book.at("ボートの使用", "１つのボートは１ラウンド中に一度しか使えません"))

# =====================================================================================
# Derived quantities (expressions over the state)
# =====================================================================================
me = called(order[turn_pos], "mover")  # the player to move (turn_pos changes only when a turn ends)
N = game.num_players


def _sum(xs):
    """``xs[0] + xs[1] + ...`` written out term by term."""
    total = xs[0]
    for x in xs[1:]:
        total = total + x
    return total
