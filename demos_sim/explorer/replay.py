"""A sample game as a readable round-by-round replay, written from its game record
(GAME_RECORD.md, contract 2): each player's hand, what each seat did, who won the round,
the scores, how the game ended, and the round where it swung. Every line reads a field
of the record; a DĒMOS replay also lists every decision with the bot's reason
(:meth:`demos_sim.game.Game.decisions`: the same game played again with its decisions kept).

*The swing* (:func:`swing`): the round whose result last changed the lead — after each
round the leaders are the seats with the most points so far (DĒMOS cumulative points,
D4; Protocole points, each mode; L'Assemblée renown + ⌊gold / 3⌋, A10); the swing is the
last round after which the leaders differ from those before it, so that from then on the
same seats lead to the end. It is named with the eventual winner: in DĒMOS the election
goes by the trios' harmony first (D7.3), so the points leader need not win, and the
replay says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
P_COLOURS = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "K": "black", "P": "purple"}
P_SYMBOLS = {"M": "moon", "Q": "square", "T": "triangle", "S": "star", "X": "cross",
             "O": "circle"}


@dataclass
class Replay:
    title: str
    header: list[str] = field(default_factory=list)
    rounds: list[tuple[str, list[str]]] = field(default_factory=list)
    final: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)        # by round: "seat 0: …"
    decisions: list[list[dict]] = field(default_factory=list)   # by round (DĒMOS)
    scores: list[list[int | None]] = field(default_factory=list)  # the lead's score by round
    winners: list[int] = field(default_factory=list)
    swing_round: int | None = None                              # 0-based
    swing_text: str = ""


def _seat(s) -> str:
    return f"seat {s}"


# ---------------------------------------------------------------- DĒMOS
def _dcard(c: str | None) -> str:
    if c is None:
        return "—"
    if c == "M":
        return "Media"
    return c[:-1] + SUITS.get(c[-1], c[-1])


def _dcards(cs) -> str:
    return " ".join(_dcard(c) for c in cs)


def _demos(r: dict) -> Replay:
    rep = Replay("DĒMOS")
    rep.header.append(f"{r['rules']} rules, {r['mode']}, {r['players']} players"
                      + (f", seating {r['seating']}" if r.get("seating") else ""))
    rep.header.append("bots: " + ", ".join(f"{i}: {p}" for i, p in enumerate(r["policies"])))
    rep.header.append(f"Power pile (top first): {_dcards(r['power_pile'])}")
    total = [0] * r["players"]
    for i, rd in enumerate(r["rounds"]):
        lines = []
        lines.append("public discards (D3.2): " + "; ".join(
            f"{_seat(a['seat'])} {_dcard(a['discard'])}" for a in rd["public"]))

        def _exchange(acts):
            out = []
            for a in acts:
                if a["discard"] is None:
                    out.append(f"{_seat(a['seat'])} passes")
                else:
                    take = "the deck" if a["take"] == "deck" else _dcard(a["take"])
                    out.append(f"{_seat(a['seat'])} gives {_dcard(a['discard'])}, takes {take}")
            return "; ".join(out)

        lines.append("secret exchange (D3.3): " + _exchange(rd["secret"]))
        if rd["veto"] is not None:
            lines.append(f"veto (D3.4) by {_seat(rd['veto']['seat'])}: no unanimous exchange")
        elif rd["unanimous"] is not None:
            lines.append("unanimous exchange (D3.4): " + _exchange(rd["unanimous"]))
        shows = []
        for seat, combo in rd["combos"].items():
            if combo is None:
                shows.append(f"{_seat(seat)} abandons")
            else:
                shows.append(f"{_seat(seat)} {combo['kind']} {_dcards(combo['cards'])} "
                             f"= {combo['score']}")
        lines.append("showdown (D4): " + "; ".join(shows))
        figs = ", ".join(f"{_seat(f['seat'])} draws {_dcard(f['figure'])}" for f in rd["figures"])
        lines.append("round won by " + (", ".join(_seat(w) for w in rd["winners"]) or "nobody")
                     + (f" — {figs}" if figs else ""))
        if rd["reveals"]:
            lines.append("revealed by a Carré (D4.6): " + ", ".join(
                f"{_seat(x['seat'])} {_dcard(x['figure'])}" for x in rd["reveals"]))
        rep.hands.append([f"{_seat(seat)}: {_dcards(cs)}"
                          for seat, cs in sorted(rd.get("hands", {}).items(), key=lambda x: int(x[0]))])
        total = [t + p for t, p in zip(total, rd["points"])]
        rep.scores.append(list(total))
        lines.append("points this round " + " · ".join(map(str, rd["points"]))
                     + "   (total " + " · ".join(map(str, total)) + ")")
        rep.rounds.append((f"Round {i + 1} — dealer {_seat(rd['dealer'])}", lines))
    if r["truncated"]:
        rep.final.append(f"truncated: the round cap was reached (D5.1) — no result")
        return rep
    sc = r["scandal"]
    if sc is not None:
        acts = [f"{_seat(a['seat'])} turns {_seat(a['target'])}'s {_dcard(a['figure'])} "
                f"to {SUITS.get(a['colour'], a['colour'])}" for a in sc["actions"]]
        if sc["cancelled"]:
            acts.append("two Media cancel for " + ", ".join(_seat(s) for s in sc["cancelled"]))
        lines = ["; ".join(acts) if acts else "no Media acts"]
        rep.final.append("Scandal (D6): " + lines[0])
    fin = r["final"]
    trios = []
    for seat, trio in fin["trios"].items():
        if trio is None:
            trios.append(f"{_seat(seat)} no trio")
        else:
            cols = "".join(SUITS.get(c, c) for c in fin["trio_colours"][seat])
            trios.append(f"{_seat(seat)} {_dcards(trio)} (colours {cols}, "
                         f"harmony {fin['harmony'][int(seat)]})")
    rep.final.append("trios (D7): " + "; ".join(trios))
    rep.final.append("points: " + " · ".join(map(str, fin["cumulative_points"])))
    rep.final.append("winner: " + (", ".join(_seat(w) for w in fin["winners"]) or
                                   "nobody (no winner)"))
    rep.winners = list(fin["winners"])
    return rep


# ---------------------------------------------------------------- Protocole
def _pcard(c: str) -> str:
    return f"{P_COLOURS.get(c[0], c[0])} {P_SYMBOLS.get(c[1], c[1])}"


def _pcards(cs) -> str:
    return ", ".join(_pcard(c) for c in cs)


def _protocole(r: dict) -> Replay:
    rep = Replay("Protocole")
    level = f" level {r['level']}" if r.get("level") is not None else ""
    rep.header.append(f"{r['mode']}{level}, {r['players']} players")
    rep.header.append("bots: " + ", ".join(f"{i}: {p}" for i, p in enumerate(r["policies"])))
    if r["removed"]:
        rep.header.append(f"removed at setup (P1.2): {_pcards(r['removed'])}")
    for i, rd in enumerate(r["rounds"]):
        lines = []
        rep.hands.append([f"{_seat(seat)}: {_pcards(cs)}"
                          for seat, cs in sorted((rd.get("hands") or {}).items(),
                                                 key=lambda x: int(x[0]))])
        rep.scores.append(list(rd["points"]) if rd.get("points") is not None else [])
        if rd.get("foyers_dealt"):
            lines.append("Foyers dealt: " + "; ".join(
                f"{_seat(s)} {_pcards(cs)}" for s, cs in rd["foyers_dealt"].items()))
        to_sel = [t for t in rd["turns"] if t["to"] == "selection"]
        to_foy = [t for t in rd["turns"] if t["to"] == "foyer"]
        lines.append(f"{len(rd['turns'])} cards played: {len(to_sel)} to the selection, "
                     f"{len(to_foy)} to Foyers")
        for s in sorted({t["seat"] for t in rd["turns"]}):
            mine = [t for t in rd["turns"] if t["seat"] == s]
            lines.append(f"{_seat(s)}: " + "; ".join(
                f"{_pcard(t['card'])} → {t['to']}" for t in mine))
        for j, sel in enumerate(rd["selections"]):
            lines.append(f"selection {j + 1} (P3.1): kept {_pcards(sel['kept'])} of "
                         f"{len(sel['cards'])}")
        lines.append(f"the Norm: {_pcards(rd['norm'])}")
        lines.append("control (P4): " + ", ".join(f"{_seat(s)} {v}"
                                                  for s, v in rd["control"].items()))
        if rd.get("reinforced") is not None:
            lines.append(f"reinforced control: {rd['reinforced']}")
        if rd.get("points") is not None:
            lines.append("points so far " + " · ".join(map(str, rd["points"])))
        rep.rounds.append((f"Round {i + 1} — initiative {_seat(rd['initiative'])}", lines))
    if r["truncated"] or r["result"] is None:
        rep.final.append("truncated: the round cap was reached (P4.5) — no result")
        return rep
    res = r["result"]
    if res["outcome"] is not None:
        rep.final.append(f"the team's {res['outcome']}"
                         + (f" with {res['foyer_cards']} cards in the Foyers"
                            if res["foyer_cards"] is not None else ""))
    else:
        rep.final.append("winner: " + (", ".join(_seat(w) for w in res["winners"]) or "nobody"))
        rep.winners = list(res["winners"])
    return rep


# ---------------------------------------------------------------- L'Assemblée
def _assemblee(r: dict) -> Replay:
    rep = Replay("L'Assemblée")
    rep.header.append(f"{r['players']} players, Master of Ceremonies at setup {_seat(r['mc'])}")
    rep.header.append("bots: " + ", ".join(f"{i}: {p}" for i, p in enumerate(r["policies"])))
    if r.get("personalities"):
        rep.header.append("personalities: " + ", ".join(
            f"{i}: {p}" for i, p in enumerate(r["personalities"])))
    for i, rd in enumerate(r["rounds"]):
        lines = [f"in the game: {', '.join(map(str, rd['in_game']))}; "
                 f"event (A3): {rd['event']}"]
        if rd.get("revealed"):
            auctions = []
            for j, ch in enumerate(rd["revealed"]):
                holder = rd["holders"][j] if rd.get("holders") else None
                bid = max(rd["bids"][j]) if rd.get("bids") else 0
                auctions.append(f"{ch} → " + (f"{_seat(holder)} ({bid} gold)"
                                              if holder is not None else "nobody"))
            lines.append("auctions (A4): " + "; ".join(auctions))
        for p in rd.get("pending") or []:
            state = "resolved" if p["resolved"] else "pending"
            lines.append(f"{p['event']}: cost {p['cost']}, pledged "
                         f"{sum(x or 0 for x in p['pledges'] or [])}, {state}"
                         + (f" (postponed {p['postponed']}×)" if p["postponed"] else ""))
        if rd.get("collapse"):
            lines.append("the city collapses (A5.3)")
        ost = rd.get("ostracism")
        if ost:
            lines.append(f"ostracism (A8): {_seat(ost['proposer'])} proposes "
                         f"{_seat(ost['target'])} — {'passed' if ost['passed'] else 'failed'}")
        if rd.get("honoured") is not None:
            lines.append(f"honoured (A9): {_seat(rd['honoured'])}")
        if rd.get("gold") is not None:
            lines.append("gold " + " · ".join("—" if g is None else str(g) for g in rd["gold"]))
        if rd.get("renown") is not None:
            lines.append("renown " + " · ".join("—" if g is None else str(g)
                                                for g in rd["renown"]))
        rep.rounds.append((f"Round {i + 1} — MC {_seat(rd['mc'])}", lines))
        rep.hands.append([])
        gold, renown = rd.get("gold"), rd.get("renown")
        rep.scores.append([None if g is None or r is None else r + g // 3
                           for g, r in zip(gold, renown)] if gold and renown else [])
    fin = r["final"]
    if fin is None:
        rep.final.append("no result")
        return rep
    if fin["collapse"]:
        rep.final.append("the city collapsed: everybody loses (A5.3)")
    rep.final.append("scores: " + " · ".join("—" if s is None else str(s) for s in fin["scores"]))
    rep.final.append("winner: " + (", ".join(_seat(w) for w in fin["winners"]) or "nobody"))
    rep.winners = list(fin["winners"])
    return rep


RENDERERS = {"demos": _demos, "protocole": _protocole, "assemblee": _assemblee}


def swing(scores: list[list[int | None]]) -> int | None:
    """The round (0-based) whose result last changed the lead (module docstring): the
    leaders after a round are the seats with the most points so far; None when no round
    has scores. Round 0 when the first leaders lead to the end."""
    leaders = []
    for row in scores:
        known = [x for x in row if x is not None]
        if not known:
            leaders.append(None)
            continue
        top = max(known)
        leaders.append(frozenset(i for i, x in enumerate(row) if x == top))
    last = None
    before = frozenset()
    for i, lead in enumerate(leaders):
        if lead is None:
            continue
        if lead != before:
            last = i
        before = lead
    return last


def _mark_swing(rep: Replay, what: str) -> None:
    i = swing(rep.scores)
    rep.swing_round = i
    if i is None:
        rep.swing_text = f"No {what} to follow in this game: no swing to show."
        return
    row = rep.scores[i]
    top = max(x for x in row if x is not None)
    leaders = [s for s, x in enumerate(row) if x == top]
    who = " and ".join(_seat(s) for s in leaders)
    text = (f"The game swung in round {i + 1}: after it {who} led on {what}, with "
            f"{top}, and kept the lead to the end.")
    if rep.winners:
        won = set(rep.winners)
        if won & set(leaders):
            text += " The lead held: " + ", ".join(_seat(w) for w in rep.winners) + " won."
        else:
            text += (" Yet " + ", ".join(_seat(w) for w in rep.winners) + " won"
                     + (" — the election goes by the trios' harmony first (D7.3)."
                        if rep.title == "DĒMOS" else "."))
    rep.swing_text = text


_WHAT = {"DĒMOS": "cumulative points (D4)", "Protocole": "points",
         "L'Assemblée": "score (renown + ⌊gold / 3⌋, A10)"}


def replay(record: dict) -> Replay:
    """The readable replay of one game record."""
    rep = RENDERERS[record["game"]](record)
    rep.header.append(f"record seed {record['seed']}, contract {record['contract']}")
    _mark_swing(rep, _WHAT.get(rep.title, "points"))
    return rep


_CODE = re.compile(r"\b(10|[1-9])([SHDC])\b")


def _symbols(text: str) -> str:
    """Card codes in an option's words as the replay writes cards: ``7S`` -> ``7♠``."""
    return _CODE.sub(lambda m: m.group(1) + SUITS[m.group(2)], text)


def _fmt(v) -> str:
    return "—" if v is None else f"{v:.4f}"      # greedy breaks ties in the 4th decimal


def decision_rows(decisions, rounds: int, top: int = 4) -> list[list[dict]]:
    """The decisions by round as the page shows them: the seat, its bot, the decision,
    its hand and the face-up cards, the option chosen, and its reason — the values of the
    ``top`` best options when the bot exposes values, else its note."""
    out: list[list[dict]] = [[] for _ in range(rounds)]
    for d in decisions:
        if not 1 <= d.round <= rounds:
            continue
        reason = d.note
        weighed = []
        if d.values is not None:
            ranked = sorted((i for i, v in enumerate(d.values) if v is not None),
                            key=lambda i: -d.values[i])
            weighed = [{"text": _symbols(d.options[i]), "value": _fmt(d.values[i]),
                        "chosen": i == d.chosen} for i in ranked[:top]]
            if d.chosen not in ranked[:top]:
                weighed.append({"text": _symbols(d.chosen_text), "value": _fmt(d.values[d.chosen]),
                                "chosen": True})
        out[d.round - 1].append({
            "seat": d.seat, "policy": d.policy, "kind": d.kind,
            "hand": _dcards(d.hand), "table": _dcards(d.table), "chosen": _symbols(d.chosen_text),
            "options": len(d.options), "weighed": weighed, "reason": reason})
    return out


def sample(setup, which: str = "change", index: int = 0, cancelled=None) -> Replay | None:
    """Game ``index`` of the setup's run (the same deal both setups play first); None when
    ``cancelled()`` turns true between two games. The explorer plays it in its engine
    process (``engine.execute_replay``), never in the web server. A DĒMOS game also
    carries every decision with the bot's reason."""
    from demos_sim.game import get_game
    from demos_sim.restricted import check_specs

    g = get_game(setup.game)
    cfg = setup.config(which)
    specs = setup.specs(which)
    check_specs(g, specs, cfg)
    rec = None
    for rec in g.iter_records(cfg, specs, index + 1, setup.seed):
        if cancelled is not None and cancelled():
            return None
    rep = replay(rec)
    found = g.decisions(cfg, specs, index, setup.seed)     # None: the game lists none
    if found is not None:
        rep.decisions = decision_rows(found, len(rep.rounds))
    return rep
