"""Write the broken Omiga tile sets in this folder, one defect each (run it after changing a set).

Each set starts from the full 2 x 2 x 3 x 3 set of the bundled definition and changes only what its
header comment says, so the validator's message for that defect is the one the tests look for.
"""
from __future__ import annotations

from itertools import product
from pathlib import Path

HERE = Path(__file__).resolve().parent
COLOURS = ["green", "pink"]
FORMS = ["diagonal", "tip", "notch"]


def full_deck() -> list[dict[str, str]]:
    return [dict(left=l, right=r, top=t, bottom=b) for l, r, t, b in product(COLOURS, COLOURS, FORMS, FORMS)]


def definition(why: str, white: list[dict], black: list[dict], *, colours=COLOURS, extra_fill=None,
               forms=None, fits=None, validation: str = "", white_size=36, black_size=36,
               games: int = 200) -> str:
    fills = {"green": "#2f9e57", "pink": "#e4589b", "blue": "#1f5f99", **(extra_fill or {})}
    forms = forms or {"diagonal": "{shape: diagonal, direction: rising}", "tip": "{shape: tip}",
                      "notch": "{shape: notch}"}
    fits = fits or {"diagonal": "[diagonal]", "tip": "[notch]", "notch": "[tip]"}
    out = [f"# Broken on purpose for the validator tests: {why}", "game: omiga", "title: Omiga test set",
           "palette: standard", f"colours: [{', '.join(colours)}]", "palettes:", "  standard:", "    colours:"]
    out += [f"      {c}: {{fill: \"{fills[c]}\", label: {c}}}" for c in colours]
    out += ['    white: {face: "#ffffff", band: "#8f8f8f", ink: "#8f8f8f", back: "#f3f1ec", back_ink: "#3c3c3c"}',
            '    black: {face: "#202020", band: "#8f8f8f", ink: "#8f8f8f", back: "#202020", back_ink: "#e9e9e9"}',
            "forms:"]
    out += [f"  {name}: {value}" for name, value in forms.items()]
    out += ["fits:"] + [f"  {name}: {value}" for name, value in fits.items()]
    out += ["decks:"]
    for deck, tiles, size in (("white", white, white_size), ("black", black, black_size)):
        out += [f"  {deck}:", f"    size: {size}", "    tiles:"]
        out += [f"      - {{left: {t['left']}, right: {t['right']}, top: {t['top']}, bottom: {t['bottom']}}}"
                for t in tiles]
    out += ["validation:", f"  games: {games}"] + [f"  {line}" for line in validation.strip().splitlines() if line]
    return "\n".join(out) + "\n"


def edited(deck: list[dict], index: int, **changes: str) -> list[dict]:
    deck = [dict(t) for t in deck]
    deck[index].update(changes)
    return deck


def sets() -> dict[str, str]:
    full = full_deck()
    s: dict[str, str] = {}
    s["unknown_colour"] = definition("white-05 has a colour that `colours` does not list.",
                                     edited(full, 4, left="blue"), full)
    s["unknown_form"] = definition("black-10 has a form that `forms` does not define.",
                                   full, edited(full, 9, top="zigzag"))
    s["asymmetric_fits"] = definition("tip fits notch, but notch does not fit tip.", full, full,
                                      fits={"diagonal": "[diagonal]", "tip": "[notch]", "notch": "[]"})
    s["deck_size"] = definition("the white deck says 36 tiles and lists 35.", full[:-1], full)
    dup = edited(full, 35, **full[0])
    s["duplicate"] = definition("white-36 repeats white-01, and duplicates are errors here.", dup, full,
                                validation="duplicates: error\nthresholds:\n  max_colour_spread: 1\n"
                                           "  max_form_spread: 1\nmirror: warning")
    no_notch_tops = [dict(t, top="diagonal" if t["top"] == "notch" else t["top"]) for t in full]
    s["setup"] = definition("no black tile has a notch on its own top, so a white tile with a tip on "
                            "top can never be answered at the start.", full, no_notch_tops,
                            validation="thresholds:\n  max_form_spread: 36\n  max_stall_rate: 1\n"
                                       "  max_win_gap: 1\n  min_mean_placements: 0")
    s["dead_tile"] = definition("white-01 is blue on both sides with a flat top and bottom, and no other "
                                "white tile has blue or flat anywhere, so it can never be placed.",
                                edited(full, 0, left="blue", right="blue", top="flat", bottom="flat"), full,
                                colours=["green", "pink", "blue"],
                                forms={"diagonal": "{shape: diagonal, direction: rising}", "tip": "{shape: tip}",
                                       "notch": "{shape: notch}", "flat": "{shape: flat}"},
                                fits={"diagonal": "[diagonal]", "tip": "[notch]", "notch": "[tip]",
                                      "flat": "[flat]"},
                                validation="dead_sides: warning\nthresholds:\n  max_colour_spread: 36\n"
                                           "  max_form_spread: 36")
    s["dead_side"] = definition("white-02 has a blue left side, and no tile of either deck has blue on "
                                "its right, so nothing can ever touch that side.",
                                edited(full, 1, left="blue"), full, colours=["green", "pink", "blue"],
                                validation="thresholds:\n  max_colour_spread: 36")
    s["colour_balance"] = definition("the white deck has 20 green and 16 pink semicircles on the left.",
                                     edited(edited(full, 18, left="green"), 27, left="green"), full)
    s["tip_notch_balance"] = definition("two white tiles have a tip on top instead of a notch, so "
                                        "tips on top outnumber the notches that fit under them.",
                                        edited(edited(full, 6, top="tip"), 15, top="tip"), full)
    s["diagonal_balance"] = definition("two white tiles have a notch at the bottom instead of a diagonal, "
                                       "so diagonals on top outnumber diagonal bottoms.",
                                       edited(edited(full, 3, bottom="notch"), 12, bottom="notch"), full)
    swapped = edited(edited(full, 4, top="notch"), 35, top="tip")  # (g,g,tip,tip) and (p,p,notch,notch)
    s["mirror"] = definition("black's deck is not white's deck: two tiles swapped their tops, which keeps "
                             "every count equal, and this set makes a mirror difference an error.",
                             full, swapped, validation="mirror: error")
    s["play_draws"] = definition("the table is only 3 tiles wide and 4 deep, so most games end with both "
                                 "players at both side edges: too many draws.", full, full,
                                 validation="table: {columns: 3, rows: 4}")
    mono = [dict(t, right=t["left"]) for t in full]
    mixed = [dict(t, right="pink" if t["left"] == "green" else "green") for t in full]
    s["play_win_gap"] = definition("white's tiles are one colour each and black's are two-coloured; black "
                                   "wins clearly more often than this set allows.", mono, mixed,
                                   games=1000, validation="thresholds:\n  max_win_gap: 0.04")
    return s


if __name__ == "__main__":
    for name, text in sets().items():
        (HERE / f"{name}.yaml").write_text(text)
        print(f"wrote {name}.yaml")
