"""A sample game as a readable round-by-round replay, written from its game record
(GAME_RECORD.md, contract 2): what each seat did, who won the round, the scores, and how
the game ended. Nothing is replayed here: every line reads a field of the record.
"""

from __future__ import annotations

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
        total = [t + p for t, p in zip(total, rd["points"])]
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
    fin = r["final"]
    if fin is None:
        rep.final.append("no result")
        return rep
    if fin["collapse"]:
        rep.final.append("the city collapsed: everybody loses (A5.3)")
    rep.final.append("scores: " + " · ".join("—" if s is None else str(s) for s in fin["scores"]))
    rep.final.append("winner: " + (", ".join(_seat(w) for w in fin["winners"]) or "nobody"))
    return rep


RENDERERS = {"demos": _demos, "protocole": _protocole, "assemblee": _assemblee}


def replay(record: dict) -> Replay:
    """The readable replay of one game record."""
    rep = RENDERERS[record["game"]](record)
    rep.header.append(f"record seed {record['seed']}, contract {record['contract']}")
    return rep


def sample(setup, which: str = "change", index: int = 0, cancelled=None) -> Replay | None:
    """Game ``index`` of the setup's run (the same deal both setups play first); None when
    ``cancelled()`` turns true between two games. The explorer plays it in its engine
    process (``engine.execute_replay``), never in the web server."""
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
    return replay(rec)
