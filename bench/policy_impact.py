"""Winner-flip rates of Hawaii's interpretation points: random players against MCTS.

For every point and every option other than its default, the default and that option are
played in lockstep (``rulespec.check.impact``) by uniform random players and by OpenSpiel's
MCTS bot (``--simulations`` per move, leaves valued by ``--rollout``-step random playouts
and then the score), the same seeds, the same player counts (2-5 in turn). Prints a
Markdown table (rates with 95 % Wilson intervals) and, with ``--json FILE``, every number.
Budgets are counts; CPU seconds are printed as a note only (the machine is shared).

    .venv/bin/python bench/policy_impact.py --games 20 --simulations 8 --strength 10

``--strength N`` first says how strong that MCTS budget is: N 2-player games of MCTS
against random play, seats alternating.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

import rulespec
from rulespec.check.impact import impact
from rulespec.check.policy import MctsPolicy


def strength(game: str, games: int, policy: MctsPolicy, seed: int) -> dict:
    """How strong the MCTS budget is: 2-player games of MCTS against uniform random play,
    seats alternating; MCTS's wins, shared wins and losses."""
    from rulespec.check.policy import RandomPolicy, chooser
    model = rulespec.load(game)
    tally = {"won": 0, "shared": 0, "lost": 0}
    for g in range(games):
        rng = random.Random(f"{seed}:strength:{g}")
        seat = g % 2
        mcts, plain = chooser(policy, model, rng), chooser(RandomPolicy(), model, rng)
        state = model.initial_state(2)
        while not model.is_terminal(state):
            legal = model.legal_actions(state)
            who = model.current_player(state)
            pick = (mcts if who == seat else plain)(state, legal)
            state = model.apply(state, legal[pick])
        winners = model.winners(state)
        tally["won" if winners == [seat] else "shared" if seat in winners else "lost"] += 1
    return tally


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="hawaii")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--random-games", type=int, default=None,
                    help="games for random play (default: --games)")
    ap.add_argument("--simulations", type=int, default=8)
    ap.add_argument("--rollout", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--points", default=None, help="comma-separated point names")
    ap.add_argument("--json", default=None, help="write every number here")
    ap.add_argument("--strength", type=int, default=0,
                    help="also play this many 2-player games of MCTS against random play")
    args = ap.parse_args()
    base = rulespec.load(args.game)
    mcts = MctsPolicy(simulations=args.simulations, rollout=args.rollout)
    wanted = None if args.points is None else set(args.points.split(","))
    if wanted == {"none"}:
        wanted = set()
    rows = []
    print("| point | against | random: parts; winner changes | mcts: parts; winner changes |")
    print("|---|---|---|---|")
    for point in base.spec.interpretations:
        if wanted is not None and point.name not in wanted:
            continue
        for option in point.options:
            if option == point.default:
                continue
            other = rulespec.load(args.game, {point.name: option})
            t0 = time.process_time()
            r = impact(base, other, args.random_games or args.games, args.seed)
            t1 = time.process_time()
            m = impact(base, other, args.games, args.seed, policy=mcts)
            t2 = time.process_time()
            rows.append({"point": point.name, "default": point.default, "against": option,
                         "random": r.to_json(), "mcts": m.to_json(),
                         "cpu_seconds": {"random": round(t1 - t0, 1),
                                         "mcts": round(t2 - t1, 1)}})
            print(f"| `{point.name}` | `{option}` | parts {r.parted}; winner "
                  f"{r.winner_changed} | parts {m.parted}; winner {m.winner_changed} |",
                  flush=True)
    doc = {"game": args.game, "games": args.games, "seed": args.seed,
           "policy": mcts.describe(), "rows": rows, "loadavg": os.getloadavg()}
    if args.strength:
        t0 = time.process_time()
        doc["strength"] = strength(args.game, args.strength, mcts, args.seed)
        print(f"mcts against random, {args.strength} 2-player games: {doc['strength']} "
              f"({time.process_time() - t0:.0f} CPU s)")
    print(f"mcts: {mcts.describe()}; load average at the end {os.getloadavg()[0]:.1f}")
    if args.json:
        tmp = args.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f, indent=1)
        os.replace(tmp, args.json)


if __name__ == "__main__":
    main()
