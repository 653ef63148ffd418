"""Independent referee for Protocole game records (RULES.md Part P, Part M, Part V).

``audit_protocole(record)`` replays one Protocole record in the format of GAME_RECORD.md
and returns every departure from the rules it can see, as strings
``"<where>: [<rule ID>] <what>"``; an empty list means the game was played exactly by
the rules.

Written from RULES.md, GAME_RECORD.md and game_record.schema.json only: it imports
nothing from ``demos_sim`` so that it can catch the engine's mistakes. The Norm
selection is the reference one of ``ref_norm.py``.

How the replay works
--------------------
The referee keeps its own table: the Foyers, the hands, the Selection, the round's
Norm, the cards out of the game, the players still in the game and the points. Each
rule is checked where it applies, with its rule ID in the message. After a violation
the replay *follows the record* where the record's data can be used (the recorded
Initiative holder, deal, kept cards, Norm, control results, reinforced result, points),
so that one engine mistake gives one message, not a cascade; the later checks are then
checks of the record's own consistency.

Readings of points the texts leave open
---------------------------------------
- Order. ``deck``, ``turns`` and ``selections`` are ordered; every other list (hands,
  ``foyers_dealt``, ``selection_start``, Selection ``cards``, ``kept``, ``norm``,
  ``winners``) is compared as a set (GAME_RECORD.md: "Every other list … is a set"),
  but must not repeat a card. ``selection_start`` is not required to be in deck order.
- P1.2 with 2 players: the 11 distinct cards of one colour and one symbol (their common
  card counted once), so 25 remain. With 3: exactly the 6 cards of one colour or of one
  symbol. With 4: ``removed`` is ``[]``.
- P1.3 / P4.3 deal: "turn order starting with the Initiative holder" is clockwise
  (seat + 1) over the players still in the game, starting with the holder. Round 0:
  ``foyer_start`` cards round, then ``(len(deck) - foyer_start * players) // players``
  hand cards round, then the remainder into the Selection. Later rounds: no Foyer deal
  (``foyers_dealt`` null), ``len(deck) // players`` each, remainder to the Selection.
- P1.4 / P4.3: round 0's holder is seat 0; each later round's holder is the first seat
  clockwise from the previous holder (old + 1, old + 2 …) still in the game after the
  control, even if the old holder was just eliminated.
- P2.1: a player with cards in hand must play one (there is no pass); the first turn is
  the holder's (or the next player clockwise with cards), each later turn the next
  player clockwise after the previous one with cards in hand; the round's turns end when
  every hand is empty.
- P2.2 / P3: a Norm selection happens whenever the Selection reaches 5 cards (after a
  turn); ``selections`` lists them in order, each with exactly the 5 cards then in the
  Selection, followed (P3.3) by one entry for the 1–4 cards left at the end of the round,
  if any. The rule in force is standard selection with ``standard_tie`` in *each* mode
  and reinforced selection at every cooperative level, the final 1–4-card resolution
  included. The round's Norm is exactly the union of the kept cards of the round.
  ``majority_scope`` (P3.1a) says how the top of a Selection is counted, under standard
  and reinforced selection alike (``ref_norm.py`` states the reading); under
  ``per_dimension`` a wrong ``kept`` is reported as P3.1a.
- P4.1 is evaluated for every player still in the game at once, against the same Norm.
  ``control`` lists exactly those players (those who fail in it included).
- P4.2: points are cumulative by seat; a player eliminated (now or earlier) has 0;
  eliminated players' Foyer cards leave the game; they get no hand later.
- P4.3 / P4.4 (each mode), in this order after a control: nobody left -> the game ends
  with no winner; one player left -> that player wins at once (even with 8+ Norm cards);
  otherwise 8+ Norm cards -> a new round, 7 or fewer -> the game ends and P4.4 decides
  among the players still in the game: most points, then most attributes in common with
  the last Norm (per Foyer card: 1 if its colour is a colour of some Norm card, 1 if its
  symbol is a symbol of some Norm card), then shared.
- P5.2 / P5.3 (coop): any "fail" in the basic control loses at once and ``reinforced``
  is then null; at level 1 ``reinforced`` is always null. At levels 2 / 3 a Foyer card
  "counts" when its colour is the colour of some Norm card and its symbol the symbol of
  some (possibly other) Norm card; ``each_player`` needs 1 / 2 counting cards in every
  Foyer, ``team`` 1 / 2 counting cards over all Foyers together. A failed reinforced
  control loses; otherwise 7 or fewer Norm cards wins, 8+ starts a new round. Nobody is
  ever eliminated in a coop game that goes on, so every seat is in every round.
- P4.5: rounds are counted from 1; when round number ``round_cap`` ends and the game
  did not end by itself in it, the game is truncated: ``truncated`` true, ``result``
  null, and the record holds exactly ``round_cap`` rounds.
- Results (Part M, GAME_RECORD.md): each mode ``winners`` = the winning seats ([] =
  none; shared victories list every winner), ``outcome`` and ``foyer_cards`` null;
  coop ``winners`` = every seat on a win and [] on a loss, ``outcome`` "win"/"loss",
  ``foyer_cards`` the total number of cards in all Foyers on a win, else null.
- Card conservation (P1.1): hands + Foyers + Selection + Norm (or the round's deck
  before it is dealt) + cards out of the game + removed cards are the 36 cards, each
  once, after the deal, after every turn and after every control. Reported at most
  once a round.
"""

from __future__ import annotations

import sys
from collections import Counter

try:  # imported as tests.referee_protocole
    from .referee_common import RefereeBase, audit as _audit, main as run_cli, short as _short
except ImportError:  # imported with tests/ on sys.path (pytest's default), or run as a script
    from referee_common import RefereeBase, audit as _audit, main as run_cli, short as _short  # type: ignore[no-redef]

try:  # imported as tests.referee_protocole
    from .ref_norm import ALL_CARDS, COLOURS, SYMBOLS, ref_norm_selection
except ImportError:  # imported with tests/ on sys.path (pytest's default)
    from ref_norm import ALL_CARDS, COLOURS, SYMBOLS, ref_norm_selection  # type: ignore[no-redef]

# RULES.md Part V: the Protocole variants, their values, and nothing else.
PROTOCOLE_VARIANTS = ("standard_tie", "reinforced_scope", "round_cap", "majority_scope")
VARIANT_DEFAULTS = {"standard_tie": "keep_tied", "reinforced_scope": "each_player", "round_cap": 100,
                    "majority_scope": "pooled"}
CONTRACT = 2  # RULES.md / GAME_RECORD.md contract version 2
MODES = ("each", "coop")
# GAME_RECORD.md: every key shown is required (null where it does not apply).
RECORD_KEYS = ("game", "contract", "mode", "level", "players", "variants", "seed", "policies", "removed",
               "rounds", "truncated", "result")
ROUND_KEYS = ("initiative", "deck", "foyers_dealt", "hands", "selection_start", "turns", "selections", "norm",
              "control", "reinforced", "points")
RESULT_KEYS = ("winners", "outcome", "foyer_cards")
NORM_TO_CONTINUE = 8  # P4.3: 8 or more Norm cards -> a new round

_CARD_SET = frozenset(ALL_CARDS)





def _rounds(k: int) -> str:
    return f"{k} round" + ("" if k == 1 else "s")


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_card_list(x) -> bool:
    """A list of valid, distinct Protocole cards."""
    return (
        isinstance(x, list)
        and all(isinstance(c, str) and c in _CARD_SET for c in x)
        and len(set(x)) == len(x)
    )


def _cards_text(cards) -> str:
    return "[" + ", ".join(sorted(cards)) + "]"


# ---------------------------------------------------------------------------------------
# Rule helpers, public so that tests can check them alone.


def foyer_start(mode: str, level) -> int:
    """P1.3: Foyer cards dealt at setup: 2 in *each*, 1 / 2 / 3 at coop levels 1 / 2 / 3."""
    return 2 if mode == "each" else int(level)


def legal_removals(players: int) -> list[frozenset]:
    """P1.2: every legal set of removed cards for this number of players."""
    colour = {c: frozenset(x for x in ALL_CARDS if x[0] == c) for c in COLOURS}
    symbol = {s: frozenset(x for x in ALL_CARDS if x[1] == s) for s in SYMBOLS}
    if players == 2:
        return [colour[c] | symbol[s] for c in COLOURS for s in SYMBOLS]
    if players == 3:
        return list(colour.values()) + list(symbol.values())
    return [frozenset()]


def norm_attributes(norm) -> tuple[set, set]:
    """The colours and the symbols present in a Norm."""
    return {c[0] for c in norm}, {c[1] for c in norm}


def foyer_passes(foyer, norm) -> bool:
    """P4.1: every Foyer card shares its colour or its symbol with some Norm card.

    An empty Foyer passes; an empty Norm fails every non-empty Foyer (no attribute)."""
    colours, symbols = norm_attributes(norm)
    return all(c[0] in colours or c[1] in symbols for c in foyer)


def reinforced_count(foyer, norm) -> int:
    """P5.3: Foyer cards whose colour and symbol are both present in the Norm (on the
    same or on different Norm cards)."""
    colours, symbols = norm_attributes(norm)
    return sum(1 for c in foyer if c[0] in colours and c[1] in symbols)


def reinforced_passes(foyers: dict, norm, level: int, scope: str) -> bool:
    """P5.3: level 2 needs 1, level 3 needs 2 counting cards, in every Foyer
    (``each_player``) or over all Foyers together (``team``)."""
    need = 1 if level == 2 else 2
    counts = [reinforced_count(f, norm) for f in foyers.values()]
    if scope == "team":
        return sum(counts) >= need
    return all(k >= need for k in counts)


def common_attributes(foyer, norm) -> int:
    """P4.4 tie-break: 1 per Foyer card whose colour is in the Norm, 1 per Foyer card
    whose symbol is in the Norm."""
    colours, symbols = norm_attributes(norm)
    return sum((c[0] in colours) + (c[1] in symbols) for c in foyer)


def each_winners(alive, points, foyers: dict, last_norm) -> list[int]:
    """P4.4: the winners of an *each for themselves* game among the players still in it."""
    alive = sorted(alive)
    if len(alive) <= 1:
        return alive  # nobody: no winner; one: wins at once
    best = max(points[s] for s in alive)
    tied = [s for s in alive if points[s] == best]
    if len(tied) > 1:
        attrs = {s: common_attributes(foyers.get(s, []), last_norm) for s in tied}
        top = max(attrs.values())
        tied = [s for s in tied if attrs[s] == top]
    return tied


def next_holder(old: int, alive, n: int) -> int | None:
    """P4.3: the next player on the left (clockwise) of the old holder still in the game."""
    for k in range(1, n + 1):
        seat = (old + k) % n
        if seat in alive:
            return seat
    return None


# ---------------------------------------------------------------------------------------


class _Referee(RefereeBase):
    def check_header(self) -> bool:
        """Game-level fields. Returns False when the record cannot be replayed."""
        rec = self.record
        if rec.get("game") != "protocole":
            self.bad("record", "GAME_RECORD", f"game must be 'protocole', got {_short(rec.get('game'))}")
            return False
        if rec.get("contract") != CONTRACT or isinstance(rec.get("contract"), bool):
            self.bad("record", "GAME_RECORD", f"contract must be {CONTRACT}, got {_short(rec.get('contract'))}")
        for key in RECORD_KEYS:
            if key not in rec:
                self.bad("record", "GAME_RECORD", f"key {key!r} is missing (every key is required)")

        mode, level, n = rec.get("mode"), rec.get("level"), rec.get("players")
        if mode not in MODES:
            self.bad("record", "P5", f"mode must be 'each' or 'coop', got {_short(mode)}")
            return False
        if not _is_int(n) or not 2 <= n <= 4:
            self.bad("record", "P1.2", f"players must be 2–4, got {_short(n)}")
            return False
        if mode == "each":
            if level is not None:
                self.bad("record", "P5.3", f"level must be null in mode 'each', got {_short(level)}")
            level = None
        elif not _is_int(level) or level not in (1, 2, 3):
            self.bad("record", "P5.3", f"coop level must be 1, 2 or 3, got {_short(level)}")
            return False
        self.mode, self.level, self.n = mode, level, n
        self.coop = mode == "coop"

        # Part V: exactly the Protocole variants, with values of Part V.
        variants = rec.get("variants")
        v = dict(VARIANT_DEFAULTS)
        if not isinstance(variants, dict):
            self.bad("record", "Part V", f"variants must be an object, got {_short(variants)}; replayed with the defaults")
        else:
            missing = [k for k in PROTOCOLE_VARIANTS if k not in variants]
            extra = sorted(str(k) for k in variants if k not in PROTOCOLE_VARIANTS)
            if missing:
                self.bad("record", "Part V", f"variants lacks {missing}; replayed with the defaults for them")
            if extra:
                self.bad("record", "Part V", f"variants holds names that are not Protocole variants: {extra}")
            checks = {
                "standard_tie": lambda x: x in ("keep_tied", "discard_all"),
                "reinforced_scope": lambda x: x in ("each_player", "team"),
                "round_cap": lambda x: _is_int(x) and x >= 1,
                "majority_scope": lambda x: x in ("pooled", "per_dimension"),  # P3.1a
            }
            for name, good in checks.items():
                if name not in variants:
                    continue
                value = variants[name]
                if good(value):
                    v[name] = value
                else:
                    self.bad("record", "Part V", f"variant {name} has a value outside Part V: {_short(value)}; replayed with the default")
        self.v = v

        policies = rec.get("policies")
        if not isinstance(policies, list) or len(policies) != n or not all(isinstance(p, str) for p in policies):
            self.bad("record", "GAME_RECORD", f"policies must list one policy name per seat ({n}), got {_short(policies)}")
        seed = rec.get("seed")
        if not (_is_int(seed) or (isinstance(seed, list) and seed and all(_is_int(x) for x in seed))):
            self.bad("record", "GAME_RECORD", f"seed must be an integer or a non-empty list of integers, got {_short(seed)}")
        if not isinstance(rec.get("truncated"), bool):
            self.bad("record", "P4.5", f"truncated must be true or false, got {_short(rec.get('truncated'))}")
        return True

    def check_removed(self) -> None:
        """P1.2: the cards removed at setup."""
        removed = self.record.get("removed")
        n = self.n
        if not _is_card_list(removed):
            self.bad("record", "P1.2", f"removed must be a list of distinct cards, got {_short(removed)}")
            removed = [c for c in removed if isinstance(c, str) and c in _CARD_SET] if isinstance(removed, list) else []
            removed = list(dict.fromkeys(removed))
        if frozenset(removed) not in legal_removals(n):
            what = {
                2: "every card of one colour and every card of one symbol (11 cards, 25 left)",
                3: "every card of one colour or every card of one symbol (6 cards, 30 left)",
                4: "nothing",
            }[n]
            self.bad("record", "P1.2", f"with {n} players the removed cards are {what}; got {len(removed)}: {_cards_text(removed)}")
        self.removed = list(removed)

    # -- helpers ----------------------------------------------------------------------

    def conserve(self, where: str, zones: dict) -> None:
        """P1.1: the zones hold the 36 cards, each once. Reported once a round."""
        if self.conserved_reported:
            return
        count: Counter = Counter()
        for cards in zones.values():
            count.update(cards)
        missing = [c for c in ALL_CARDS if count[c] == 0]
        repeated = sorted(c for c, k in count.items() if k > 1)
        alien = sorted(str(c) for c in count if c not in _CARD_SET)
        if missing or repeated or alien:
            self.conserved_reported = True
            sizes = {name: len(cards) for name, cards in zones.items()}
            self.bad(where, "P1.1", f"cards are not conserved (zones {sizes}): missing {missing}, in two places {repeated}"
                     + (f", not Protocole cards {alien}" if alien else ""))

    def seat_map(self, where: str, rule: str, name: str, value, seats) -> dict | None:
        """A map keyed by seat string holding exactly ``seats``; returns {seat: value}."""
        if not isinstance(value, dict):
            self.bad(where, rule, f"{name} must be a map keyed by seat, got {_short(value)}")
            return None
        want = sorted(str(s) for s in seats)
        got = sorted(str(k) for k in value)
        if got != want:
            self.bad(where, rule, f"{name} must list exactly the seats {want}, got {got}")
        return {s: value[str(s)] for s in seats if str(s) in value}

    # -- the game -----------------------------------------------------------------------

    def replay(self) -> None:
        rec, n = self.record, self.n
        self.alive: list[int] = list(range(n))
        self.foyers: dict[int, list[str]] = {s: [] for s in range(n)}
        self.out: list[str] = []  # cards out of the game (P3.1 leavers, P4.2 eliminations, …)
        self.points = [0] * n
        self.holder: int | None = None
        self.prev_norm: list[str] | None = None
        self.last_norm: list[str] = []
        self.lost = False  # coop
        self.end: str | None = None  # "each" | "win" | "loss" once the game ended by itself

        rounds = rec.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            self.bad("record", "GAME_RECORD", f"rounds must be a non-empty list, got {_short(rounds)}")
            return
        cap = self.v["round_cap"]
        expected = None  # ("normal" | "truncated", rounds played)
        for r, rnd in enumerate(rounds):
            try:
                self.replay_round(r, rnd)
            except Exception as exc:
                self.bad(f"round {r}", "replay", f"could not replay this round ({type(exc).__name__}: {exc}); replay stopped")
                return
            played = r + 1
            if self.end is not None:  # P4.3, P4.4, P5.2: the game ended by itself
                expected = ("normal", played)
                break
            if played >= cap:  # P4.5
                expected = ("truncated", played)
                break
        self.replayed = True
        truncated = rec.get("truncated")
        if expected is None:
            self.bad("record", "P4.3", f"the record stops after {_rounds(len(rounds))} but the game was not over "
                     f"(last Norm {len(self.last_norm)} cards, players in the game {self.alive}, round_cap {cap})")
            self.expect_truncated = None
            if truncated is True:
                self.bad("record", "P4.5", f"truncated is true but only {len(rounds)} of round_cap {cap} rounds were played")
            return
        kind, played = expected
        if len(rounds) != played:
            why = {"normal": "the game ended", "truncated": "round_cap was reached"}[kind]
            self.bad("record", "P4.3" if kind == "normal" else "P4.5",
                     f"the game must stop after {_rounds(played)} ({why} in round {played - 1}, counted from 0), "
                     f"but the record has {_rounds(len(rounds))}")
        self.expect_truncated = kind == "truncated"
        if truncated is not self.expect_truncated:
            self.bad("record", "P4.5", f"truncated must be {str(self.expect_truncated).lower()} "
                     f"({kind} end after {_rounds(played)}, round_cap {cap}), got {_short(truncated)}")

    def replay_round(self, r: int, rnd) -> None:
        where = f"round {r}"
        n = self.n
        self.conserved_reported = False
        if not isinstance(rnd, dict):
            raise TypeError("a round must be an object")
        missing = [key for key in ROUND_KEYS if key not in rnd]
        if missing:
            self.bad(where, "GAME_RECORD", f"keys {missing} are missing (every key is required, null where it does not apply)")
        alive = list(self.alive)

        # P1.4 / P4.3: the Initiative.
        exp_holder = 0 if r == 0 else next_holder(self.holder, alive, n)
        holder = rnd.get("initiative")
        if holder != exp_holder or not _is_int(holder):
            rule = "P1.4" if r == 0 else "P4.3"
            why = "seat 0 holds it first" if r == 0 else (
                f"it passes from seat {self.holder} to the next player on the left still in the game {alive}")
            self.bad(where, rule, f"initiative must be {exp_holder} ({why}), got {_short(holder)}")
            if not (_is_int(holder) and holder in alive):
                holder = exp_holder  # follow the record only when it names a player in the game
        self.holder = holder
        order = [(holder + i) % n for i in range(n) if (holder + i) % n in alive]

        # P1.2 / P4.3: the deck.
        deck = rnd.get("deck")
        if not isinstance(deck, list):
            raise TypeError("deck must be a list")
        if r == 0:
            exp_deck = [c for c in ALL_CARDS if c not in set(self.removed)]
            rule, what = "P1.3", "the cards left after removal (P1.2)"
        else:
            exp_deck = list(self.prev_norm)
            rule, what = "P4.3", "the previous round's Norm"
        if Counter(deck) != Counter(exp_deck):
            missing = sorted(set(exp_deck) - set(deck))
            extra = sorted(map(str, (Counter(deck) - Counter(exp_deck)).elements()))
            self.bad(where, rule, f"deck must be a permutation of {what}: missing {missing}, extra {extra}")
            deck = list(dict.fromkeys(c for c in deck if isinstance(c, str) and c in _CARD_SET))
        self.conserve(where + " deck", {"deck": deck, "foyers": [c for f in self.foyers.values() for c in f],
                                        "out": self.out, "removed": self.removed})

        # P1.3 / P4.3: the deal, one card at a time in turn order from the holder.
        players = len(order)
        k = foyer_start(self.mode, self.level) if r == 0 else 0
        pos = 0
        exp_foyers = {s: [] for s in order}
        for _ in range(k):
            for s in order:
                if pos < len(deck):
                    exp_foyers[s].append(deck[pos])
                    pos += 1
        each = max(0, (len(deck) - pos) // players)
        exp_hands = {s: [] for s in order}
        for _ in range(each):
            for s in order:
                exp_hands[s].append(deck[pos])
                pos += 1
        exp_start = deck[pos:]
        deal_ok = True
        rec_foyers = None
        if r == 0:
            fd = rnd.get("foyers_dealt")
            rec_foyers = self.seat_map(where, "P1.3", "foyers_dealt", fd, order)
            if rec_foyers is None or len(rec_foyers) != len(order):
                deal_ok = False
                rec_foyers = None
            else:
                for s in order:
                    if not _is_card_list(rec_foyers[s]) or set(rec_foyers[s]) != set(exp_foyers[s]):
                        self.bad(where, "P1.3", f"foyers_dealt of seat {s} must be {_cards_text(exp_foyers[s])} "
                                 f"({k} cards round from the top of the deck, from seat {holder}), got {_short(rec_foyers[s])}")
                        deal_ok = False
        elif rnd.get("foyers_dealt") is not None:
            self.bad(where, "P4.3", f"foyers_dealt must be null after round 0 (Foyers are kept), got {_short(rnd.get('foyers_dealt'))}")
        rec_hands = self.seat_map(where, "P1.3" if r == 0 else "P4.3", "hands (players still in the game)", rnd.get("hands"), order)
        if rec_hands is None or len(rec_hands) != len(order):
            deal_ok = False
            rec_hands = None
        else:
            for s in order:
                if not _is_card_list(rec_hands[s]) or set(rec_hands[s]) != set(exp_hands[s]):
                    self.bad(where, "P1.3", f"hand dealt to seat {s} must be {_cards_text(exp_hands[s])} "
                             f"({each} cards round after the Foyer cards, from seat {holder}), got {_short(rec_hands[s])}")
                    deal_ok = False
        rec_start = rnd.get("selection_start")
        if not _is_card_list(rec_start) or set(rec_start) != set(exp_start):
            self.bad(where, "P1.3", f"selection_start must be the remainder {_cards_text(exp_start)}, got {_short(rec_start)}")
            deal_ok = False
        foyer_deal, hands, start = exp_foyers, exp_hands, list(exp_start)
        if not deal_ok and rec_hands is not None and _is_card_list(rec_start) and (r > 0 or rec_foyers is not None):
            # Follow the record's deal when it is a deal of this deck with the right sizes.
            parts = [list(rec_start)] + [list(rec_hands[s]) for s in order]
            if r == 0:
                parts += [list(rec_foyers[s]) for s in order]
            flat = [c for p in parts for c in p]
            sizes_ok = all(len(rec_hands[s]) == each for s in order) and len(rec_start) == len(exp_start) and (
                r > 0 or all(len(rec_foyers[s]) == k for s in order))
            if sizes_ok and all(_is_card_list(p) for p in parts) and Counter(flat) == Counter(deck):
                hands = {s: list(rec_hands[s]) for s in order}
                start = list(rec_start)
                if r == 0:
                    foyer_deal = {s: list(rec_foyers[s]) for s in order}
        if r == 0:
            for s in order:
                self.foyers[s] = list(foyer_deal[s])
        hands = {s: list(hands[s]) for s in order}
        selection: list[str] = list(start)
        norm: list[str] = []

        def zones():
            return {"hands": [c for h in hands.values() for c in h],
                    "foyers": [c for f in self.foyers.values() for c in f],
                    "selection": selection, "norm": norm, "out": self.out, "removed": self.removed}

        self.conserve(where + " after the deal", zones())

        # P2.2 / P3: Norm selections, in order.
        selections = rnd.get("selections")
        if not isinstance(selections, list):
            self.bad(where, "P3", f"selections must be a list, got {_short(selections)}")
            selections = []
        sel_index = 0
        reinforced_sel = self.coop  # P3.2: reinforced at every cooperative level
        tie = self.v["standard_tie"]
        scope = self.v["majority_scope"]  # P3.1a
        sel_rule = "P3.1a" if scope == "per_dimension" else "P3.2" if reinforced_sel else "P3.1"

        def resolve(final: bool, turn_where: str) -> None:
            nonlocal sel_index
            current = list(selection)
            expected_kept = ref_norm_selection(current, reinforced=reinforced_sel, standard_tie=tie,
                                               majority_scope=scope)
            rule_name = "reinforced selection" if reinforced_sel else f"standard selection ({tie})"
            if scope == "per_dimension":
                rule_name += " with majority_scope per_dimension"
            if sel_index >= len(selections):
                rule = "P3.3" if final else "P2.2"
                when = f"the {len(current)} cards left at the end of the round" if final else "the Selection reached 5 cards"
                self.bad(turn_where, rule, f"{when} ({_cards_text(current)}): a Norm selection must resolve them, "
                         f"but selections has no entry for it (it lists {len(selections)})")
                kept = expected_kept
            else:
                sw = f"{where} selection {sel_index}"
                entry = selections[sel_index]
                sel_index += 1
                rec_cards = entry.get("cards") if isinstance(entry, dict) else None
                rec_kept = entry.get("kept") if isinstance(entry, dict) else None
                cards_ok = _is_card_list(rec_cards) and set(rec_cards) == set(current)
                if not cards_ok:
                    rule = "P3.3" if final else "P2.2"
                    self.bad(sw, rule, f"cards must be the Selection {_cards_text(current)} "
                             f"({'end of the round' if final else 'it reached 5 cards'}), got {_short(rec_cards)}")
                if not _is_card_list(rec_kept):
                    self.bad(sw, sel_rule, f"kept must be a list of distinct cards, got {_short(rec_kept)}")
                    kept = expected_kept
                else:
                    if cards_ok:
                        if set(rec_kept) != set(expected_kept):
                            self.bad(sw, sel_rule, f"{rule_name} of {_cards_text(current)} keeps "
                                     f"{_cards_text(expected_kept)}, got kept {_cards_text(rec_kept)}")
                    elif _is_card_list(rec_cards) and 1 <= len(rec_cards) <= 5:
                        own = ref_norm_selection(rec_cards, reinforced=reinforced_sel, standard_tie=tie,
                                                 majority_scope=scope)
                        if set(rec_kept) != set(own):
                            self.bad(sw, sel_rule, f"{rule_name} of the recorded cards {_cards_text(rec_cards)} keeps "
                                     f"{_cards_text(own)}, got kept {_cards_text(rec_kept)}")
                    # Follow the record's kept cards where they come from this Selection.
                    kept = [c for c in rec_kept if c in current] if set(rec_kept) <= set(current) else expected_kept
            norm.extend(kept)
            self.out.extend(c for c in current if c not in kept)
            selection.clear()

        # P2.1: the turns.
        turns = rnd.get("turns")
        if not isinstance(turns, list):
            self.bad(where, "P2.1", f"turns must be a list, got {_short(turns)}")
            turns = []
        previous = None
        for t, turn in enumerate(turns):
            tw = f"{where} turn {t}"
            start_seat = holder if previous is None else previous + 1
            exp_seat = None
            for i in range(n):
                s = (start_seat + i) % n
                if s in hands and hands[s]:
                    exp_seat = s
                    break
            if not isinstance(turn, dict):
                self.bad(tw, "P2.1", f"a turn must be an object, got {_short(turn)}")
                continue
            seat, card, to = turn.get("seat"), turn.get("card"), turn.get("to")
            if exp_seat is None:
                self.bad(tw, "P3.3", f"every hand is empty: the round is over, but the record has a turn {_short(turn)}")
                continue
            if seat != exp_seat or not _is_int(seat):
                self.bad(tw, "P2.1", f"seat {exp_seat} plays now (clockwise from seat "
                         f"{holder if previous is None else previous}, skipping empty hands), got seat {_short(seat)}")
                if not (_is_int(seat) and seat in hands and hands[seat]):
                    continue
            if to not in ("selection", "foyer"):
                self.bad(tw, "P2.1", f"to must be 'selection' or 'foyer', got {_short(to)}")
                previous = seat
                continue
            previous = seat
            if card in hands[seat]:
                hands[seat].remove(card)
            else:
                self.bad(tw, "P2.1", f"seat {seat} plays {_short(card)}, which is not in their hand {_cards_text(hands[seat])}")
                owner = next((s for s in hands if card in hands[s]), None)
                if owner is None:
                    continue  # nowhere to take it from: the turn has no effect on the table
                hands[owner].remove(card)
            if to == "foyer":
                self.foyers[seat].append(card)
            else:
                selection.append(card)
                if len(selection) >= 5:  # P2.2: at once
                    resolve(False, tw)
            self.conserve(tw, zones())

        # P3.3: the round ends when every hand is empty.
        left = {s: h for s, h in hands.items() if h}
        if left:
            self.bad(where, "P3.3", f"the turns stop while hands still hold cards {dict((s, sorted(h)) for s, h in left.items())}")
            for s in left:
                self.out.extend(hands[s])
                hands[s] = []
        if selection:
            resolve(True, where)
        if sel_index < len(selections):
            self.bad(where, "P3", f"selections lists {len(selections)} Norm selections, but the replay makes {sel_index}")

        # P3.1: the round's Norm = every kept card of the round.
        rec_norm = rnd.get("norm")
        if not _is_card_list(rec_norm) or set(rec_norm) != set(norm):
            self.bad(where, "P3", f"norm must be the cards kept this round {_cards_text(norm)}, got {_short(rec_norm)}")
            if _is_card_list(rec_norm):  # follow the record's Norm
                keep = set(rec_norm)
                self.out = [c for c in self.out if c not in keep] + [c for c in norm if c not in keep]
                norm[:] = list(rec_norm)
        self.conserve(where + " at the control", zones())
        self.last_norm = list(norm)

        # P4.1: the control of every player still in the game.
        exp_control = {s: "pass" if foyer_passes(self.foyers[s], norm) else "fail" for s in order}
        rec_control = self.seat_map(where, "P4.1", "control (players in the game)", rnd.get("control"), order) or {}
        control = dict(exp_control)
        for s in sorted(order):
            got = rec_control.get(s, None)
            if s in rec_control and got != exp_control[s]:
                self.bad(where, "P4.1", f"control of seat {s} must be {exp_control[s]} (Foyer {_cards_text(self.foyers[s])}, "
                         f"Norm {_cards_text(norm)}), got {_short(got)}")
            if got in ("pass", "fail"):
                control[s] = got  # follow the record
        failed = sorted(s for s in order if control[s] == "fail")

        rec_reinforced = rnd.get("reinforced")
        rec_points = rnd.get("points")
        if not self.coop:
            # P4.2: points and eliminations.
            if rec_reinforced is not None:
                self.bad(where, "P5.3", f"reinforced must be null in mode 'each', got {_short(rec_reinforced)}")
            for s in order:
                if control[s] == "pass":
                    self.points[s] += len(self.foyers[s])
                else:
                    self.points[s] = 0
                    self.out.extend(self.foyers[s])
                    self.foyers[s] = []
            self.alive = [s for s in alive if s not in failed]
            points_ok = isinstance(rec_points, list) and all(_is_int(p) for p in rec_points)
            if not points_ok or rec_points != self.points:
                self.bad(where, "P4.2", f"points must be {self.points} (cumulative by seat after the control), got {_short(rec_points)}")
                if isinstance(rec_points, list) and len(rec_points) == n and all(_is_int(p) and p >= 0 for p in rec_points):
                    self.points = list(rec_points)  # follow the record
            self.conserve(where + " after the control", zones())
            # P4.3 / P4.4: end of the game?
            if len(self.alive) <= 1 or len(norm) < NORM_TO_CONTINUE:
                self.end = "each"
        else:
            # P5.1: no points.
            if rec_points is not None:
                self.bad(where, "P5.1", f"points must be null in coop, got {_short(rec_points)}")
            if failed:  # P5.2: a control eliminated someone: the team loses; no reinforced check
                exp_reinforced = None
            elif self.level == 1:
                exp_reinforced = None
            else:  # P5.3
                ok = reinforced_passes({s: self.foyers[s] for s in order}, norm, self.level, self.v["reinforced_scope"])
                exp_reinforced = "pass" if ok else "fail"
            reinforced = exp_reinforced
            if rec_reinforced != exp_reinforced:
                if exp_reinforced is None:
                    why = "level 1 has no reinforced control" if self.level == 1 else "the basic control already lost the game"
                else:
                    counts = {s: reinforced_count(self.foyers[s], norm) for s in order}
                    why = (f"level {self.level}, scope {self.v['reinforced_scope']}, cards with colour and symbol in the "
                           f"Norm by seat {counts}")
                self.bad(where, "P5.2" if exp_reinforced is None and self.level > 1 else "P5.3",
                         f"reinforced must be {_short(exp_reinforced)} ({why}), got {_short(rec_reinforced)}")
                if rec_reinforced in ("pass", "fail") and exp_reinforced is not None:
                    reinforced = rec_reinforced  # follow the record
            if failed or reinforced == "fail":
                self.end = "loss"
                self.alive = [s for s in alive if s not in failed]
            elif len(norm) < NORM_TO_CONTINUE:
                self.end = "win"
        self.prev_norm = list(norm)

    # -- result -------------------------------------------------------------------------

    def check_result(self) -> None:
        rec = self.record
        result = rec.get("result")
        if self.expect_truncated is None:  # the record stopped before the end; already reported
            return
        if self.expect_truncated:
            if result is not None:
                self.bad("result", "P4.5", f"a truncated game has result null, got {_short(result)}")
            return
        if not isinstance(result, dict):
            self.bad("result", "P4.4" if not self.coop else "P5.2", f"result must be an object, got {_short(result)}")
            return
        missing = [key for key in RESULT_KEYS if key not in result]
        if missing:
            self.bad("result", "GAME_RECORD", f"keys {missing} are missing (every key is required, null where it does not apply)")
        winners = result.get("winners")
        outcome = result.get("outcome")
        foyer_cards = result.get("foyer_cards")
        if not self.coop:
            exp_winners = each_winners(self.alive, self.points, self.foyers, self.last_norm)
            if len(self.alive) == 0:
                why = "everyone was eliminated"
            elif len(self.alive) == 1:
                why = "all but one were eliminated"
            else:
                why = (f"points {[self.points[s] for s in range(self.n)]}, players in the game {self.alive}, attributes in "
                       f"common with the last Norm {[common_attributes(self.foyers[s], self.last_norm) for s in self.alive]}")
            if not (isinstance(winners, list) and len(set(map(str, winners))) == len(winners)
                    and sorted(map(str, winners)) == sorted(map(str, exp_winners))
                    and all(_is_int(w) for w in winners)):
                self.bad("result", "P4.4", f"winners must be {exp_winners} ({why}), got {_short(winners)}")
            if outcome is not None:
                self.bad("result", "P4.4", f"outcome must be null in mode 'each', got {_short(outcome)}")
            if foyer_cards is not None:
                self.bad("result", "P5.2", f"foyer_cards must be null in mode 'each', got {_short(foyer_cards)}")
            return
        win = self.end == "win"
        exp_outcome = "win" if win else "loss"
        if outcome != exp_outcome:
            self.bad("result", "P5.2", f"outcome must be {exp_outcome!r}, got {_short(outcome)}")
        exp_winners = list(range(self.n)) if win else []
        if not (isinstance(winners, list) and len(set(map(str, winners))) == len(winners)
                and sorted(map(str, winners)) == sorted(map(str, exp_winners)) and all(_is_int(w) for w in winners)):
            self.bad("result", "P5.2", f"winners must be {exp_winners} (coop {exp_outcome}: every seat on a win, none on a loss), got {_short(winners)}")
        exp_cards = sum(len(f) for f in self.foyers.values()) if win else None
        if foyer_cards != exp_cards or isinstance(foyer_cards, bool):
            self.bad("result", "P5.2", f"foyer_cards must be {_short(exp_cards)} "
                     f"({'total cards in all Foyers' if win else 'null unless the team won'}), got {_short(foyer_cards)}")

    def run(self) -> None:
        if not isinstance(self.record, dict):
            self.bad("record", "GAME_RECORD", f"a game record is a JSON object, got {type(self.record).__name__}")
            return
        if self.schema:
            self.check_schema()
        if not self.check_header():
            self.bad("record", "replay", "the record cannot be replayed")
            return
        self.check_removed()
        self.replayed = False
        self.replay()
        if not self.replayed:
            return  # stopped early; already reported
        try:
            self.check_result()
        except Exception as exc:
            self.bad("result", "replay", f"could not check the result ({type(exc).__name__}: {exc})")


def audit_protocole(record: dict, *, check_schema: bool = True) -> list[str]:
    """Replay one Protocole game record and list its violations of RULES.md Part P.

    Parameters
    ----------
    record : dict
        One game record in the format of GAME_RECORD.md (one parsed JSON line).
    check_schema : bool, keyword-only
        Validate against game_record.schema.json first (default). The schema check is
        most of the cost; turn it off to audit many records quickly.

    Returns
    -------
    list of str
        Human-readable violations, each ``"<where>: [<rule ID>] <what>"``; empty when
        the game was played exactly by the rules. Never raises on a malformed record.
    """
    return _audit(_Referee, record, check_schema)


def main(argv: list[str]) -> int:
    """``python tests/referee_protocole.py FILE.jsonl …``: audit every protocole line."""
    return run_cli(argv, "protocole", audit_protocole)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
