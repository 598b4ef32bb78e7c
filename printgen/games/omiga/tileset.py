"""The tile set reduced to small integers, as the checks and the simulation need it.

Unknown names get ids too, so a set with a typo can still be analysed; forms that fit alike are
one kind. Each tile is kept as its owner holds it and as it lies on the table."""
from __future__ import annotations

from dataclasses import dataclass

from printgen.games.omiga.model import DECKS, Form, Omiga, tile_name

Edges = tuple[int, int, int, int]  # left colour, right colour, top form, bottom form


@dataclass(frozen=True)
class Compiled:
    colours: tuple[str, ...]
    forms: tuple[str, ...]
    names: tuple[tuple[str, ...], tuple[str, ...]]  # per deck: 0 white, 1 black
    own: tuple[tuple[Edges, ...], tuple[Edges, ...]]  # as the owner holds each tile
    table: tuple[tuple[Edges, ...], tuple[Edges, ...]]  # as each tile lies on the table
    fit_up: tuple[frozenset[int], ...]  # fit_up[top form of the lower tile] = bottoms that fit above
    defined: tuple[int, int]  # how many colours and forms the definition declares (the first ids)
    form_kind: tuple[int, ...]  # each form's kind: the first defined form that fits the same forms

    def fits(self, lower_top: int, upper_bottom: int) -> bool:
        return upper_bottom in self.fit_up[lower_top]

    def describe(self, deck: int, index: int) -> str:
        left, right, top, bottom = self.own[deck][index]
        c, f = self.colours, self.forms
        return f"{self.names[deck][index]} ({c[left]}|{c[right]} {f[top]}/{f[bottom]})"

    def kind_name(self, kind: int) -> str:
        """A form kind by its names: 'diagonal', or 'rise=slope' for one form under two names."""
        return "=".join(self.forms[f] for f, k in enumerate(self.form_kind) if k == kind)


def on_table(deck: int, edges: Edges) -> Edges:
    """A tile's edges as it lies on the table: black's tiles face their owner, turned 180 degrees."""
    left, right, top, bottom = edges
    return edges if deck == 0 else (right, left, bottom, top)


def compile_set(defn: Omiga) -> Compiled:
    colours: list[str] = list(defn.colours)
    forms: list[str] = list(defn.forms)

    def ident(names: list[str], name: str) -> int:
        if name not in names:
            names.append(name)
        return names.index(name)

    own = [tuple((ident(colours, t.left), ident(colours, t.right), ident(forms, t.top), ident(forms, t.bottom))
                 for t in defn.deck(deck).tiles) for deck in DECKS]
    for form, partners in defn.fits.items():
        for name in (form, *partners):
            ident(forms, name)
    # Symmetric on purpose, so a one-sided entry is reported once, by the structure check.
    fit_up = tuple(frozenset(forms.index(b) for b in forms
                             if b in defn.fits.get(a, []) or a in defn.fits.get(b, [])) for a in forms)
    names = tuple(tuple(tile_name(deck, i) for i in range(len(defn.deck(deck).tiles))) for deck in DECKS)
    table = tuple(tuple(on_table(d, e) for e in own[d]) for d in range(2))
    defined = len(defn.forms)
    form_kind = tuple(next((g for g in range(defined) if fit_up[g] == fit_up[f] and fit_up[f]), f)
                      if f < defined else f for f in range(len(forms)))
    return Compiled(tuple(colours), tuple(forms), names, (own[0], own[1]), table, fit_up,  # type: ignore[arg-type]
                    (len(defn.colours), defined), form_kind)


def interlock(a: Form, b: Form) -> bool:
    """Do lower top `a` and upper bottom `b` fit as drawn, their profiles summing to zero?"""
    if a.shape == "diagonal" or b.shape == "diagonal":
        return a.shape == b.shape and a.direction == b.direction
    return {a.shape, b.shape} in ({"tip", "notch"}, {"flat"})
