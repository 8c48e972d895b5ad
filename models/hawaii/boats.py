"""§ボートの使用 (using boats) as expressions: which boats a trip takes and whether the
player still has them, how many may go together, what they carry, and how a trip's feet are
paid (feet, fruit, or mixed through exchange cottages); shared by fishing (§釣り) and island
visits (§島の訪問), whose actions are in spec.py (a part of spec.py)."""

from rulespec.spec import all_of, any_of, if_, implies, to_int

from .readings import combine_boats, exchange_direction, fruit_payment
from .spec import BOAT_II_CAP, BOAT_I_CAP, CANOE_CAP, book
from .state import _sum, boats, boats_used, canoe_used, feet, fruit, me, shells
from .villages import exchange_capacity
from .vocabulary import BOAT_USES, BoatUse, FootPay, Level

def boats_needed(use, which: int):
    """How many boats of a kind (0 canoe, 1 level I, 2 level II) a BoatUse takes."""
    terms = [to_int(use == BoatUse[u]) * n[which] for u, n in BOAT_USES.items() if n[which]]
    return _sum(terms)


def boats_available(use):
    return all_of(
        boats_needed(use, 0) <= 1 - to_int(canoe_used[me]),
        boats_needed(use, 1) <= boats[me, Level.I] - boats_used[me, Level.I],
        boats_needed(use, 2) <= boats[me, Level.II] - boats_used[me, Level.II])


def boats_combine(use):
    """combine_boats: one boat, two together, or (any) up to three together."""
    by_count = {n: [BoatUse[u] for u, c in BOAT_USES.items() if sum(c) == n] for n in (1, 2, 3)}
    return any_of(use.is_one_of(*by_count[1]),
                  all_of(use.is_one_of(*by_count[2]), combine_boats.is_one_of("two", "any")),
                  all_of(use.is_one_of(*by_count[3]), combine_boats.is_("any")))


def boat_capacity(use):
    return (CANOE_CAP * boats_needed(use, 0) + BOAT_I_CAP * boats_needed(use, 1)
            + BOAT_II_CAP * boats_needed(use, 2))


def use_boats(rule, use):
    rule.set(canoe_used[me], any_of(canoe_used[me], boats_needed(use, 0) == 1),
             source=book.at("ボートの使用", "１つのボートは１ラウンド中に一度しか使えません"))
    rule.add(boats_used[me, Level.I], boats_needed(use, 1))
    rule.add(boats_used[me, Level.II], boats_needed(use, 2))


def trip_exchange_ok(pay, swap):
    """Exchanging ``swap`` of a trip's feet needs that much exchange cottage capacity
    (fruit for part of the feet needs none with fruit_payment=per_unit)."""
    return any_of(swap == 0, swap <= exchange_capacity(me),
                  all_of(pay == FootPay.feet_and_fruit, fruit_payment.is_("per_unit")))


def trip_exchange_direction_ok(pay, swap):
    """exchange_direction=price_only: no exchange cottage mixes a trip's feet (fruit for
    part of them only where fruit_payment=per_unit lets fruit mix without one)."""
    return implies(exchange_direction.is_("price_only"),
                   any_of(swap == 0, all_of(pay == FootPay.feet_and_fruit,
                                            fruit_payment.is_("per_unit"))))


def trip_payment_ok(due, pay, swap):
    """A boat trip's feet: ``swap`` of them exchanged (exchange cottage), the rest in feet or
    fruit. feet / fruit: the ``swap`` feet are paid in shells; feet_and_fruit: in fruit."""
    rest = due - swap
    return all_of(swap <= due,
                  if_(pay == FootPay.feet_and_fruit,
                      # a real mix: fruit for all of it is 'fruit', for none of it 'feet'
                      all_of(swap >= 1, rest >= 1, fruit[me] >= swap, feet[me] >= rest),
                      all_of(shells[me] >= swap,
                             if_(pay == FootPay.feet, feet[me] >= rest,
                                 all_of(rest >= 1, fruit[me] >= rest)))))


def pay_trip(rule, due, pay, swap):
    rest = rule.let(due - swap, name="rest")
    with rule.when(pay == FootPay.feet_and_fruit,
                   source=book.at("タイル効果の詳細", "貝、足、フルーツを混ぜて支払うことができます")):
        rule.add(fruit[me], -swap, source=book.at("タイル効果の詳細", "貝、足、フルーツを混ぜて支払うことができます"))
        rule.add(feet[me], -rest, source=book.at("釣り"))
    with rule.otherwise():
        rule.add(shells[me], -swap, source=book.at("タイル効果の詳細", "交換コテージ"))
        with rule.when(pay == FootPay.feet, source=book.at("釣り")):
            rule.add(feet[me], -rest)
        with rule.otherwise():
            rule.add(fruit[me], -rest, source=book.at("画面説明", "フルーツ、貝にも足の代わりにも使える"))
