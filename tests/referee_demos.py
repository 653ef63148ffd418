"""Independent referee for DĒMOS game records (RULES.md Part D, Part V, X1, X2), contract 2.

``audit_demos(record)`` replays one DĒMOS record in the format of GAME_RECORD.md and
returns every departure from the rules it can see, as human-readable strings; an
empty list means the game was played exactly by the rules.

Written from RULES.md, GAME_RECORD.md and game_record.schema.json only: it imports
nothing from ``demos_sim`` so that it can catch the engine's mistakes.

How the replay works
--------------------
Each rule is checked where it applies, with its rule ID in the message. After a
violation has been reported the replay *follows the record* (the recorded hands,
figure receivers, reveals, points …) so that one engine mistake gives one message,
not a cascade; later checks are then checks of the record's own consistency.

Readings of points the texts leave open are marked "Reading:" in the comments.

Contract 2 readings of the election (X2 ``announced_trio``, D9.5 ``team_trio``, D9.6):

- Reading (X2, D7.1): a player "matches" when one of their trios *of their best harmony*
  has exactly the announced colours (E, L, J after Media); that trio must then be the
  one recorded. In team games a member's announcement is the side's. A match with a
  lower-harmony trio counts for nothing. Under ``best_member`` a side matches when a
  member whose best harmony equals the side's harmony matches.
- Reading (X2, D9.6 step 1, ``best_member``): the step compares *players* with a
  3-colour trio; X2 sets aside those whose own trio does not match their side's
  announcement, then the remaining players' own points decide (a non-matching
  teammate's points do not count for the side).
- Reading (X2, D9.6 step 3, ``mono_only``): the trios compared are the 1-colour trios a
  member (pooled: the team) can form, not the recorded best-harmony trio; a side
  matches when one of them has its (one-suit) announced colours.
- Reading (D9.5 ``pooled``, D7.4): a side whose members hold trios of their own but
  which can form no pooled trio has no trio; when no side has one, 2v2 / 2v3 have no
  winner, and D9.6 step 3 finds no qualifying team.
- Reading (D9.5 ``pooled``): ``final.trios`` still lists each player's own D7.1 trio
  (best harmony, matching under X2); the pooled trio of each team is in
  ``final.side_trios``, itself of the best pooled harmony and matching under X2.
- D9.6 step 1 under ``pooled``: ties between sides by ``team_points_tiebreak`` (the
  Independent: his own points); step 3 ties by ``p3_points_tiebreak`` in both readings
  of ``team_trio``.
"""

from __future__ import annotations

import sys
from collections import Counter
from itertools import product

try:  # imported as tests.referee_demos
    from .referee_common import RefereeBase, audit as _audit, main as run_cli
except ImportError:  # imported with tests/ on sys.path (pytest's default), or run as a script
    from referee_common import RefereeBase, audit as _audit, main as run_cli  # type: ignore[no-redef]

try:  # imported as tests.referee_demos
    from .ref_scoring import (
        SUITS,
        card_value,
        combination_score,
        ref_best,
        ref_round_key,
    )
except ImportError:  # imported with tests/ on sys.path (pytest's default)
    from ref_scoring import (  # type: ignore[no-redef]
        SUITS,
        card_value,
        combination_score,
        ref_best,
        ref_round_key,
    )

# RULES.md Part V: the DĒMOS variants, and nothing else, belong in "variants".
DEMOS_VARIANTS = (
    "carre_points",
    "run_base",
    "secret_optional",
    "max_rounds",
    "round_cap",
    "media_targets_revealed",
    "media_optional",
    "no_trio_winner",
    "team_vetoes",
    "team_points_tiebreak",
    "independent_double_media",
    "independent_points_strict",
    "p3_harmonies",
    "favourite_suit_bonus",
    "announced_trio",
    "team_trio",
    "team_talk",
    "p3_points_tiebreak",
)
CONTRACT = 2  # RULES.md / GAME_RECORD.md version this referee audits
TEAM_MODES = ("2v2", "2v3", "2v2+1")
FIGURE_TYPES = ("E", "L", "J")
MEDIA = "M"





def people_deck(rules: str) -> list[str]:
    """D1: values 1–10 (full) or 2–10 (simplified) in each of the 4 suits."""
    low = 1 if rules == "full" else 2
    return [f"{v}{s}" for s in SUITS for v in range(low, 11)]


def power_pile_cards(rules: str) -> list[str]:
    """D1: E, L, J in the 4 colours, plus 2 Media in full rules."""
    figures = [t + s for t in FIGURE_TYPES for s in SUITS]
    return figures + ([MEDIA, MEDIA] if rules == "full" else [])


def _short(value, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _same_set(a, b) -> bool:
    return Counter(a) == Counter(b)


# ---------------------------------------------------------------------------------------
# Final election helpers (D7, D9.5, D9.6), public so that tests can check them alone.


def trio_options(figures, covered: dict | None = None) -> list[tuple[tuple, tuple, int]]:
    """Every legal trio of a player (D7.1): ``(trio in order E, L, J, colours, harmony)``.

    ``figures``: the player's figure codes (Media ignored); ``covered``: figure code ->
    colour announced by a Media (D6.2). A trio holds one E, one L and one J and every
    covered figure; colours are taken after Media; harmony = number of distinct colours
    (3 best, D7.2).
    """
    covered = covered or {}
    by_type = {t: [f for f in figures if f != MEDIA and f[0] == t] for t in FIGURE_TYPES}
    options = []
    for trio in product(by_type["E"], by_type["L"], by_type["J"]):
        if not all(f in trio for f in covered):
            continue  # D7.1: every Media-covered figure must be in the trio
        colours = tuple(covered.get(f, f[1]) for f in trio)
        options.append((trio, colours, len(set(colours))))
    return options


def pooled_trio_options(figures_by_seat: dict, covered: dict | None = None) -> list[tuple[tuple, tuple, tuple, int]]:
    """Every pooled trio of a team (D9.5, ``team_trio = pooled``).

    Returns ``(trio in order E, L, J, owner seat of each figure, colours, harmony)``.
    ``figures_by_seat``: member seat -> figure codes (Media ignored); ``covered``:
    ``(seat, figure) -> colour`` announced by a Media (D6.2). The trio takes one E, one L
    and one J from the figures of any members and contains every Media-covered figure of
    every member, so two covered figures of one type on the side leave no trio.
    """
    covered = covered or {}
    by_type = {
        t: [(s, f) for s, figs in figures_by_seat.items() for f in figs if f != MEDIA and f[0] == t]
        for t in FIGURE_TYPES
    }
    must = [key for key in covered if key[0] in figures_by_seat]
    options = []
    for picks in product(by_type["E"], by_type["L"], by_type["J"]):
        if not all(key in picks for key in must):
            continue  # D9.5: every covered figure of every member
        colours = tuple(covered.get(p, p[1][1]) for p in picks)
        options.append((tuple(f for _, f in picks), tuple(s for s, _ in picks), colours, len(set(colours))))
    return options


def _harmony(trio) -> int:
    """D7.2 harmony of one trio as election_winners takes it: colours, or a bare harmony."""
    return trio if isinstance(trio, int) else len(set(trio))


def _matches(trios, announcement, harmony: int) -> bool:
    """X2: one of ``trios``, of the given harmony, has exactly the announced colours
    (position by position E, L, J, after Media). A bare harmony never matches."""
    if announcement is None:
        return False
    ann = tuple(announcement)
    if len(set(ann)) != harmony:
        return False
    return any(not isinstance(t, int) and tuple(t) == ann for t in trios)


def _points_tiebreak(sides, members, points, how: str):
    """Ties between sides on points: the top member (``max``) or the total (``sum``).

    D9.5 (``team_points_tiebreak``), D9.6 step 1 under pooled (the same variant; the
    Independent, a side of one, counts his own points), D9.6 step 3
    (``p3_points_tiebreak``)."""

    def value(side):
        pts = [points[s] for s in members[side]]
        return max(pts) if how == "max" else sum(pts)

    top = max(value(side) for side in sides)
    return [side for side in sides if value(side) == top]


def election_winners(
    mode: str,
    labels: list[str],
    trios: list,
    points: list[int],
    variants: dict,
    independent_media: int = 0,
    independent_has_j: bool = False,
    announced: dict | None = None,
    side_trios: dict | None = None,
) -> list[str]:
    """Winning side labels of the final election (D7.3–D7.4, D9.5, D9.6, X2).

    ``labels``: side label by seat (individual games: the seats as strings);
    ``trios``: by seat, the player's legal trios (D7.1), each given by its colours in
    order E, L, J after Media — or, where colours do not matter, by its harmony alone
    (an int, which never matches an announcement); empty = no trio;
    ``points``: cumulative points by seat; ``variants``: the record's variants (those of
    the election are read: no_trio_winner, team_points_tiebreak,
    independent_points_strict, p3_harmonies, announced_trio, team_trio,
    p3_points_tiebreak); ``independent_media``: how many Media the Independent of 2v2+1
    holds (kept or collected); ``independent_has_j``: whether he holds a J figure;
    ``announced``: X2 announcements by side label (E, L, J suits), read when
    ``announced_trio`` is on; ``side_trios``: team modes under ``team_trio = pooled``, by
    team label (not the Independent), the team's pooled trios in the form of ``trios``.
    Returns the labels in seat order of first member.
    """
    n = len(labels)
    best = [max((_harmony(t) for t in trios[s]), default=0) for s in range(n)]
    members: dict[str, list[int]] = {}
    for seat, label in enumerate(labels):
        members.setdefault(label, []).append(seat)
    x2 = bool(variants["announced_trio"])
    ann = announced or {}
    pooled = mode != "individual" and variants["team_trio"] == "pooled"
    if pooled and side_trios is None:
        raise ValueError("team_trio = pooled: the teams' pooled trios (side_trios) are needed")

    def sides_of(seats):
        out = []
        for seat in sorted(seats):
            if labels[seat] not in out:
                out.append(labels[seat])
        return out

    def seat_match(s, h):
        # X2, D7.1: the player shows a trio of harmony h with their side's announced
        # colours (in team games a member's announcement is the side's).
        return x2 and _matches(trios[s], ann.get(labels[s]), h)

    def side_harmony(side):
        if pooled and side != "I":  # D9.5 pooled: the team's pooled trio
            return max((_harmony(t) for t in side_trios.get(side, ())), default=0)
        return max(best[s] for s in members[side])  # best_member; the Independent: his own

    def side_match(side, h):
        if not x2:
            return False
        if pooled and side != "I":
            return _matches(side_trios.get(side, ()), ann.get(side), h)
        # X2: under best_member a side matches when any member's trio of the side's
        # harmony matches (the Independent: his own trio).
        return any(best[s] == h and seat_match(s, h) for s in members[side])

    def prefer(cands, match):
        # X2: among candidates tied on harmony, those whose trio has the announced
        # colours win over the others, before cumulative points.
        hits = [c for c in cands if match(c)]
        return hits if hits else cands

    if mode == "individual":
        # D7.3: best harmony, then X2, then cumulative points, still tied: shared.
        top = max(best)
        if top == 0:
            # D7.4 no_trio_winner: "none" -> no winner; "points" -> most points.
            if variants["no_trio_winner"] == "none":
                return []
            most = max(points)
            return sides_of(s for s in range(n) if points[s] == most)
        cands = prefer([s for s in range(n) if best[s] == top], lambda s: seat_match(s, top))
        most = max(points[s] for s in cands)
        return sides_of(s for s in cands if points[s] == most)

    if mode in ("2v2", "2v3"):
        # D9.5: the side whose trio has the best harmony (best member's, or pooled);
        # X2; ties by team_points_tiebreak; still tied: shared.
        side_h = {side: side_harmony(side) for side in members}
        top = max(side_h.values())
        if top == 0:
            return []  # D7.4: in 2v2 and 2v3 no (side) trio anywhere -> no winner
        tied = prefer([side for side in members if side_h[side] == top], lambda side: side_match(side, top))
        tied = _points_tiebreak(tied, members, points, variants["team_points_tiebreak"])
        return sides_of(members[side][0] for side in tied)

    if mode == "2v2+1":
        indep = labels.index("I")
        # D9.6 step 1: 3-colour harmony.
        if pooled:
            # D9.5 as amended: sides' pooled trios (the Independent's own), X2, then
            # the sides' cumulative points as in D9.5 (the Independent: his own).
            tied = [side for side in members if side_harmony(side) == 3]
            if tied:
                tied = prefer(tied, lambda side: side_match(side, 3))
                tied = _points_tiebreak(tied, members, points, variants["team_points_tiebreak"])
                return sides_of(members[side][0] for side in tied)
        else:
            # best_member: players with a 3-colour trio; X2 among them (a player's
            # trio against their side's announcement); those players' own points.
            three = [s for s in range(n) if best[s] == 3]
            if three:
                three = prefer(three, lambda s: seat_match(s, 3))
                most = max(points[s] for s in three)
                return sides_of(s for s in three if points[s] == most)
        # D9.6 step 2: the Independent's own conditions (X2 plays no part).
        others = [points[s] for s in range(n) if s != indep]
        if variants["independent_points_strict"]:
            voice = points[indep] > max(others)
        else:
            voice = points[indep] >= max(others)
        controller = independent_media >= 2 and independent_has_j
        dissident = any(_harmony(t) == 2 for t in trios[indep])  # no 3-colour trio here
        if voice or controller or dissident:
            return ["I"]
        # D9.6 step 3: residual team trios; the Independent takes no part.
        teams = [side for side in members if side != "I"]
        if variants["p3_harmonies"] == "bicolour_then_mono":
            team_h = {side: side_harmony(side) for side in teams}
            top = max(team_h.values())
            if top == 0:
                return []
            tied = prefer([side for side in teams if team_h[side] == top], lambda side: side_match(side, top))
        else:
            # mono_only: only a member who can form a 1-colour trio qualifies (pooled:
            # a team one of whose pooled trios is 1-colour); under X2 only a one-suit
            # announcement can match, against those 1-colour trios.
            def one_colour(side):
                if pooled:
                    return any(_harmony(t) == 1 for t in side_trios.get(side, ()))
                return any(_harmony(t) == 1 for s in members[side] for t in trios[s])

            def mono_match(side):
                if not x2:
                    return False
                if pooled:
                    return _matches(side_trios.get(side, ()), ann.get(side), 1)
                return any(seat_match(s, 1) for s in members[side])

            tied = [side for side in teams if one_colour(side)]
            if not tied:
                return []
            tied = prefer(tied, mono_match)
        tied = _points_tiebreak(tied, members, points, variants["p3_points_tiebreak"])
        return sides_of(members[side][0] for side in tied)

    raise ValueError(f"unknown mode {mode!r}")


# ---------------------------------------------------------------------------------------


class _Referee(RefereeBase):
    def check_header(self) -> bool:
        """Game-level fields. Returns False when the record cannot be replayed."""
        rec = self.record
        if rec.get("game") != "demos":
            self.bad("record", "GAME_RECORD", f"game must be 'demos', got {_short(rec.get('game'))}")
            return False
        if rec.get("contract") != CONTRACT:
            self.bad("record", "GAME_RECORD", f"contract must be {CONTRACT}, got {_short(rec.get('contract'))}")
        rules, mode, n = rec.get("rules"), rec.get("mode"), rec.get("players")
        ok = True
        if rules not in ("full", "simplified"):
            self.bad("record", "D1", f"rules must be 'full' or 'simplified', got {_short(rules)}")
            ok = False
        if mode not in ("individual",) + TEAM_MODES:
            self.bad("record", "D9.1", f"unknown mode {_short(mode)}")
            ok = False
        if not isinstance(n, int) or isinstance(n, bool) or not 3 <= n <= 5:
            self.bad("record", "D2.2", f"players must be 3–5, got {_short(n)}")
            return False
        if not ok:
            return False
        self.rules, self.mode, self.n = rules, mode, n

        # Part V: exactly the DĒMOS variants.
        variants = rec.get("variants")
        if not isinstance(variants, dict):
            self.bad("record", "Part V", "variants must be an object")
            return False
        missing = [k for k in DEMOS_VARIANTS if k not in variants]
        extra = sorted(k for k in variants if k not in DEMOS_VARIANTS)
        if missing:
            self.bad("record", "Part V", f"variants lacks {missing}")
        if extra:
            self.bad("record", "Part V", f"variants holds names that are not DĒMOS variants: {extra}")
        if missing:
            return False
        self.v = variants
        if not self.check_variant_values(variants):
            return False
        self.run_base = tuple(variants["run_base"])

        # D9.1, D9.2: seating and sides.
        seating = rec.get("seating")
        if mode == "individual":
            if seating is not None:
                self.bad("record", "D9.2", "individual games have seating null")
            self.labels = [str(s) for s in range(n)]
        else:
            if rules != "full":
                self.bad("record", "D9.2", "team modes use the full rules")
            if not isinstance(seating, str) or len(seating) != n:
                self.bad("record", "D9.2", f"seating must be {n} labels, got {_short(seating)}")
                return False
            counts = sorted(Counter(seating).values())
            if mode == "2v2":
                good = n == 4 and "I" not in seating and counts == [2, 2]
            elif mode == "2v3":
                good = n == 5 and "I" not in seating and counts == [2, 3]
            else:
                good = n == 5 and seating.count("I") == 1 and counts == [1, 2, 2]
            if not good:
                self.bad("record", "D9.1", f"seating {seating!r} does not fit mode {mode}")
                return False
            self.labels = list(seating)
        self.members: dict[str, list[int]] = {}
        for seat, label in enumerate(self.labels):
            self.members.setdefault(label, []).append(seat)

        policies = rec.get("policies")
        if not isinstance(policies, list) or len(policies) != n:
            self.bad("record", "GAME_RECORD", f"policies must list one policy per seat ({n})")

        # X1: favourite suits by seat exactly when the bonus is on.
        fav = rec.get("favourite_suits")
        self.favourites = [None] * n
        if variants["favourite_suit_bonus"] > 0:
            if not (isinstance(fav, list) and len(fav) == n and all(f in SUITS for f in fav)):
                self.bad("record", "X1", f"favourite_suits must be a suit letter by seat, got {_short(fav)}")
            else:
                self.favourites = list(fav)
        elif fav is not None:
            self.bad("record", "X1", "favourite_suits must be null when favourite_suit_bonus is 0")

        # X2: announcements by side label exactly when announced_trio is on.
        self.check_announced(rec.get("announced_trios"), variants["announced_trio"])

        # D2.3: the People deck can never run out.
        turns = 3 if rules == "full" else 2
        if len(people_deck(rules)) < 5 * n + turns * n:
            self.bad("record", "D2.3", "invalid configuration: the People deck can run out")
        return True

    def check_variant_values(self, v: dict) -> bool:
        """Part V value ranges (also in the schema; repeated so that a check without
        the schema still refuses values the replay cannot use)."""

        def integer(x, low):
            return isinstance(x, int) and not isinstance(x, bool) and x >= low

        ok = {
            "carre_points": integer(v["carre_points"], 0),
            "run_base": isinstance(v["run_base"], list) and len(v["run_base"]) == 3
            and all(integer(x, 0) for x in v["run_base"]),
            "secret_optional": isinstance(v["secret_optional"], bool),
            "max_rounds": v["max_rounds"] is None or integer(v["max_rounds"], 1),
            "round_cap": integer(v["round_cap"], 1),
            "media_targets_revealed": isinstance(v["media_targets_revealed"], bool),
            "media_optional": isinstance(v["media_optional"], bool),
            "no_trio_winner": v["no_trio_winner"] in ("none", "points"),
            "team_vetoes": integer(v["team_vetoes"], 0),
            "team_points_tiebreak": v["team_points_tiebreak"] in ("max", "sum"),
            "independent_double_media": v["independent_double_media"] in ("keep", "act"),
            "independent_points_strict": isinstance(v["independent_points_strict"], bool),
            "p3_harmonies": v["p3_harmonies"] in ("bicolour_then_mono", "mono_only"),
            "favourite_suit_bonus": integer(v["favourite_suit_bonus"], 0),
            "announced_trio": isinstance(v["announced_trio"], bool),
            "team_trio": v["team_trio"] in ("best_member", "pooled"),
            "team_talk": v["team_talk"] in ("figures", "hands"),
            "p3_points_tiebreak": v["p3_points_tiebreak"] in ("sum", "max"),
        }
        bad = [name for name, good in ok.items() if not good]
        for name in bad:
            self.bad("record", "Part V", f"variant {name} has a value outside Part V: {_short(v[name])}")
        return not bad

    def check_announced(self, announced, on: bool) -> None:
        """X2: ``announced_trios`` is null unless ``announced_trio`` is on; then it maps
        every side label (individual games: the seats as strings; team modes: the labels
        of the seating, the Independent's "I" included) to the suits of E, L, J."""
        self.announced: dict[str, tuple] = {}
        if not on:
            if announced is not None:
                self.bad("record", "X2", f"announced_trios must be null when announced_trio is false, got {_short(announced)}")
            return
        if not isinstance(announced, dict):
            self.bad("record", "X2", f"announced_trio is on: announced_trios must map every side to its announced suits of E, L, J, got {_short(announced)}")
            return
        sides = sorted(self.members)
        if sorted(announced) != sides:
            self.bad("record", "X2", f"announced_trios must have exactly the side labels {sides}, got {sorted(map(str, announced))}")
        for side in sides:
            suits = announced.get(side)
            if not (isinstance(suits, list) and len(suits) == 3 and all(x in SUITS for x in suits)):
                if side in announced:
                    self.bad("record", "X2", f"announced_trios[{side!r}] must be 3 suit letters (E, L, J), got {_short(suits)}")
                continue
            self.announced[side] = tuple(suits)

    # -- helpers ----------------------------------------------------------------------

    def score_args(self, seat: int) -> dict:
        return dict(
            rules=self.rules,
            carre_points=self.v["carre_points"],
            run_base=self.run_base,
            favourite_suit=self.favourites[seat],
            favourite_suit_bonus=self.v["favourite_suit_bonus"],
        )

    def check_order(self, where, rule, name, entries, order) -> bool:
        if not isinstance(entries, list):
            self.bad(where, rule, f"{name} must be a list")
            return False
        seats = [e.get("seat") if isinstance(e, dict) else None for e in entries]
        if seats != order:
            self.bad(where, rule, f"{name} must have one entry per player in action order {order}, got seats {seats}")
        return True

    def valid_seat(self, seat) -> bool:
        return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.n

    # -- main phase -------------------------------------------------------------------

    def replay(self) -> None:
        rec, n = self.record, self.n
        # D1, D2.1: the Power pile holds the right cards; it is drawn from index 0.
        pile = rec.get("power_pile")
        if not isinstance(pile, list):
            self.bad("record", "D1", "power_pile must be a list")
            return
        if not _same_set(pile, power_pile_cards(self.rules)):
            self.bad("record", "D1", f"power_pile is not the {self.rules} Power pile: {_short(pile, 240)}")
        self.pile = pile
        self.pile_pos = 0
        self.owned = {s: [] for s in range(n)}  # figures in order of acquisition (D4.6)
        self.face_up = {s: set() for s in range(n)}  # revealed by a Carré (D4.6)
        self.cumulative = [0] * n  # D4.7
        # D3.4.1, D9.3: vetoes belong to sides.
        self.vetoes = {}
        for label, ms in self.members.items():
            if self.mode == "2v3" and len(ms) == 2:
                self.vetoes[label] = self.v["team_vetoes"]
            else:
                self.vetoes[label] = 1

        rounds = rec.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            self.bad("record", "GAME_RECORD", "rounds must be a non-empty list")
            return
        max_rounds, round_cap = self.v["max_rounds"], self.v["round_cap"]
        expected_end = None  # ("normal" | "truncated", number of rounds)
        for r, rnd in enumerate(rounds):
            try:
                self.replay_round(r, rnd)
            except Exception as exc:
                self.bad(f"round {r}", "replay", f"could not replay this round ({type(exc).__name__}: {exc}); replay stopped")
                return
            played = r + 1
            # D5.1: the main phase ends after the round in which the pile became
            # empty, or after max_rounds rounds; else round_cap truncates the game.
            # A normal end that falls on the round_cap round is a normal end.
            if self.pile_pos >= len(pile) or (max_rounds is not None and played >= max_rounds):
                expected_end = ("normal", played)
                break
            if played >= round_cap:
                expected_end = ("truncated", played)
                break
        self.last_round = len(rounds) - 1
        truncated = rec.get("truncated")
        if expected_end is None:
            self.bad(
                "record", "D5.1",
                f"the record stops after {len(rounds)} rounds but the game was not over "
                f"({len(pile) - self.pile_pos} figures left, max_rounds {max_rounds}, round_cap {round_cap})",
            )
            self.expect_truncated = bool(truncated)
        else:
            kind, played = expected_end
            if len(rounds) != played:
                why = "the Power pile was empty" if self.pile_pos >= len(pile) else (
                    "max_rounds was reached" if kind == "normal" else "round_cap was reached")
                self.bad("record", "D5.1",
                         f"the game must end after {played} rounds, i.e. after round {played - 1} counted from 0 "
                         f"({why}), but the record has {len(rounds)} rounds")
            self.expect_truncated = kind == "truncated"
            if truncated is not self.expect_truncated:
                self.bad("record", "D5.1",
                         f"truncated must be {self.expect_truncated} ({kind} end after {played} rounds), got {_short(truncated)}")

    def replay_round(self, r: int, rnd: dict) -> None:
        where = f"round {r}"
        n, rules, v = self.n, self.rules, self.v
        if not isinstance(rnd, dict):
            raise TypeError("a round must be an object")
        dealer = r % n
        if rnd.get("dealer") != dealer:  # D2.1
            self.bad(where, "D2.1", f"dealer must be {dealer} (round {r} mod {n}), got {_short(rnd.get('dealer'))}")
        order = [(dealer + 1 + i) % n for i in range(n)]  # action order

        # D1, D3.1: the People deck, shuffled.
        deck = rnd.get("deck")
        if not isinstance(deck, list):
            raise TypeError("deck must be a list")
        expected_deck = people_deck(rules)
        if not _same_set(deck, expected_deck):
            missing = sorted(set(expected_deck) - set(deck))
            extra = sorted((Counter(deck) - Counter(expected_deck)).elements())
            self.bad(where, "D1", f"deck is not a permutation of the {rules} People deck (missing {missing}, extra {extra})")
        pos = 0

        def draw(who: str):
            nonlocal pos
            if pos >= len(deck):
                self.bad(where, "D2.3", f"{who}: the People deck ran out")
                return None
            card = deck[pos]
            pos += 1
            return card

        # D3.1: 5 cards each, one at a time in action order, from the top.
        hands = {s: [] for s in range(n)}
        for _ in range(5):
            for s in order:
                card = draw(f"deal to seat {s}")
                if card is not None:
                    hands[s].append(card)

        def give(seat, card):
            if self.valid_seat(seat) and card is not None:
                hands[seat].append(card)

        def take_from_hand(seat, card, rule, turn) -> None:
            if not self.valid_seat(seat):
                self.bad(where, rule, f"{turn}: bad seat {_short(seat)}")
            elif card not in hands[seat]:
                self.bad(where, rule, f"{turn}: seat {seat} discards {_short(card)}, which is not in their hand {sorted(hands[seat])}")
            else:
                hands[seat].remove(card)

        # D3.2 public discard: discard from hand face up, then draw the next card.
        table: list[str] = []  # public discards still on the table
        public = rnd.get("public")
        if self.check_order(where, "D3.2", "public", public, order):
            for e in public:
                seat, card = e.get("seat"), e.get("discard")
                take_from_hand(seat, card, "D3.2", "public discard")
                table.append(card)
                give(seat, draw(f"public draw of seat {seat}"))

        # D3.3 secret discard: discard face down, then the deck or a public discard.
        secret_discards: list[str] = []
        secret = rnd.get("secret")
        if self.check_order(where, "D3.3", "secret", secret, order):
            for e in secret:
                seat, card, take = e.get("seat"), e.get("discard"), e.get("take")
                if card is None and take is None:
                    if not v["secret_optional"]:
                        self.bad(where, "D3.3", f"secret turn: seat {seat} passes but secret_optional is false")
                    continue
                if card is None or take is None:
                    self.bad(where, "D3.3", f"secret turn: seat {seat}: discard and take are both null (a pass) or both set")
                    continue
                take_from_hand(seat, card, "D3.3", "secret discard")
                secret_discards.append(card)
                if take == "deck":
                    give(seat, draw(f"secret draw of seat {seat}"))
                elif take in table:
                    table.remove(take)  # a physical card: once taken it is gone
                    give(seat, take)
                else:
                    self.bad(where, "D3.3", f"secret turn: seat {seat} takes {_short(take)}, which is not a public discard still on the table {table}")
                    give(seat, take)

        # D3.4 unanimous discard (full rules only; simplified: D8).
        veto, unanimous = rnd.get("veto"), rnd.get("unanimous")
        if rules == "simplified":
            if veto is not None:
                self.bad(where, "D8", "simplified rules have no unanimous turn, so no veto")
            if unanimous is not None:
                self.bad(where, "D8", "simplified rules have no unanimous turn")
        else:
            # D3.4.1, D9.3: sides still holding a veto are asked in action order, a
            # team at its first member in action order.
            asked = []  # (seat, side) in the order the sides are asked
            seen = set()
            for s in order:
                label = self.labels[s]
                if label in seen:
                    continue
                seen.add(label)  # s is the side's first member in action order
                if self.vetoes[label] > 0:  # only a side holding a veto is asked
                    asked.append((s, label))
            if veto is not None:
                vseat = veto.get("seat") if isinstance(veto, dict) else None
                if not self.valid_seat(vseat):
                    self.bad(where, "D3.4.1", f"veto must be null or {{'seat': s}}, got {_short(veto)}")
                else:
                    label = self.labels[vseat]
                    if self.vetoes[label] <= 0:
                        self.bad(where, "D3.4.1", f"veto at seat {vseat}: side {label!r} holds no veto any more")
                    elif (vseat, label) not in asked:
                        first = min(self.members[label], key=order.index)
                        self.bad(where, "D9.3", f"veto recorded at seat {vseat}, but side {label!r} is asked at its first member in action order, seat {first}")
                    if self.vetoes[label] > 0:
                        self.vetoes[label] -= 1
                if unanimous is not None:
                    self.bad(where, "D3.4.1", "a vetoed round has no unanimous turn (unanimous must be null)")
            elif not isinstance(unanimous, list):
                self.bad(where, "D3.4", "without a veto, full rules play the unanimous turn (unanimous must be a list)")
            elif self.check_order(where, "D3.4.3", "unanimous", unanimous, order):
                # D3.4.2: visible = public discards not taken + every secret discard.
                visible = list(table) + list(secret_discards)
                out_of_round = []
                for e in unanimous:
                    seat, card, take = e.get("seat"), e.get("discard"), e.get("take")
                    take_from_hand(seat, card, "D3.4.3", "unanimous discard")
                    out_of_round.append(card)  # face down, out of the round
                    if take == "deck":
                        give(seat, draw(f"unanimous draw of seat {seat}"))
                    elif take in visible:
                        visible.remove(take)
                        give(seat, take)
                    else:
                        why = ("a unanimous discard is out of the round" if take in out_of_round
                               else f"visible discards still on the table: {visible}")
                        self.bad(where, "D3.4.3", f"unanimous turn: seat {seat} takes {_short(take)}, which it may not ({why})")
                        give(seat, take)

        # D3.5: hands at showdown.
        rec_hands = rnd.get("hands")
        seat_keys = {str(s) for s in range(n)}
        if not isinstance(rec_hands, dict) or set(rec_hands) != seat_keys:
            self.bad(where, "GAME_RECORD", f"hands must map every seat {sorted(seat_keys)}")
            rec_hands = rec_hands if isinstance(rec_hands, dict) else {}
        showdown = {}
        for s in range(n):
            recorded = rec_hands.get(str(s))
            if not isinstance(recorded, list) or not _same_set(recorded, hands[s]):
                self.bad(where, "D3.5", f"seat {s}: recorded hand {_short(recorded)} but the replay gives {sorted(hands[s])}")
            showdown[s] = hands[s]
            if isinstance(recorded, list) and self._is_hand(recorded):
                showdown[s] = recorded  # follow the record for the scoring checks
            if len(hands[s]) != 5:
                self.bad(where, "D3.5", f"seat {s} holds {len(hands[s])} cards at showdown after the replay")

        # D4.1, D4.2: every player plays their best combination.
        combos = rnd.get("combos")
        if not isinstance(combos, dict) or set(combos) != seat_keys:
            self.bad(where, "GAME_RECORD", f"combos must map every seat {sorted(seat_keys)}")
            combos = combos if isinstance(combos, dict) else {}
        best, keys = {}, {}
        for s in range(n):
            if not self._is_hand(showdown[s]):
                raise ValueError(f"seat {s} has no valid 5-card hand to score")
            best[s] = ref_best(showdown[s], **self.score_args(s))
            keys[s] = ref_round_key(showdown[s], **self.score_args(s))
            self.check_combo(where, s, showdown[s], combos.get(str(s), "missing"), best[s])

        # D4.3 (D9.4): winners = every player with the top key; none if all abandon.
        scored = {s: k for s, k in keys.items() if k is not None}
        top = max(scored.values()) if scored else None
        exp_winners = [s for s in order if scored.get(s) == top] if scored else []
        winners = rnd.get("winners")
        if not isinstance(winners, list) or sorted(map(str, winners)) != sorted(map(str, exp_winners)):
            self.bad(where, "D4.3", f"winners must be {sorted(exp_winners)} (keys {self._keys_text(keys)}), got {_short(winners)}")

        # D4.5 (D9.4): each winning side draws 1 figure, 2 after a Carré, served in
        # action order of its round-winning player, until the pile is empty.
        sides = []  # (label, won with a Carré) in service order
        for s in exp_winners:  # already in action order
            label = self.labels[s]
            if label not in [x for x, _ in sides]:
                side_winners = [w for w in exp_winners if self.labels[w] == label]
                sides.append((label, any(best[w][0] == "carre" for w in side_winners)))
        expected_draws = []
        p = self.pile_pos
        for label, carre in sides:
            for _ in range(2 if carre else 1):
                if p < len(self.pile):
                    expected_draws.append((label, self.pile[p]))
                    p += 1
        figures = rnd.get("figures")
        if not isinstance(figures, list):
            raise TypeError("figures must be a list")
        if len(figures) != len(expected_draws):
            self.bad(where, "D4.5", f"{len(expected_draws)} figures must be drawn ({[f for _, f in expected_draws]} to sides {[l for l, _ in expected_draws]}), the record has {len(figures)}")
        for i, e in enumerate(figures):
            seat, fig = e.get("seat"), e.get("figure")
            if i < len(expected_draws):
                label, exp_fig = expected_draws[i]
                if fig != exp_fig:
                    self.bad(where, "D4.5", f"figure #{i} must be {exp_fig} (Power pile card {self.pile_pos + i}), got {_short(fig)}")
                if not self.valid_seat(seat) or self.labels[seat] != label:
                    if self.mode == "individual":
                        self.bad(where, "D4.5", f"figure #{i} ({exp_fig}) goes to winner seat {label}, got seat {_short(seat)}")
                    else:
                        self.bad(where, "D9.4", f"figure #{i} ({exp_fig}) goes to a member of side {label!r} {self.members[label]}, got seat {_short(seat)}")
            if self.valid_seat(seat) and isinstance(fig, str):
                self.owned[seat].append(fig)  # follow the record
        self.pile_pos = min(len(self.pile), self.pile_pos + len(figures))

        # D4.6 (D9.4): Carré reveal, after the draws.
        carre_sides = {label for label, carre in sides if carre}
        expected_reveals = []
        if carre_sides:
            for s in range(n):
                if self.labels[s] in carre_sides:
                    continue  # won the round with a Carré (its side did, in team modes)
                first = next((f for f in self.owned[s] if f != MEDIA), None)
                if first is not None and first not in self.face_up[s]:
                    expected_reveals.append((s, first))
        reveals = rnd.get("reveals")
        if not isinstance(reveals, list):
            raise TypeError("reveals must be a list")
        got = [(e.get("seat"), e.get("figure")) for e in reveals]
        if not _same_set(got, expected_reveals):
            self.bad(where, "D4.6", f"reveals must be {sorted(expected_reveals)}, got {got}")
        for seat, fig in got:
            if self.valid_seat(seat) and fig in self.owned[seat]:
                self.face_up[seat].add(fig)  # follow the record

        # D4.1, D4.7: round points (0 when abandoned), cumulated.
        exp_points = [best[s][1] if best[s][0] is not None else 0 for s in range(n)]
        points = rnd.get("points")
        if points != exp_points:
            self.bad(where, "D4.7", f"points must be {exp_points}, got {_short(points)}")
        if isinstance(points, list) and len(points) == n and all(isinstance(x, int) for x in points):
            self.cumulative = [c + x for c, x in zip(self.cumulative, points)]
        else:
            self.cumulative = [c + x for c, x in zip(self.cumulative, exp_points)]

    def _is_hand(self, cards) -> bool:
        try:
            deck = set(people_deck(self.rules))
            return len(cards) == 5 and len(set(cards)) == 5 and all(c in deck for c in cards)
        except TypeError:
            return False

    @staticmethod
    def _keys_text(keys) -> str:
        return "{" + ", ".join(f"{s}: {k}" for s, k in keys.items()) + "}"

    def check_combo(self, where, seat, hand, combo, best) -> None:
        """D4.1–D4.2: the recorded combination is a best combination of the hand."""
        kind, score, unplayed = best
        if combo == "missing":
            return  # already reported with the combos map
        if kind is None:
            if combo is not None:
                self.bad(where, "D4.1", f"seat {seat} holds no combination in {sorted(hand)} and must abandon (combo null), got {_short(combo)}")
            return
        if not isinstance(combo, dict):
            self.bad(where, "D4.1", f"seat {seat} must play a {kind} scoring {score}, got {_short(combo)}")
            return
        if combo.get("kind") != kind or combo.get("score") != score:
            self.bad(where, "D4.2", f"seat {seat}: best combination of {sorted(hand)} is a {kind} scoring {score} (unplayed {unplayed}), got {combo.get('kind')} scoring {_short(combo.get('score'))}")
        cards = combo.get("cards")
        if not isinstance(cards, list) or len(set(cards)) != len(cards) or not set(cards) <= set(hand):
            self.bad(where, "D4.1", f"seat {seat}: combination cards {_short(cards)} are not distinct cards of the hand {sorted(hand)}")
            return
        scored = combination_score(cards, **self.score_args(seat))
        if scored is None or scored[0] != combo.get("kind"):
            self.bad(where, "D4.1", f"seat {seat}: {cards} is not a {combo.get('kind')}")
            return
        if scored[1] != combo.get("score"):
            self.bad(where, "D4.1", f"seat {seat}: {cards} scores {scored[1]}, recorded {_short(combo.get('score'))}")
        left = sum(card_value(c) for c in hand) - sum(card_value(c) for c in cards)
        if (scored[1], left) != (score, unplayed):
            self.bad(where, "D4.2", f"seat {seat}: {cards} gives (score, unplayed) = {(scored[1], left)}, the best is {(score, unplayed)}")

    # -- Scandal (D6) -----------------------------------------------------------------

    def check_scandal(self) -> dict:
        """Checks the Scandal phase; returns the Media covers: (seat, figure) -> colour."""
        rec, n, v = self.record, self.n, self.v
        scandal = rec.get("scandal")
        covered: dict = {}
        if self.rules == "simplified" or self.expect_truncated:
            if scandal is not None:
                why = "simplified rules (D8)" if self.rules == "simplified" else "a truncated game (D5.1)"
                self.bad("scandal", "D6", f"scandal must be null in {why}")
            return covered
        if not isinstance(scandal, dict):
            self.bad("scandal", "D6", "full rules: the Scandal phase must be recorded")
            return covered
        media = {s: self.owned[s].count(MEDIA) for s in range(n)}
        indep = self.labels.index("I") if self.mode == "2v2+1" else None
        # D6.1: two Media cancel out, except for the Independent of 2v2+1 (D9.6).
        exp_cancelled = [s for s in range(n) if media[s] >= 2 and s != indep]
        exp_kept = [indep] if indep is not None and media[indep] >= 2 and v["independent_double_media"] == "keep" else []
        if not isinstance(scandal.get("cancelled"), list) or sorted(map(str, scandal["cancelled"])) != sorted(map(str, exp_cancelled)):
            self.bad("scandal", "D6.1", f"cancelled must be {exp_cancelled}, got {_short(scandal.get('cancelled'))}")
        if not isinstance(scandal.get("kept"), list) or sorted(map(str, scandal["kept"])) != sorted(map(str, exp_kept)):
            self.bad("scandal", "D9.6", f"kept must be {exp_kept}, got {_short(scandal.get('kept'))}")
        # D6.2: remaining Media holders act in action order of the last round; the
        # Independent under "act" plays both of his, one after the other.
        last_dealer = self.last_round % n
        order = [(last_dealer + 1 + i) % n for i in range(n)]
        slots = []
        for s in order:
            if s in exp_cancelled or s in exp_kept:
                continue
            slots += [s] * min(media[s], 2 if s == indep else 1)
        actions = scandal.get("actions")
        if not isinstance(actions, list):
            self.bad("scandal", "D6.2", "actions must be a list")
            return covered

        def legal_targets(holder):
            out = []
            for t in range(n):
                if t == holder:
                    continue  # another player
                for f in self.owned[t]:
                    if f == MEDIA or (t, f) in covered:
                        continue
                    if f in self.face_up[t] and not v["media_targets_revealed"]:
                        continue  # D6.3: a Carré-revealed figure is not hidden
                    out.append((t, f))
            return out

        i = 0
        for s in slots:
            legal = legal_targets(s)
            act = actions[i] if i < len(actions) else None
            if isinstance(act, dict) and act.get("seat") == s:
                i += 1
                target, fig, colour = act.get("target"), act.get("figure"), act.get("colour")
                if (target, fig) not in legal:
                    self.bad("scandal", "D6.2", f"Media of seat {s} targets {_short(fig)} of seat {_short(target)}, not a legal target {legal}")
                if colour not in SUITS:
                    self.bad("scandal", "D6.2", f"Media of seat {s} announces {_short(colour)}, not a colour")
                if self.valid_seat(target) and fig in self.owned[target] and fig != MEDIA:
                    covered[(target, fig)] = colour  # follow the record
            elif legal and not v["media_optional"]:
                self.bad("scandal", "D6.2", f"the Media of seat {s} is compulsory (media_optional false) with legal targets {legal}, but no action of seat {s} is recorded here")
        for act in actions[i:]:
            self.bad("scandal", "D6.2", f"unexpected Media action {_short(act)} (expected Media players in order: {slots})")
        return covered

    # -- final election (D7, D9.5, D9.6) ----------------------------------------------

    def check_final(self, covered: dict) -> None:
        rec, n = self.record, self.n
        final = rec.get("final")
        if self.expect_truncated:
            if final is not None:
                self.bad("final", "D5.1", "a truncated game has no election (final must be null)")
            return
        if not isinstance(final, dict):
            self.bad("final", "D7", "final must be recorded for a game that was not truncated")
            return
        if final.get("cumulative_points") != self.cumulative:
            self.bad("final", "D4.7", f"cumulative_points must be {self.cumulative} (sum of round points), got {_short(final.get('cumulative_points'))}")
        trios = final.get("trios") if isinstance(final.get("trios"), dict) else {}
        colours = final.get("trio_colours") if isinstance(final.get("trio_colours"), dict) else {}
        harmony = final.get("harmony")
        seat_keys = {str(s) for s in range(n)}
        if set(trios) != seat_keys or set(colours) != seat_keys:
            self.bad("final", "GAME_RECORD", "trios and trio_colours must map every seat")
        x2 = self.v["announced_trio"]
        colourings = []  # by seat: the colours of every legal trio (D7.1)
        for s in range(n):
            cov = {f: c for (t, f), c in covered.items() if t == s}
            options = trio_options(self.owned[s], cov)
            colourings.append({c for _, c, _ in options})
            best_h = max((h for _, _, h in options), default=0)
            trio, tcol = trios.get(str(s)), colours.get(str(s))
            if not options:
                if trio is not None or tcol is not None:
                    self.bad("final", "D7.1", f"seat {s} can form no trio (figures {self.owned[s]}, covered {cov}); trio must be null, got {_short(trio)}")
            else:
                legal = {t: (c, h) for t, c, h in options}
                key = tuple(trio) if isinstance(trio, list) else None
                if key not in legal:
                    self.bad("final", "D7.1", f"seat {s}: {_short(trio)} is not a legal trio in order E, L, J of {self.owned[s]} (covered {cov})")
                else:
                    c, h = legal[key]
                    if h != best_h:
                        self.bad("final", "D7.1", f"seat {s}: trio {trio} has harmony {h}, the best is {best_h}")
                    if tcol != list(c):
                        self.bad("final", "D7.1", f"seat {s}: trio_colours of {trio} must be {list(c)}, got {_short(tcol)}")
                    # X2, D7.1: among the best-harmony trios, one matching the
                    # announcement (the side's, in team games) when there is one.
                    ann = self.announced.get(self.labels[s]) if x2 else None
                    if h == best_h and ann is not None and c != ann and _matches(colourings[s], ann, best_h):
                        match = next(t for t, tc, th in options if tc == ann)
                        self.bad("final", "X2", f"seat {s} (side {self.labels[s]!r}) announced {list(ann)} and can show the matching trio {list(match)} of the best harmony {best_h}; recorded {trio} with colours {list(c)}")
            if isinstance(harmony, list) and len(harmony) == n and harmony[s] != best_h:
                self.bad("final", "D7.2", f"seat {s}: harmony must be {best_h}, got {_short(harmony[s])}")
        if not isinstance(harmony, list) or len(harmony) != n:
            self.bad("final", "GAME_RECORD", f"harmony must list {n} values, got {_short(harmony)}")

        side_colourings = self.check_side_trios(final, covered)

        indep = self.labels.index("I") if self.mode == "2v2+1" else None
        sides = election_winners(
            self.mode, self.labels, colourings, self.cumulative, self.v,
            independent_media=self.owned[indep].count(MEDIA) if indep is not None else 0,
            independent_has_j=any(f[0] == "J" for f in self.owned[indep]) if indep is not None else False,
            announced=self.announced, side_trios=side_colourings,
        )
        exp_winners = sorted(s for s in range(n) if self.labels[s] in sides)
        rule = {"individual": "D7.3", "2v2": "D9.5", "2v3": "D9.5", "2v2+1": "D9.6"}[self.mode]
        seat_h = [max((_harmony(c) for c in cs), default=0) for cs in colourings]
        why = f"harmony {seat_h}, points {self.cumulative}"
        if side_colourings is not None:
            why += f", pooled harmony {dict((k, max((_harmony(c) for c in cs), default=0)) for k, cs in sorted(side_colourings.items()))}"
        if x2:
            why += f", announced {dict((k, list(a)) for k, a in sorted(self.announced.items()))}"
        got_w = final.get("winners")
        if not isinstance(got_w, list) or sorted(map(str, got_w)) != sorted(map(str, exp_winners)):
            self.bad("final", rule, f"winners must be {exp_winners} ({why}), got {_short(got_w)}")
        got_s = final.get("winning_sides")
        if not isinstance(got_s, list) or sorted(map(str, got_s)) != sorted(sides) or len(got_s) != len(sides):
            self.bad("final", rule, f"winning_sides must be {sorted(sides)}, got {_short(got_s)}")

    def check_side_trios(self, final: dict, covered: dict) -> dict | None:
        """D9.5 ``team_trio = pooled`` (team modes): ``final.side_trios`` maps every team
        label (not the Independent) to a legal pooled trio of the best pooled harmony —
        matching the team's announcement under X2 when one does — or to null when the
        team can form none; otherwise ``side_trios`` is null. Returns the teams' pooled
        trio colourings for the election (None when not pooled)."""
        if "side_trios" not in final:
            self.bad("final", "GAME_RECORD", "final must hold side_trios (null unless team_trio is pooled in a team mode)")
        got = final.get("side_trios")
        if self.mode == "individual" or self.v["team_trio"] != "pooled":
            if got is not None:
                why = "individual games (team_trio has no effect)" if self.mode == "individual" else "team_trio = best_member"
                self.bad("final", "D9.5", f"side_trios must be null in {why}, got {_short(got)}")
            return None
        teams = sorted(label for label in self.members if label != "I")
        if not isinstance(got, dict):
            self.bad("final", "D9.5", f"team_trio = pooled: side_trios must map the teams {teams} to their pooled trios, got {_short(got)}")
            got = {}
        elif sorted(got) != teams:
            self.bad("final", "D9.5", f"side_trios must have exactly the team labels {teams} (not the Independent), got {sorted(map(str, got))}")
        out = {}
        for team in teams:
            ms = self.members[team]
            cov = {(t, f): c for (t, f), c in covered.items() if t in ms}
            options = pooled_trio_options({s: self.owned[s] for s in ms}, cov)
            out[team] = {c for _, _, c, _ in options}
            if team not in got:
                continue
            entry = got[team]
            figures = {s: self.owned[s] for s in ms}
            if not options:
                if entry is not None:
                    self.bad("final", "D9.5", f"team {team!r} can form no pooled trio (figures {figures}, covered {cov}); side_trios[{team!r}] must be null, got {_short(entry)}")
                continue
            best_h = max(h for _, _, _, h in options)
            legal = {(t, s): (c, h) for t, s, c, h in options}
            if not isinstance(entry, dict):
                self.bad("final", "D9.5", f"team {team!r} can form a pooled trio of harmony {best_h}; side_trios[{team!r}] must record it, got {_short(entry)}")
                continue
            figs, seats, tcol = entry.get("figures"), entry.get("seats"), entry.get("colours")
            key = (tuple(figs) if isinstance(figs, list) else None, tuple(seats) if isinstance(seats, list) else None)
            if key not in legal:
                self.bad("final", "D9.5", f"team {team!r}: {_short(figs)} held by seats {_short(seats)} is not a legal pooled trio in order E, L, J of {figures} (covered {cov})")
                continue
            c, h = legal[key]
            if h != best_h:
                self.bad("final", "D9.5", f"team {team!r}: pooled trio {figs} has harmony {h}, the best is {best_h}")
            if tcol != list(c):
                self.bad("final", "D9.5", f"team {team!r}: colours of pooled trio {figs} must be {list(c)}, got {_short(tcol)}")
            if entry.get("harmony") != h:
                self.bad("final", "D9.5", f"team {team!r}: harmony of pooled trio {figs} (colours {list(c)}) is {h}, got {_short(entry.get('harmony'))}")
            ann = self.announced.get(team) if self.v["announced_trio"] else None
            if h == best_h and ann is not None and c != ann and _matches(out[team], ann, best_h):
                match = next((t, s) for t, s, tc, th in options if tc == ann)
                self.bad("final", "X2", f"team {team!r} announced {list(ann)} and can show the matching pooled trio {list(match[0])} (seats {list(match[1])}) of the best harmony {best_h}; recorded {figs} with colours {list(c)}")
        return out

    def run(self) -> None:
        if not isinstance(self.record, dict):
            self.bad("record", "GAME_RECORD", f"a game record is a JSON object, got {type(self.record).__name__}")
            return
        if self.schema:
            self.check_schema()
        if not self.check_header():
            self.bad("record", "replay", "the record cannot be replayed")
            return
        self.expect_truncated = bool(self.record.get("truncated"))
        self.replay()
        if not hasattr(self, "last_round"):
            return  # the replay stopped early; already reported
        covered = {}
        try:
            covered = self.check_scandal()
        except Exception as exc:
            self.bad("scandal", "replay", f"could not check the Scandal phase ({type(exc).__name__}: {exc})")
        try:
            self.check_final(covered)
        except Exception as exc:
            self.bad("final", "replay", f"could not check the election ({type(exc).__name__}: {exc})")


def audit_demos(record: dict, *, check_schema: bool = True) -> list[str]:
    """Replay one DĒMOS game record and list its violations of RULES.md Part D.

    Parameters
    ----------
    record : dict
        One game record in the format of GAME_RECORD.md (one parsed JSON line).
    check_schema : bool, keyword-only
        Validate against game_record.schema.json first (default). The schema check is
        most of the cost (~40 ms a game); turn it off to audit many records quickly.

    Returns
    -------
    list of str
        Human-readable violations, each ``"<where>: [<rule ID>] <what>"``; empty when
        the game was played exactly by the rules. Never raises on a malformed record.
    """
    return _audit(_Referee, record, check_schema)


def main(argv: list[str]) -> int:
    """``python tests/referee_demos.py FILE.jsonl …``: audit every demos line."""
    return run_cli(argv, "demos", audit_demos)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
