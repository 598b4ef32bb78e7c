"""Write the broken Omiga tile sets in this folder, one defect each, and the sets of
../omiga_verdicts, each with the verdict the rules give it (run it after changing a set).

Each set starts from the full 2 x 2 x 3 x 3 set of the bundled definition and changes only what its
header comment says, so the validator's message for that defect is the one the tests look for.
"""
from __future__ import annotations

from itertools import product
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERDICTS = HERE.parent / "omiga_verdicts"
COLOURS = ["green", "pink"]
FORMS = ["diagonal", "tip", "notch"]


def full_deck() -> list[dict[str, str]]:
    return [dict(left=l, right=r, top=t, bottom=b) for l, r, t, b in product(COLOURS, COLOURS, FORMS, FORMS)]


def definition(why: str, white: list[dict], black: list[dict], *, colours=COLOURS, extra_fill=None,
               forms=None, fits=None, validation: str = "", white_size=36, black_size=36,
               games: int = 200, header: str = "Broken on purpose for the validator tests") -> str:
    fills = {"green": "#2f9e57", "pink": "#e4589b", "blue": "#1f5f99", **(extra_fill or {})}
    forms = forms or {"diagonal": "{shape: diagonal, direction: rising}", "tip": "{shape: tip}",
                      "notch": "{shape: notch}"}
    fits = fits or {"diagonal": "[diagonal]", "tip": "[notch]", "notch": "[tip]"}
    out = [f"# {header}: {why}", "game: omiga", "title: Omiga test set",
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
    s["play_win_gap"] = definition("every white tile has a tip on top, so white stacks upwards only on "
                                   "its notched bottoms; black wins clearly more often than this set "
                                   "allows, even counting the sampling error of 200 games.",
                                   [dict(t, top="tip") for t in full], full,
                                   validation="duplicates: warning\nthresholds:\n  max_win_gap: 0.04\n"
                                              "  max_form_spread: 72")
    return s


FORMS = {"diagonal": "{shape: diagonal, direction: rising}", "tip": "{shape: tip}", "notch": "{shape: notch}"}
FITS = {"diagonal": "[diagonal]", "tip": "[notch]", "notch": "[tip]"}


def verdict_sets() -> dict[str, str]:
    """Sets whose verdict follows from the rules alone, one class of the validator's old mistakes
    each (issue 17); tests/test_omiga_verdicts.py says what each must give."""
    full = full_deck()
    s: dict[str, str] = {}

    def verdict(why: str, white: list[dict], black: list[dict], **more) -> str:
        fills = {"green": "#1f7a44", "pink": "#f4a3c7", "blue": "#0b1f4d"}  # 25 or more apart in L*
        return definition(why, white, black, header="Verdict from the rules", extra_fill=fills, **more)

    # decks of different sizes: the rules deal each player as many tiles
    pair = [dict(left="green", right="pink", top="tip", bottom="notch"),
            dict(left="pink", right="green", top="notch", bottom="tip")]
    short = [t for t in full if t not in pair]
    s["unequal_short"] = verdict("black holds 34 tiles and white 36; each deck is balanced on its "
                                 "own, but the players start unequal. Not valid.", full, short,
                                 black_size=34)
    s["unequal_long"] = verdict("black holds 38 tiles (two more of a balanced pair) and white 36. "
                                "Not valid.", full, full + pair, black_size=38,
                                validation="mirror: warning")
    s["unequal_said"] = verdict("as unequal_short, but the definition says it means it "
                                "(unequal_decks: warning). Valid, with a warning.", full, short,
                                black_size=34, validation="unequal_decks: warning")
    # kinds that no tile uses, and names that fit the same way
    s["unused_colour"] = verdict("the colour blue is declared (and printed by the palette) but no "
                                 "tile uses it. Valid, with a warning.", full, full,
                                 colours=["green", "pink", "blue"])
    s["unused_form"] = verdict("a flat form is declared, fitting itself as drawn, but no tile uses "
                               "it. Valid, with a warning.", full, full,
                               forms={**FORMS, "flat": "{shape: flat}"}, fits={**FITS, "flat": "[flat]"})
    s["unused_alias"] = verdict("'point' is a second name for the tip, fitting the notch as the tip "
                                "does, but no tile uses it. Valid, with a warning.", full, full,
                                forms={**FORMS, "point": "{shape: tip}"},
                                fits={**FITS, "notch": "[tip, point]", "point": "[notch]"})
    rise_slope = [dict(t, top="rise" if t["top"] == "diagonal" else t["top"],
                       bottom="slope" if t["bottom"] == "diagonal" else t["bottom"]) for t in full]
    s["diagonal_two_names"] = verdict("the rising diagonal has two names, 'rise' on tops and 'slope' on "
                                      "bottoms; they fit each other and print alike. Valid.",
                                      rise_slope, rise_slope,
                                      forms={"rise": "{shape: diagonal, direction: rising}",
                                             "slope": "{shape: diagonal, direction: rising}",
                                             "tip": "{shape: tip}", "notch": "{shape: notch}"},
                                      fits={"rise": "[rise, slope]", "slope": "[rise, slope]",
                                            "tip": "[notch]", "notch": "[tip]"})
    points = [dict(t, **{e: "point" for e in ("top", "bottom") if t[e] == "tip" and t["left"] == "pink"})
              for t in full]
    s["tip_two_names"] = verdict("tiles with a pink left edge call their tips 'point', the others "
                                 "'tip'; both fit the notch alike. Valid.", points, points,
                                 forms={**FORMS, "point": "{shape: tip}"},
                                 fits={**FITS, "notch": "[tip, point]", "point": "[notch]"})
    # sampling noise: an even set reordered, and two sets that really favour black
    s["reordered"] = verdict("the bundled tiles, each deck listed in another order. Valid.",
                             full[::-1], full[9:] + full[:9])
    loose = "thresholds:\n  max_form_spread: 72\n  max_colour_spread: 36"
    s["white_bottoms_tip"] = verdict("every white tile has a tip at the bottom, so white can hardly build "
                                     "towards black; black wins far more often. Not valid (play).",
                                     [dict(t, bottom="tip") for t in full], full, validation=loose)
    s["white_tops_diagonal"] = verdict("every white tile has a diagonal on top; black wins clearly "
                                       "more often. Not valid (play).",
                                       [dict(t, top="diagonal") for t in full], full, validation=loose)
    # sides named as written: black's tiles lie turned on the table
    s["black_left_dead"] = verdict("black-05's own left edge is blue, and no tile shows blue where it "
                                   "could meet it. Not valid: a dead side, the left as written (its right "
                                   "on the table).", full, edited(full, 4, left="blue"),
                                   colours=["green", "pink", "blue"],
                                   validation="thresholds:\n  max_colour_spread: 36")
    s["black_top_dead"] = verdict("black-10's own top is flat, which only flat fits, and no other tile "
                                  "is flat. Not valid: a dead side, the top as written (its bottom on the "
                                  "table).", full, edited(full, 9, top="flat"),
                                  forms={**FORMS, "flat": "{shape: flat}"}, fits={**FITS, "flat": "[flat]"},
                                  validation="thresholds:\n  max_form_spread: 36")
    # one cause, several symptoms
    s["typo_form"] = verdict("white-06's top is written 'tipp'. Not valid: one unknown form, and "
                             "what follows from it.", edited(full, 5, top="tipp"), full)
    s["typo_colour"] = verdict("black-03's right is written 'gren'. Not valid: one unknown colour, and "
                               "what follows from it.", full, edited(full, 2, right="gren"))
    s["two_typos"] = verdict("white-06's top is 'tipp' and black-29's left 'pnik'. Not valid: two "
                             "unknown names, each with what follows from it.",
                             edited(full, 5, top="tipp"), edited(full, 28, left="pnik"))
    # small sets the exhaustive search covers many times over (--thorough)
    small = [dict(left=l, right=r, top=t, bottom=b)
             for l, r, t, b in product(COLOURS, COLOURS, ["tip", "notch"], ["tip", "notch"])]
    tips = {"tip": "{shape: tip}", "notch": "{shape: notch}"}
    tip_fits = {"tip": "[notch]", "notch": "[tip]"}
    s["small_even"] = verdict("16 tiles a deck, every colour by tip or notch on both edges. Valid.",
                              small, small, forms=tips, fits=tip_fits, white_size=16, black_size=16)
    s["small_dead_side"] = verdict("white-02's left is blue, which no tile shows on a right edge. Not "
                                   "valid: a dead side.", edited(small, 1, left="blue"), small,
                                   colours=["green", "pink", "blue"], forms=tips, fits=tip_fits,
                                   white_size=16, black_size=16,
                                   validation="thresholds:\n  max_colour_spread: 16")
    s["small_no_answer"] = verdict("no black tile has a notch on its own top, so no white opening with a "
                                   "tip on top can be answered. Not valid: set-up.", small,
                                   [dict(t, top="tip") for t in small], forms=tips, fits=tip_fits,
                                   white_size=16, black_size=16,
                                   validation="duplicates: warning\nthresholds:\n  max_form_spread: 32")
    return s


if __name__ == "__main__":
    for name, text in sets().items():
        (HERE / f"{name}.yaml").write_text(text)
        print(f"wrote {name}.yaml")
    VERDICTS.mkdir(exist_ok=True)
    for name, text in verdict_sets().items():
        (VERDICTS / f"{name}.yaml").write_text(text)
        print(f"wrote ../omiga_verdicts/{name}.yaml")
