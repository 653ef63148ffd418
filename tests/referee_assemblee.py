"""Independent referee for L'Assemblée game records (RULES.md Part A, Part M, Part V).

``audit_assemblee(record)`` (also exported as ``audit``) replays one L'Assemblée record
in the format of GAME_RECORD.md and returns every departure from the rules it can see,
as strings ``"<where>: [<rule ID>] <what>"``; an empty list means the game was played
exactly by the rules as far as the record shows.

Written from RULES.md, GAME_RECORD.md and game_record.schema.json only: it imports
nothing from ``demos_sim`` so that it can catch the engine's mistakes.

How the replay works
--------------------
The referee keeps its own ledger: every player's gold and renown, the players in the
game, the Master of Ceremonies, the event deck and its position, the pending harmful
events with their postponements, the Brigand's targets for the next income, the Oracle
holder whose benefit applied, and each Arthas's cancellation. It applies the record's
decisions (bids, spending, pledges, targets, purchases, proposals, votes) phase by phase
and checks every figure the record derives from them. After a violation the replay
*follows the record* where the record's value can be used (holders, resolved flags,
collapse, who passed, ``gold`` / ``renown`` after each round), so that one engine
mistake gives one message, not a cascade.

Readings of points the texts leave open
---------------------------------------
- Phase order in a round: A2 income, A3 event, A4 auction (characters in the order
  revealed, each auction paid before the next: a bid is at most the gold the player
  holds at that auction), A5.1 good event, A5.2 pending events oldest first (each
  pledge at most the gold held then), A5.3 collapse, A7 benefits, A8 ostracism, A9
  honours.
- A3: a harmful event joins the end of the pending list with ``postponed`` 0 and is
  settled in the same round's A5.2. ``event_draw = deck``: the record's ``event_deck``
  is the 15 cards, ``round.event_deck`` is non-null exactly in the rounds whose draw
  found the deck empty (rounds 15, 30 … counted from 0), and each event is the next
  card (so no event repeats within a deck). ``event_draw = independent``: there is no
  event deck — ``event_deck`` is null at the top and in every round — and each event
  may be any of the 15, repeats allowed (a single record cannot show the draw is
  uniform; that is the engine tests' business).
- A4: the number of characters counts the players in the game at the start of the
  round. The winner is the highest *effective* bid (Leremac: paid + 2 for the Thief,
  Assassin and Brigand, a bid of 0 included) when it is at least 1; among the tied the
  most renown (at the auction), then the MC's choice: any of those still tied is legal.
  ``round.oracle`` is non-null exactly when the previous round's benefits list the
  Oracle (its benefit applied) and its holder is still in the game; ``views`` lists
  ``[auction index, seat seen]`` pairs, every seat another player in the game.
  ``oracle_view = three_bids``: exactly one view for each of auctions 0, 1 and 2 and
  none for later auctions (the same seat may be seen twice). ``three_players``: a set
  ``S`` of ``min(3, others in the game)`` distinct other players and the views are
  exactly every revealed auction × every seat of ``S`` (no duplicate pair).
- A11 Nimos: each entry names a Nimos player in the game (``seat`` may be left out
  when only one Nimos player is in the game), at most one entry per Nimos player a
  round, a character revealed this round, ``|to - from| == 1``, ``from`` and ``to``
  within the gold he held at that auction, and the recorded bid equals ``to``.
- A5.1: the stopper is the holder of the stopping character (Brigand: harvest, Thief:
  triumph, Master of Spectacles: wedding); harvest and triumph give their gold to every
  player in the game; the wedding's ``players`` are 2 distinct players in the game
  (null when stopped, and null for harvest and triumph).
- A5.2: ``pending`` lists exactly the referee's pending events, oldest first, with the
  ``postponed`` value before this round's settlement and ``cost = base + X + 3·p``
  (``postpone_surcharge = once``: ``base + X + 3·min(p, 1)``). A character is spent at
  most once a round (good event or pending event).
- A5.3: the total is taken over the events still pending after A5.2 with their new
  ``p`` (and the same cost formula); ``collapse`` when it is at least the threshold. A collapse ends the round:
  benefits, ostracism, honours and honoured are null.
- A7: ``benefits`` lists, in A4 order, every held character not spent whose holder is
  still in the game when its turn comes; a benefit whose holder was assassinated
  earlier in A7 does not apply and is not listed. When an assassination leaves fewer
  than ``min_players`` the game ends at once: no later benefit is listed, and
  ostracism, honours and honoured are null. The Assassin's 25 gold are paid whenever he
  names a target, also when the kill is blocked (Guard) or cancelled (Arthas).
  ``blocked`` must be true when the target holds an unspent Captain of the Guard; it may
  be true when the target is an Arthas who has not cancelled yet (his choice, spending
  his once a game); otherwise false.
- A8: ``pledges`` has 0 for every non-supporter and for the target. The thresholds
  count the players in the game at A8 (the target included) and their gold before the
  pledges. Each player left gets ``ceil(gold / k)`` and ``ceil(renown / k)`` of the
  exiled player's, ``k`` the players left. ``new_mc`` is non-null exactly when the
  exiled player was the MC, and names a player left.
- A9: ties on votes by most renown after A8, then the MC's choice (any still tied).
- A10: a game ends after ``rounds`` rounds, at a collapse, or when an assassination or
  an exile leaves fewer than ``min_players``; an early end by ``min_players`` still has
  winners (A10 among the players left). Scores are renown + ⌊gold / 3⌋ of the players in
  the game; winners the highest score, then most gold, then shared; a collapse none.
  ``final.tie_choice`` is null except under ``final_tie = mc_choice`` when, without a
  collapse, two or more players are still tied after gold: it then names the MC in the
  game at the end (the setup MC as changed by assassinations and exiles), ``tied`` the
  exact set of those players, and ``chosen`` one of them, the only winner.
- A11 dealing: personalities are accepted when, read in seat order from some starting
  seat (the dealing order is not specified), every block of 6 consecutive deals holds
  no personality twice.
"""

from __future__ import annotations

import sys
from collections import Counter

try:  # imported as tests.referee_assemblee
    from .referee_common import RefereeBase, audit as _audit, main as run_cli, short as _short
except ImportError:  # imported with tests/ on sys.path (pytest's default), or run as a script
    from referee_common import RefereeBase, audit as _audit, main as run_cli, short as _short  # type: ignore[no-redef]

# RULES.md Part V: the L'Assemblée variants, and nothing else.
ASSEMBLEE_VARIANTS = ("rounds", "collapse_threshold", "min_players", "personalities", "akikos_income",
                      "oracle_view", "postpone_surcharge", "event_draw", "final_tie")
VARIANT_DEFAULTS = {"rounds": 10, "collapse_threshold": None, "min_players": 3, "personalities": False,
                    "akikos_income": "bonus", "oracle_view": "three_bids", "postpone_surcharge": "per_round",
                    "event_draw": "deck", "final_tie": "shared"}
# Part V: the named values of the L'Assemblée variants that take one.
VARIANT_VALUES = {"akikos_income": ("bonus", "total"), "oracle_view": ("three_bids", "three_players"),
                  "postpone_surcharge": ("per_round", "once"), "event_draw": ("deck", "independent"),
                  "final_tie": ("shared", "mc_choice")}
CONTRACT = 2
# GAME_RECORD.md: every key shown is required (null where it does not apply).
RECORD_KEYS = ("game", "contract", "players", "variants", "seed", "policies", "personalities", "mc",
               "event_deck", "rounds", "final")
ROUND_KEYS = ("in_game", "mc", "income", "event_deck", "event", "revealed", "oracle", "bids", "nimos",
              "holders", "good_event", "pending", "collapse", "benefits", "ostracism", "honours", "honoured",
              "gold", "renown")
FINAL_KEYS = ("collapse", "scores", "winners", "tie_choice")

CHARACTERS = ("spectacles", "guard", "thief", "assassin", "peddler", "courtesan", "oracle", "priest", "hero",
              "brigand", "athlete", "broker", "builder", "philosopher", "crier")
PERSONALITIES = ("akikos", "leremac", "mirnok", "nimos", "arthas", "ulios")
# A6: harmful events -> (base cost, resolving character).
HARMFUL = {"epidemic": (6, "oracle"), "famine": (5, "peddler"), "flood": (5, "priest"),
           "olympics": (3, "athlete"), "crime_lord": (2, "assassin"), "earthquake": (6, "builder"),
           "embargo": (3, "courtesan"), "sparta": (5, "guard"), "metics": (4, "philosopher"),
           "rumour": (2, "crier"), "idol": (4, "hero")}
# A5.1: good events -> the character whose holder may stop them.
GOOD = {"harvest": "brigand", "triumph": "thief", "wedding": "spectacles"}
GOOD_GOLD = {"harvest": 10, "triumph": 5}
WEDDING_RENOWN = 3
EVENTS = tuple(HARMFUL) + tuple(GOOD) + ("blank",)
# A7: fixed benefits.
RENOWN_BENEFIT = {"spectacles": 5, "priest": 3, "hero": 4, "athlete": 3, "philosopher": 2}
GOLD_BENEFIT = {"peddler": 7, "broker": 4}
PURCHASES = {"builder": {3: 2, 4: 5, 6: 8}, "crier": {3: 1, 4: 2, 6: 3}}
TARGETED = ("thief", "assassin", "courtesan", "brigand")
GUARDED = ("thief", "assassin", "brigand")  # Guard immunity and Arthas (A7, A11)
LEREMAC_CHARACTERS = ("thief", "assassin", "brigand")
LEREMAC_BONUS = 2
ASSASSIN_PRICE = 25
INCOME, BRIGAND_INCOME, AKIKOS_BONUS, AKIKOS_TOTAL = 7, 1, 6, 6
SPEND_RENOWN = 3
PROPOSER_RENOWN = 3
HONOUR_RENOWN = 5
ORACLE_SEES = 3          # A4 three_players: 3 other players, seen at every auction
ORACLE_BIDS = 3          # A4 three_bids: one other player's bid at each of the first 3 auctions
SURCHARGE = 3            # A5.2: +3 a round postponed (per_round), or once


def collapse_threshold(players_at_start: int, variant) -> int:
    """A5.3: the threshold in force (the variant, or by players at the start)."""
    if variant is not None:
        return variant
    if players_at_start <= 7:
        return 20
    if players_at_start <= 11:
        return 35
    return 40


def characters_revealed(in_game: int) -> int:
    """A4: ``max(6, min(15, players in the game))``."""
    return max(6, min(15, in_game))


def event_cost(event: str, in_game: int, postponed: int, surcharge: str = "per_round") -> int:
    """A5.2: ``base + X + 3·p``; ``postpone_surcharge = once``: ``base + X + 3·min(p, 1)``."""
    p = min(postponed, 1) if surcharge == "once" else postponed
    return HARMFUL[event][0] + in_game + SURCHARGE * p


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def ostracism_thresholds(in_game: int, total_gold: int) -> tuple[int, int]:
    """A8: (supporters needed, gold needed) = (ceil(2/3 × X), ceil(1/4 × gold))."""
    return ceil_div(2 * in_game, 3), ceil_div(total_gold, 4)


def income_of(personality, brigand_targeted: bool, akikos_income: str) -> int:
    """A2 / A11 / A12: gold gained by one player in the game."""
    if brigand_targeted:
        return BRIGAND_INCOME
    if personality == "akikos":
        return INCOME + AKIKOS_BONUS if akikos_income == "bonus" else AKIKOS_TOTAL
    return INCOME


def auction_candidates(bids, alive, renown, character: str, personalities=None) -> list[int]:
    """A4: the seats that may legally win one auction ([] when nobody wins).

    Highest effective bid (Leremac +2 on the Thief, Assassin and Brigand) when at least
    1; ties by most renown; the remaining tie is the MC's choice."""
    eff = {}
    for s in alive:
        bonus = LEREMAC_BONUS if (personalities and personalities[s] == "leremac"
                                  and character in LEREMAC_CHARACTERS) else 0
        eff[s] = bids[s] + bonus
    if not eff:
        return []
    top = max(eff.values())
    if top < 1:
        return []
    tied = [s for s in alive if eff[s] == top]
    best = max(renown[s] for s in tied)
    return sorted(s for s in tied if renown[s] == best)


def honour_candidates(votes: dict, renown) -> list[int]:
    """A9: seats that may be honoured given {voter: voted seat}."""
    count = Counter(votes.values())
    if not count:
        return []
    top = max(count.values())
    tied = [s for s, k in count.items() if k == top]
    best = max(renown[s] for s in tied)
    return sorted(s for s in tied if renown[s] == best)


def final_winners(scores: dict, gold: dict) -> list[int]:
    """A10: highest score, then most gold, then shared ({seat: score}, {seat: gold})."""
    if not scores:
        return []
    top = max(scores.values())
    tied = [s for s in scores if scores[s] == top]
    g = max(gold[s] for s in tied)
    return sorted(s for s in tied if gold[s] == g)


def personalities_dealt_legally(pers: list) -> bool:
    """A11 / A12: some starting seat makes every block of 6 consecutive deals distinct."""
    n = len(pers)
    for start in range(n):
        seq = [pers[(start + i) % n] for i in range(n)]
        if all(len(set(seq[i:i + 6])) == len(seq[i:i + 6]) for i in range(0, n, 6)):
            return True
    return False


def next_on_left(seat: int, alive, n: int):
    """A7: the next player on the left (seat + 1, + 2 …) still in the game."""
    for k in range(1, n + 1):
        s = (seat + k) % n
        if s in alive:
            return s
    return None


# ---------------------------------------------------------------------------------------





def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_nat(x) -> bool:
    return _is_int(x) and x >= 0


class _End(Exception):
    """The game ended inside a round (A7 assassination below min_players)."""


class _Referee(RefereeBase):
    def check_header(self) -> bool:
        rec = self.record
        if rec.get("game") != "assemblee":
            self.bad("record", "GAME_RECORD", f"game must be 'assemblee', got {_short(rec.get('game'))}")
            return False
        if rec.get("contract") != CONTRACT or isinstance(rec.get("contract"), bool):
            self.bad("record", "GAME_RECORD", f"contract must be {CONTRACT}, got {_short(rec.get('contract'))}")
        for key in RECORD_KEYS:
            if key not in rec:
                self.bad("record", "GAME_RECORD", f"key {key!r} is missing (every key is required)")
        n = rec.get("players")
        if not _is_int(n) or not 4 <= n <= 15:
            self.bad("record", "Part A", f"players must be 4–15, got {_short(n)}")
            return False
        self.n = n

        variants = rec.get("variants")
        v = dict(VARIANT_DEFAULTS)
        if not isinstance(variants, dict):
            self.bad("record", "Part V", f"variants must be an object, got {_short(variants)}; replayed with the defaults")
        else:
            missing = [k for k in ASSEMBLEE_VARIANTS if k not in variants]
            extra = sorted(str(k) for k in variants if k not in ASSEMBLEE_VARIANTS)
            if missing:
                self.bad("record", "Part V", f"variants lacks {missing}; replayed with the defaults for them")
            if extra:
                self.bad("record", "Part V", f"variants holds names that are not L'Assemblée variants: {extra}")
            checks = {
                "rounds": lambda x: _is_int(x) and x >= 1,
                "collapse_threshold": lambda x: x is None or (_is_int(x) and x >= 1),
                "min_players": lambda x: _is_int(x) and x >= 2,
                "personalities": lambda x: isinstance(x, bool),
            }
            for name, values in VARIANT_VALUES.items():
                checks[name] = lambda x, values=values: isinstance(x, str) and x in values
            for name, good in checks.items():
                if name in variants:
                    if good(variants[name]):
                        v[name] = variants[name]
                    else:
                        self.bad("record", "Part V", f"variant {name} has a value outside Part V: "
                                 f"{_short(variants[name])}; replayed with the default")
        self.v = v

        policies = rec.get("policies")
        if not isinstance(policies, list) or len(policies) != n or not all(isinstance(p, str) for p in policies):
            self.bad("record", "GAME_RECORD", f"policies must list one policy name per seat ({n}), got {_short(policies)}")
        seed = rec.get("seed")
        if not (_is_int(seed) or (isinstance(seed, list) and seed and all(_is_int(x) for x in seed))):
            self.bad("record", "GAME_RECORD", f"seed must be an integer or a non-empty list of integers, got {_short(seed)}")

        # A11: personalities.
        pers = rec.get("personalities")
        self.pers = None
        if v["personalities"]:
            if not (isinstance(pers, list) and len(pers) == n and all(p in PERSONALITIES for p in pers)):
                self.bad("record", "A11", f"personalities must list one of {list(PERSONALITIES)} per seat ({n}) "
                         f"when the variant is on, got {_short(pers)}")
            else:
                self.pers = list(pers)
                if not personalities_dealt_legally(pers):
                    self.bad("record", "A11", f"personalities {pers} repeat one within 6 deals "
                             "(drawn without repeats while they last, reshuffled when all 6 are dealt)")
        elif pers is not None:
            self.bad("record", "A11", f"personalities must be null when the variant is off, got {_short(pers)}")

        # A1: the MC.
        mc = rec.get("mc")
        if not (_is_int(mc) and 0 <= mc < n):
            self.bad("record", "A1", f"mc must be a seat 0–{n - 1}, got {_short(mc)}")
            return False
        self.mc = mc
        deck = rec.get("event_deck")
        if v["event_draw"] == "independent":
            if deck is not None:
                self.bad("record", "A3", f"event_deck must be null under event_draw = independent (no event deck), "
                         f"got {_short(deck)}")
            self.deck = None
            return True
        if not (isinstance(deck, list) and sorted(map(str, deck)) == sorted(EVENTS)):
            self.bad("record", "A1", f"event_deck must be the 15 event cards shuffled, got {_short(deck)}")
            return False
        self.deck = list(deck)
        return True

    # -- helpers ----------------------------------------------------------------------

    def personality(self, s):
        return self.pers[s] if self.pers else None

    def amounts(self, where: str, rule: str, name: str, value, alive) -> list[int] | None:
        """A by-seat list of whole amounts, 0 for players out; None when unusable."""
        n = self.n
        if not (isinstance(value, list) and len(value) == n and all(_is_nat(x) for x in value)):
            self.bad(where, rule, f"{name} must list one whole number ≥ 0 per seat ({n}), got {_short(value)}")
            return None
        out = [s for s in range(n) if s not in alive and value[s] != 0]
        if out:
            self.bad(where, "GAME_RECORD", f"{name} must be 0 for players out of the game, not for seats {out}: {_short(value)}")
            value = [x if s in alive else 0 for s, x in enumerate(value)]
        return list(value)

    def seat_in(self, x, alive) -> bool:
        return _is_int(x) and x in alive

    def compare_ledger(self, where: str, rnd) -> None:
        """The round's gold and renown against the ledger; then follow the record."""
        n = self.n
        for name, ledger in (("gold", self.gold), ("renown", self.renown)):
            value = rnd.get(name)
            expected = [ledger[s] if s in self.alive else None for s in range(n)]
            if not (isinstance(value, list) and len(value) == n):
                self.bad(where, "GAME_RECORD", f"{name} must list one entry per seat ({n}), got {_short(value)}")
                continue
            if value != expected:
                diffs = [f"seat {s}: {_short(value[s])} (expected {_short(expected[s])})"
                         for s in range(n) if value[s] != expected[s]]
                self.bad(where, "A2–A9", f"{name} after the round differs from the replay: " + "; ".join(diffs[:8])
                         + (f" … ({len(diffs)} seats)" if len(diffs) > 8 else ""))
                for s in self.alive:
                    if _is_nat(value[s]):
                        ledger[s] = value[s]

    # -- the game -----------------------------------------------------------------------

    def replay(self) -> None:
        rec, n = self.record, self.n
        self.alive: set[int] = set(range(n))
        self.gold = [0] * n
        self.renown = [3 if self.personality(s) == "mirnok" else 0 for s in range(n)]  # A1, A11
        self.pos = 0
        self.pending: list[list] = []  # [event, postponed]
        self.brigand_next: set[int] = set()
        self.oracle_next = None
        self.arthas_used: set[int] = set()
        self.threshold = collapse_threshold(n, self.v["collapse_threshold"])
        self.end = None  # "collapse" | "min_players" | "rounds"

        rounds = rec.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            self.bad("record", "GAME_RECORD", f"rounds must be a non-empty list, got {_short(rounds)}")
            return
        total = self.v["rounds"]
        stopped_at = None
        for r, rnd in enumerate(rounds):
            try:
                self.replay_round(r, rnd)
            except Exception as exc:  # noqa: BLE001 - a malformed record is a violation, not a crash
                self.bad(f"round {r}", "replay", f"could not replay this round ({type(exc).__name__}: {exc}); replay stopped")
                return
            if self.end is not None:
                stopped_at = r + 1
                break
            if r + 1 >= total:
                self.end = "rounds"
                stopped_at = r + 1
                break
        self.replayed = True
        if stopped_at is None:
            self.bad("record", "A1", f"the record stops after {len(rounds)} rounds but the game was not over "
                     f"(rounds {total}, no collapse, {len(self.alive)} players in the game)")
        elif len(rounds) != stopped_at:
            why = {"collapse": "the city collapsed (A5.3)",
                   "min_players": f"fewer than min_players {self.v['min_players']} remained (A7/A8)",
                   "rounds": f"the game lasts {total} rounds (A1)"}[self.end]
            self.bad("record", "A10", f"the game ends after {stopped_at} rounds ({why}), "
                     f"but the record has {len(rounds)}")

    def replay_round(self, r: int, rnd) -> None:
        where = f"round {r}"
        n = self.n
        if not isinstance(rnd, dict):
            raise TypeError("a round must be an object")
        missing = [key for key in ROUND_KEYS if key not in rnd]
        if missing:
            self.bad(where, "GAME_RECORD", f"keys {missing} are missing (every key is required, null where it does not apply)")

        # Players in the game and the MC.
        in_game = rnd.get("in_game")
        if not (isinstance(in_game, list) and all(_is_int(s) for s in in_game)) or set(in_game) != self.alive \
                or len(set(in_game)) != len(in_game):
            self.bad(where, "A7/A8", f"in_game must be the players not exiled or assassinated {sorted(self.alive)}, "
                     f"got {_short(in_game)}")
        alive = self.alive
        mc = rnd.get("mc")
        if mc != self.mc:
            rule = "A1" if r == 0 else "A7/A8"
            self.bad(where, rule, f"mc must be {self.mc} (the MC at setup, replaced only by an assassination "
                     f"or an exile), got {_short(mc)}")
            if self.seat_in(mc, alive):
                self.mc = mc
        X = len(alive)

        # A2: income.
        exp_income = [income_of(self.personality(s), s in self.brigand_next, self.v["akikos_income"])
                      if s in alive else 0 for s in range(n)]
        income = rnd.get("income")
        if income != exp_income:
            rule = "A2" if not self.pers else "A2/A11"
            why = []
            if self.brigand_next:
                why.append(f"Brigand targets {sorted(self.brigand_next)} get 1")
            if self.pers and "akikos" in self.pers:
                why.append(f"Akikos {self.v['akikos_income']}")
            self.bad(where, rule, f"income must be {exp_income}" + (f" ({', '.join(why)})" if why else "")
                     + f", got {_short(income)}")
        if isinstance(income, list) and len(income) == n and all(_is_nat(x) for x in income):
            for s in alive:
                self.gold[s] += income[s]
        else:
            for s in alive:
                self.gold[s] += exp_income[s]
        self.brigand_next = set()

        # A3: the event.
        new_deck = rnd.get("event_deck")
        if self.deck is None:  # event_draw = independent: any of the 15, repeats allowed, no deck
            if new_deck is not None:
                self.bad(where, "A3", f"event_deck must be null under event_draw = independent, got {_short(new_deck)}")
            event = rnd.get("event")
            if event not in EVENTS:
                raise TypeError(f"event must be one of the 15 events, got {_short(event)}")
        else:
            event = self.deck_event(where, rnd, new_deck)
        if event in HARMFUL:
            self.pending.append([event, 0])
        self.rest_of_round(where, rnd, alive, X, event)

    def deck_event(self, where, rnd, new_deck):
        """A3 under event_draw = deck: the next card, after a reshuffle of an empty deck."""
        if self.pos >= len(self.deck):
            if not (isinstance(new_deck, list) and sorted(map(str, new_deck)) == sorted(EVENTS)):
                self.bad(where, "A3", f"the event deck is empty: event_deck must be the 15 events reshuffled, "
                         f"got {_short(new_deck)}")
            else:
                self.deck = list(new_deck)
            self.pos = 0
        elif new_deck is not None:
            self.bad(where, "A3", f"event_deck must be null (no reshuffle: {len(self.deck) - self.pos} cards left), "
                     f"got {_short(new_deck)}")
        exp_event = self.deck[self.pos] if self.pos < len(self.deck) else None
        self.pos += 1
        event = rnd.get("event")
        if event != exp_event:
            self.bad(where, "A3", f"event must be {_short(exp_event)} (top of the event deck), got {_short(event)}")
            if event not in EVENTS:
                event = exp_event
        return event

    def rest_of_round(self, where, rnd, alive, X, event) -> None:
        """A4 to A9 of one round."""
        n = self.n
        # A4: auction.
        revealed = rnd.get("revealed")
        k = characters_revealed(X)
        if not (isinstance(revealed, list) and all(c in CHARACTERS for c in revealed)
                and len(set(revealed)) == len(revealed)):
            raise TypeError(f"revealed must be a list of distinct characters, got {_short(revealed)}")
        if len(revealed) != k:
            self.bad(where, "A4", f"{k} characters must be revealed (max(6, min(15, {X} players in the game))), "
                     f"got {len(revealed)}")
        self.check_oracle(where, rnd.get("oracle"), alive, len(revealed))
        bids = rnd.get("bids")
        if not (isinstance(bids, list) and len(bids) == len(revealed)):
            raise TypeError(f"bids must hold one list per revealed character ({len(revealed)}), got {_short(bids)}")
        bids = [self.amounts(where, "A4", f"bids for {c}", b, alive) for c, b in zip(revealed, bids)]
        bids = [b if b is not None else [0] * n for b in bids]
        holders = rnd.get("holders")
        if not (isinstance(holders, list) and len(holders) == len(revealed)):
            raise TypeError(f"holders must hold one entry per revealed character ({len(revealed)}), got {_short(holders)}")
        nimos = self.parse_nimos(where, rnd.get("nimos"), revealed, alive)
        self.holder_of: dict[str, int | None] = {}
        for i, c in enumerate(revealed):
            b = bids[i]
            for s in sorted(alive):
                if b[s] > max(0, self.gold[s]):
                    self.bad(where, "A4", f"seat {s} bids {b[s]} for {c} but holds {self.gold[s]} gold")
            for seat, frm, to in nimos.get(c, []):
                if b[seat] != to:
                    self.bad(where, "A11", f"Nimos seat {seat} changed his bid for {c} to {to}, but bids say {b[seat]}")
                if frm > self.gold[seat] or to > self.gold[seat]:
                    self.bad(where, "A12", f"Nimos seat {seat} changes his bid for {c} from {frm} to {to} "
                             f"beyond his {self.gold[seat]} gold")
            cands = auction_candidates(b, sorted(alive), self.renown, c, self.pers)
            h = holders[i]
            if not cands:
                if h is not None:
                    self.bad(where, "A4", f"nobody wins {c} (no effective bid of 1 or more: {b}), "
                             f"but holders names {_short(h)}")
                h = None
            elif h not in cands:
                tie = " (ties: most renown, then the MC's choice)" if len(cands) > 1 else ""
                self.bad(where, "A4", f"holder of {c} must be {cands[0] if len(cands) == 1 else cands}{tie} "
                         f"with bids {b} and renown {[self.renown[s] if s in alive else None for s in range(n)]}, "
                         f"got {_short(h)}")
                if not self.seat_in(h, alive):
                    h = cands[0]
            self.holder_of[c] = h
            for s in alive:
                self.gold[s] -= b[s]  # all-pay

        # A5.1: the good event.
        self.spent: set[str] = set()
        ge = rnd.get("good_event")
        if event in GOOD:
            self.good_event(where, event, ge, alive)
        elif ge is not None:
            self.bad(where, "A5.1", f"good_event must be null when the event ({_short(event)}) is not good, got {_short(ge)}")

        # A5.2: pending events, oldest first.
        self.settle_pending(where, rnd.get("pending"), alive, X)

        # A5.3: collapse.
        total = sum(event_cost(e, X, p, self.v["postpone_surcharge"]) for e, p in self.pending)
        exp_collapse = total >= self.threshold
        collapse = rnd.get("collapse")
        if collapse is not exp_collapse:
            self.bad(where, "A5.3", f"collapse must be {str(exp_collapse).lower()} (pending "
                     f"{[(e, p) for e, p in self.pending]} cost {total} in all, threshold {self.threshold}), "
                     f"got {_short(collapse)}")
            if not isinstance(collapse, bool):
                collapse = exp_collapse
        if collapse:
            for key in ("benefits", "ostracism", "honours", "honoured"):
                if rnd.get(key) is not None:
                    self.bad(where, "A5.3", f"{key} must be null after a collapse (the game ends), got {_short(rnd.get(key))}")
            self.end = "collapse"
            self.compare_ledger(where, rnd)
            return

        # A7: benefits.
        oracle_applied = self.benefits(where, rnd.get("benefits"), revealed)
        if self.end is not None:
            for key in ("ostracism", "honours", "honoured"):
                if rnd.get(key) is not None:
                    self.bad(where, "A12", f"{key} must be null: an assassination left fewer than min_players "
                             f"{self.v['min_players']} and the game ended at once, got {_short(rnd.get(key))}")
            self.compare_ledger(where, rnd)
            return

        # A8: ostracism.
        self.ostracism(where, rnd.get("ostracism"))
        if self.end is not None:
            for key in ("honours", "honoured"):
                if rnd.get(key) is not None:
                    self.bad(where, "A8", f"{key} must be null: an exile left fewer than min_players "
                             f"{self.v['min_players']} and the game ended at once, got {_short(rnd.get(key))}")
            self.compare_ledger(where, rnd)
            return

        # A9: honours.
        self.honours(where, rnd.get("honours"), rnd.get("honoured"))
        self.compare_ledger(where, rnd)
        self.oracle_next = oracle_applied

    # -- phases -------------------------------------------------------------------------

    def check_oracle(self, where, oracle, alive, auctions: int) -> None:
        """A4 / A12: the Oracle advantage, per oracle_view."""
        exp = self.oracle_next if self.oracle_next in alive else None
        if exp is None:
            if oracle is not None:
                why = ("no Oracle benefit applied last round" if self.oracle_next is None
                       else f"last round's Oracle holder {self.oracle_next} is out of the game")
                self.bad(where, "A4", f"oracle must be null ({why}), got {_short(oracle)}")
            return
        if not isinstance(oracle, dict):
            self.bad(where, "A4", f"oracle must be {{'seat': {exp}, 'views': …}} (last round's Oracle holder, "
                     f"whose benefit applied, is in the game), got {_short(oracle)}")
            return
        if oracle.get("seat") != exp:
            self.bad(where, "A4", f"oracle seat must be {exp} (last round's Oracle holder), got {_short(oracle.get('seat'))}")
        views = oracle.get("views")
        others = alive - {exp}
        if not (isinstance(views, list) and all(isinstance(x, list) and len(x) == 2 and _is_int(x[0])
                                                and _is_int(x[1]) for x in views)):
            self.bad(where, "A4", f"oracle views must be a list of [auction index, seat] pairs, got {_short(views)}")
            return
        pairs = [tuple(x) for x in views]
        if len(set(pairs)) != len(pairs):
            self.bad(where, "A4", f"oracle views repeat a pair (one view of a seat per auction): {_short(views)}")
        wrong = sorted({s for _, s in pairs if s not in others})
        if wrong:
            self.bad(where, "A4", f"the Oracle {exp} sees only other players in the game {sorted(others)}, "
                     f"but views name seats {wrong}")
        if self.v["oracle_view"] == "three_bids":
            # one other player's bid at each of the round's first 3 auctions, nothing after
            idx = sorted(i for i, _ in pairs)
            want = list(range(min(ORACLE_BIDS, auctions)))
            if idx != want:
                self.bad(where, "A4", f"under oracle_view = three_bids the Oracle sees one bid at each of auctions "
                         f"{want} and none after, got views at auctions {idx}")
        else:
            # the same min(3, others) distinct players at every auction of the round
            seen = {s for _, s in pairs}
            want = min(ORACLE_SEES, len(others))
            exp_pairs = {(i, s) for i in range(auctions) for s in seen}
            if len(seen) != want or set(pairs) != exp_pairs:
                self.bad(where, "A4", f"under oracle_view = three_players the Oracle sees the bids of the same {want} "
                         f"distinct other players (of {sorted(others)}) at each of the {auctions} auctions, "
                         f"got views {_short(views)}")

    def parse_nimos(self, where, nimos, revealed, alive) -> dict:
        """A11 / A12: Nimos adjustments -> {character: [(seat, from, to)]}."""
        out: dict = {}
        if nimos is None:
            return out
        entries = [nimos] if isinstance(nimos, dict) else nimos
        if not isinstance(entries, list) or (isinstance(nimos, list) and len(nimos) < 2):
            self.bad(where, "A11", f"nimos must be null, one object, or a list of 2 or more objects, got {_short(nimos)}")
            return out
        nimos_seats = sorted(s for s in alive if self.personality(s) == "nimos")
        used = set()
        for e in entries:
            if not isinstance(e, dict):
                self.bad(where, "A11", f"a Nimos adjustment must be an object, got {_short(e)}")
                continue
            seat = e.get("seat")
            if seat is None and isinstance(nimos, dict) and len(nimos_seats) == 1:
                seat = nimos_seats[0]
            if seat not in nimos_seats:
                self.bad(where, "A11", f"Nimos adjustment {_short(e)} must name a Nimos player in the game "
                         f"(Nimos in the game: {nimos_seats})")
                continue
            if seat in used:
                self.bad(where, "A11", f"Nimos seat {seat} adjusts more than once this round (once a round)")
            used.add(seat)
            c, frm, to = e.get("character"), e.get("from"), e.get("to")
            if c not in revealed:
                self.bad(where, "A11", f"Nimos seat {seat} adjusts a bid for {_short(c)}, not revealed this round")
                continue
            if not (_is_nat(frm) and _is_nat(to) and abs(frm - to) == 1):
                self.bad(where, "A12", f"Nimos seat {seat} must change his bid for {c} by exactly 1, not below 0: "
                         f"from {_short(frm)} to {_short(to)}")
                continue
            out.setdefault(c, []).append((seat, frm, to))
        return out

    def good_event(self, where, event, ge, alive) -> None:
        """A5.1."""
        stopper = GOOD[event]
        if not isinstance(ge, dict) or ge.get("event") != event:
            self.bad(where, "A5.1", f"good_event must settle {event}, got {_short(ge)}")
            ge = {"event": event, "stopped_by": None, "players": None}
        if "players" not in ge:
            self.bad(where, "GAME_RECORD", "good_event lacks the key 'players' (null where it does not apply)")
        stopped_by, players = ge.get("stopped_by"), ge.get("players")
        holder = self.holder_of.get(stopper)
        if stopped_by is not None:
            if holder is None or stopped_by != holder:
                self.bad(where, "A5.1", f"{event} can be stopped only by the holder of the {stopper} "
                         f"({'not held this round' if holder is None else 'seat ' + str(holder)}), "
                         f"got stopped_by {_short(stopped_by)}")
            else:
                self.spent.add(stopper)
            if players is not None:
                self.bad(where, "A5.1", f"good_event players must be null when {event} is stopped, got {_short(players)}")
            return
        if event == "wedding":
            if not (isinstance(players, list) and len(players) == 2 and all(self.seat_in(s, alive) for s in players)
                    and players[0] != players[1]):
                self.bad(where, "A5.1", f"the wedding gives 3 renown to 2 distinct players in the game "
                         f"{sorted(alive)}, got players {_short(players)}")
                return
            for s in players:
                self.renown[s] += WEDDING_RENOWN
            return
        if players is not None:
            self.bad(where, "A5.1", f"good_event players must be null for {event}, got {_short(players)}")
        for s in alive:
            self.gold[s] += GOOD_GOLD[event]

    def settle_pending(self, where, pend, alive, X) -> None:
        """A5.2."""
        if not isinstance(pend, list):
            raise TypeError(f"pending must be a list, got {_short(pend)}")
        exp = [(e, p) for e, p in self.pending]
        got = [(x.get("event"), x.get("postponed")) if isinstance(x, dict) else None for x in pend]
        if got != exp:
            self.bad(where, "A5.2", f"pending must list the pending harmful events oldest first with their "
                     f"postponements {exp}, got {got}")
            if not all(isinstance(x, dict) and x.get("event") in HARMFUL and _is_nat(x.get("postponed")) for x in pend):
                raise TypeError("pending entries are unusable")
        left = []
        for j, x in enumerate(pend):
            e, p = x["event"], x["postponed"]
            base, resolver = HARMFUL[e]
            once = self.v["postpone_surcharge"] == "once"
            cost = event_cost(e, X, p, self.v["postpone_surcharge"])
            if x.get("cost") != cost:
                formula = f"3·min({p}, 1)" if once else f"3·{p}"
                self.bad(where, "A5.2/A6", f"pending {j} ({e}, postponed {p}) must cost {base} + {X} + {formula} = "
                         f"{cost} (postpone_surcharge {self.v['postpone_surcharge']}), got {_short(x.get('cost'))}")
            spent_by, pledges, resolved = x.get("spent_by"), x.get("pledges"), x.get("resolved")
            if spent_by is not None:
                holder = self.holder_of.get(resolver)
                if holder is None or spent_by != holder:
                    self.bad(where, "A5.2", f"{e} can be resolved by spending the {resolver} only by its holder "
                             f"({'not held this round' if holder is None else 'seat ' + str(holder)}), "
                             f"got spent_by {_short(spent_by)}")
                elif resolver in self.spent:
                    self.bad(where, "A12", f"the {resolver} is spent twice this round (again on pending {j}, {e})")
                else:
                    self.spent.add(resolver)
                    self.renown[holder] += SPEND_RENOWN
                if pledges is not None:
                    self.bad(where, "GAME_RECORD", f"pledges must be null when the {resolver} is spent, got {_short(pledges)}")
                if resolved is not True:
                    self.bad(where, "A5.2", f"{e} is resolved when its character is spent, got resolved {_short(resolved)}")
                continue
            pl = self.amounts(where, "A5.2", f"pledges for pending {j} ({e})", pledges, alive)
            if pl is None:
                pl = [0] * self.n
            for s in sorted(alive):
                if pl[s] > max(0, self.gold[s]):
                    self.bad(where, "A5.2", f"seat {s} pledges {pl[s]} for {e} but holds {self.gold[s]} gold")
            exp_resolved = sum(pl) >= cost
            if resolved is not exp_resolved:
                self.bad(where, "A5.2", f"{e}: pledges {sum(pl)} against cost {cost}: resolved must be "
                         f"{str(exp_resolved).lower()}, got {_short(resolved)}")
                if not isinstance(resolved, bool):
                    resolved = exp_resolved
            if resolved:
                for s in alive:
                    self.gold[s] -= pl[s]
            else:
                left.append([e, p + 1])
        self.pending = left

    def benefits(self, where, bens, revealed):
        """A7, in the order revealed. Returns the Oracle holder whose benefit applied."""
        if not isinstance(bens, list):
            raise TypeError(f"benefits must be a list, got {_short(bens)}")
        guard = self.holder_of.get("guard")
        immune = guard if (guard is not None and "guard" not in self.spent) else None
        oracle = None
        ei = 0
        for c in revealed:
            h = self.holder_of.get(c)
            if h is None or c in self.spent:
                continue
            e = bens[ei] if ei < len(bens) else None
            matches = isinstance(e, dict) and e.get("character") == c
            if h not in self.alive:
                if matches:
                    self.bad(where, "A7", f"the {c}'s holder {h} was assassinated earlier in A7: "
                             "his benefit does not apply and must not be listed")
                    ei += 1
                continue
            if not matches:
                self.bad(where, "A7", f"benefits must list the {c} (held by seat {h}, not spent) at position {ei} "
                         f"in the order revealed, got {_short(e)}")
                if isinstance(e, dict) and e.get("character") in revealed \
                        and revealed.index(e.get("character")) < revealed.index(c):
                    ei += 1  # the record lists something that should not be there; skip it
                continue
            ei += 1
            if e.get("seat") != h:
                self.bad(where, "A7", f"the {c}'s benefit belongs to its holder {h}, got seat {_short(e.get('seat'))}")
            if c == "oracle":
                oracle = h
            try:
                self.apply_benefit(where, c, h, e, immune)
            except _End:
                self.end = "min_players"
                break
        for e in bens[ei:]:
            self.bad(where, "A7", f"benefits lists {_short(e)}, not a benefit that applies at that point "
                     "(in A4 order, held, not spent, holder in the game, game not over)")
        return oracle

    def apply_benefit(self, where, c, h, e, immune) -> None:
        alive = self.alive
        target, choice, blocked = e.get("target"), e.get("choice"), e.get("blocked")
        if not isinstance(blocked, bool):
            self.bad(where, "GAME_RECORD", f"the {c}'s blocked must be true or false, got {_short(blocked)}")
            blocked = False
        if c in TARGETED:
            if target is None and c == "assassin":
                pass  # A12: only the Assassin may decline
            elif not (self.seat_in(target, alive) and target != h):
                self.bad(where, "A7/A12", f"the {c} must name another player in the game as target "
                         f"(holder {h}, in the game {sorted(alive)}), got {_short(target)}")
                target = None
        elif target is not None:
            self.bad(where, "A7", f"the {c} takes no target, got {_short(target)}")
            target = None
        if c in PURCHASES:
            if choice is not None and choice not in PURCHASES[c]:
                self.bad(where, "A7", f"the {c}'s purchase must be 3, 4 or 6 gold or null, got {_short(choice)}")
                choice = None
        elif choice is not None:
            self.bad(where, "A7", f"the {c} makes no purchase, choice must be null, got {_short(choice)}")
            choice = None

        # Guard immunity and Arthas (A7, A11, A12).
        if c in GUARDED and target is not None:
            arthas_free = self.personality(target) == "arthas" and target not in self.arthas_used
            if target == immune:
                if not blocked:
                    self.bad(where, "A7/A12", f"the {c} targets seat {target}, who holds the Captain of the Guard "
                             "(immune this round): blocked must be true")
                    blocked = True
            elif blocked:
                if arthas_free:
                    self.arthas_used.add(target)
                else:
                    why = ("Arthas has already cancelled once this game" if self.personality(target) == "arthas"
                           else "neither Guard immunity nor Arthas")
                    self.bad(where, "A7/A11", f"the {c} against seat {target} is marked blocked, but {why}")
                    blocked = False
        elif blocked:
            self.bad(where, "A7", f"the {c}" + (" (declined)" if c == "assassin" else "")
                     + " cannot be blocked: blocked must be false")
            blocked = False

        g, rn = self.gold, self.renown
        if c in RENOWN_BENEFIT:
            rn[h] += RENOWN_BENEFIT[c]
        elif c in GOLD_BENEFIT:
            g[h] += GOLD_BENEFIT[c]
        elif c in PURCHASES:
            if choice is not None:
                if g[h] < choice:
                    self.bad(where, "A7", f"seat {h} buys renown with the {c} for {choice} gold but holds {g[h]}")
                g[h] -= choice
                rn[h] += PURCHASES[c][choice]
        elif target is None:
            pass  # no usable target (reported above) or the Assassin declines
        elif c == "thief":
            if not blocked:
                amount = g[target] // 2
                g[target] -= amount
                g[h] += amount
        elif c == "courtesan":
            rn[target] = max(0, rn[target] - 4)
        elif c == "brigand":
            if not blocked:
                self.brigand_next.add(target)
        elif c == "assassin":
            if g[h] < ASSASSIN_PRICE:
                self.bad(where, "A7", f"seat {h} pays 25 gold for the Assassin but holds {g[h]}")
            g[h] -= ASSASSIN_PRICE
            if not blocked:
                alive.discard(target)
                if target == self.mc:
                    self.mc = next_on_left(target, alive, self.n)
                if len(alive) < self.v["min_players"]:
                    raise _End()
        # guard, oracle: nothing now.

    def ostracism(self, where, ost) -> None:
        """A8."""
        if ost is None:
            return
        alive, n = self.alive, self.n
        if not isinstance(ost, dict):
            self.bad(where, "A8", f"ostracism must be null or an object, got {_short(ost)}")
            return
        proposer, target, supporters = ost.get("proposer"), ost.get("target"), ost.get("supporters")
        if not self.seat_in(proposer, alive):
            self.bad(where, "A8", f"the proposer must be a player in the game {sorted(alive)}, got {_short(proposer)}")
        if not self.seat_in(target, alive) or target == proposer:
            self.bad(where, "A8", f"the target must be another player in the game, got {_short(target)} "
                     f"(proposer {_short(proposer)})")
            target = None
        if not (isinstance(supporters, list) and all(self.seat_in(s, alive) for s in supporters)
                and len(set(supporters)) == len(supporters)):
            self.bad(where, "A8", f"supporters must be distinct players in the game, got {_short(supporters)}")
            supporters = [s for s in supporters if self.seat_in(s, alive)] if isinstance(supporters, list) else []
            supporters = list(dict.fromkeys(supporters))
        if proposer not in supporters:
            self.bad(where, "A8", f"the proposer {_short(proposer)} is one of the supporters, got {_short(supporters)}")
        if target in supporters:
            self.bad(where, "A8", f"the target {target} cannot support his own exile, got supporters {_short(supporters)}")
        pl = self.amounts(where, "A8", "ostracism pledges", ost.get("pledges"), alive)
        if pl is None:
            pl = [0] * n
        odd = [s for s in range(n) if pl[s] and s not in supporters]
        if odd:
            self.bad(where, "A12", f"only supporters pledge: seats {odd} pledge without supporting")
        for s in sorted(alive):
            if pl[s] > max(0, self.gold[s]):
                self.bad(where, "A8", f"seat {s} pledges {pl[s]} against seat {target} but holds {self.gold[s]} gold")
        need_people, need_gold = ostracism_thresholds(len(alive), sum(self.gold[s] for s in alive))
        exp_pass = target is not None and len(supporters) >= need_people and sum(pl) >= need_gold
        passed = ost.get("passed")
        if passed is not exp_pass:
            self.bad(where, "A8", f"passed must be {str(exp_pass).lower()}: {len(supporters)} supporters "
                     f"(need ceil(2/3 × {len(alive)}) = {need_people}), pledges {sum(pl)} (need ceil(1/4 × "
                     f"{sum(self.gold[s] for s in alive)}) = {need_gold}), got {_short(passed)}")
            if not isinstance(passed, bool) or target is None:
                passed = exp_pass
        for s in alive:
            self.gold[s] -= pl[s]  # paid whatever the outcome
        new_mc = ost.get("new_mc")
        if not passed:
            if new_mc is not None:
                self.bad(where, "A8", f"new_mc must be null when the exile fails, got {_short(new_mc)}")
            return
        alive.discard(target)
        k = len(alive)
        gold_share = ceil_div(self.gold[target], k) if k else 0
        renown_share = ceil_div(self.renown[target], k) if k else 0
        for s in alive:
            self.gold[s] += gold_share
            self.renown[s] += renown_share
        if self.seat_in(proposer, alive):
            self.renown[proposer] += PROPOSER_RENOWN
        if target == self.mc:
            if not self.seat_in(new_mc, alive):
                self.bad(where, "A8", f"the exiled MC {target} names the new MC among the players left "
                         f"{sorted(alive)}, got new_mc {_short(new_mc)}")
                self.mc = next_on_left(target, alive, n)
            else:
                self.mc = new_mc
        elif new_mc is not None:
            self.bad(where, "A8", f"new_mc must be null: the exiled player {target} is not the MC ({self.mc}), "
                     f"got {_short(new_mc)}")
        if len(alive) < self.v["min_players"]:
            self.end = "min_players"

    def honours(self, where, votes, honoured) -> None:
        """A9."""
        alive, n = self.alive, self.n
        if not (isinstance(votes, list) and len(votes) == n):
            self.bad(where, "A9", f"honours must list one vote per seat ({n}), got {_short(votes)}")
            return
        vote_of = {}
        for s in range(n):
            v = votes[s]
            if s not in alive:
                if v is not None:
                    self.bad(where, "GAME_RECORD", f"honours must be null for seat {s}, out of the game, got {_short(v)}")
                continue
            if not self.seat_in(v, alive) or v == s:
                self.bad(where, "A9", f"seat {s} must vote for another player in the game, got {_short(v)}")
                continue
            vote_of[s] = v
        cands = honour_candidates(vote_of, self.renown)
        if honoured not in cands:
            tie = " (ties: most renown, then the MC's choice)" if len(cands) > 1 else ""
            self.bad(where, "A9", f"honoured must be {cands[0] if len(cands) == 1 else cands}{tie} "
                     f"(votes {dict(sorted(Counter(vote_of.values()).items()))}), got {_short(honoured)}")
            if not self.seat_in(honoured, alive):
                honoured = cands[0] if cands else None
        if honoured is not None:
            self.renown[honoured] += HONOUR_RENOWN

    # -- result ---------------------------------------------------------------------------

    def check_final(self) -> None:
        final = self.record.get("final")
        n = self.n
        if not isinstance(final, dict):
            self.bad("final", "A10", f"final must be an object, got {_short(final)}")
            return
        missing = [key for key in FINAL_KEYS if key not in final]
        if missing:
            self.bad("final", "GAME_RECORD", f"keys {missing} are missing")
        collapse = self.end == "collapse"
        if final.get("collapse") is not collapse:
            self.bad("final", "A5.3", f"collapse must be {str(collapse).lower()}, got {_short(final.get('collapse'))}")
        exp_scores = [self.renown[s] + self.gold[s] // 3 if s in self.alive else None for s in range(n)]
        if final.get("scores") != exp_scores:
            self.bad("final", "A10", f"scores must be renown + ⌊gold / 3⌋ of the players in the game {exp_scores}, "
                     f"got {_short(final.get('scores'))}")
        if collapse:
            exp_winners = []
        else:
            exp_winners = final_winners({s: exp_scores[s] for s in self.alive}, {s: self.gold[s] for s in self.alive})
        winners = final.get("winners")
        choice = final.get("tie_choice")
        if self.v["final_tie"] == "mc_choice" and len(exp_winners) > 1:
            # A10: the MC in the game at the end names one of the players tied after gold
            tied = exp_winners
            if not isinstance(choice, dict):
                self.bad("final", "A10", f"tie_choice must name the MC's choice among the players tied after gold "
                         f"{tied} (final_tie = mc_choice), got {_short(choice)}")
                return
            if choice.get("mc") != self.mc:
                self.bad("final", "A10", f"tie_choice mc must be {self.mc}, the MC in the game at the end "
                         f"(after assassinations and exiles), got {_short(choice.get('mc'))}")
            got_tied = choice.get("tied")
            if not (isinstance(got_tied, list) and sorted(got_tied) == tied and len(set(got_tied)) == len(got_tied)):
                self.bad("final", "A10", f"tie_choice tied must be the players tied on score and gold {tied}, "
                         f"got {_short(got_tied)}")
            chosen = choice.get("chosen")
            if chosen not in tied:
                self.bad("final", "A10", f"the MC names one of the tied players {tied}, got chosen {_short(chosen)}")
            elif winners != [chosen]:
                self.bad("final", "A10", f"winners must be the named player [{chosen}] only, got {_short(winners)}")
            return
        if choice is not None:
            why = ("final_tie = shared" if self.v["final_tie"] == "shared" else "a collapse" if collapse
                   else f"no tie after gold (winners {exp_winners})")
            self.bad("final", "A10", f"tie_choice must be null ({why}), got {_short(choice)}")
        if not (isinstance(winners, list) and all(_is_int(w) for w in winners)
                and sorted(winners) == exp_winners and len(set(winners)) == len(winners)):
            why = "a collapse has no winner" if collapse else "highest score, then most gold, then shared"
            self.bad("final", "A10", f"winners must be {exp_winners} ({why}), got {_short(winners)}")

    def run(self) -> None:
        if not isinstance(self.record, dict):
            self.bad("record", "GAME_RECORD", f"a game record is a JSON object, got {type(self.record).__name__}")
            return
        if self.schema:
            self.check_schema()
        if not self.check_header():
            self.bad("record", "replay", "the record cannot be replayed")
            return
        self.replayed = False
        self.replay()
        if not self.replayed:
            return
        try:
            self.check_final()
        except Exception as exc:  # noqa: BLE001 - a malformed record is a violation, not a crash
            self.bad("final", "replay", f"could not check the result ({type(exc).__name__}: {exc})")


def audit_assemblee(record: dict, *, check_schema: bool = True) -> list[str]:
    """Replay one L'Assemblée game record and list its violations of RULES.md Part A.

    Parameters
    ----------
    record : dict
        One game record in the format of GAME_RECORD.md (one parsed JSON line).
    check_schema : bool, keyword-only
        Validate against game_record.schema.json first (default).

    Returns
    -------
    list of str
        Human-readable violations, each ``"<where>: [<rule ID>] <what>"``; empty when
        the game was played by the rules. Never raises on a malformed record.
    """
    return _audit(_Referee, record, check_schema)


audit = audit_assemblee


def main(argv: list[str]) -> int:
    """``python tests/referee_assemblee.py FILE.jsonl …``: audit every assemblee line."""
    return run_cli(argv, "assemblee", audit_assemblee)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
