"""Which side each disc belongs to, from its colour.

Discs are told apart by clustering their top faces' colours into two groups; the darker group is
team 0, as the vision contract says, unless the club names its two colours (config
``[vision] team_colours``), in which case each disc goes to the nearer one. Colours are compared
as logarithms (so a disc in a lamp's falloff or a shadow keeps its place relative to the others).

A board with one side's discs only cannot say which side that is: with the colours named (or
carried over from an earlier reading of the same match), the nearer colour decides; without,
the discs are given to the side whose usual colour they resemble more, and marked unsure.
Three or more clearly different colours (each on two discs or more) put the board in doubt
(something other than discs, or a third set, is on it), unless the third colour's discs all
score nothing (another set's discs in the ditch): those are set aside. A single disc of an odd
colour is kept, unsure; one alone far off every other (a shadow or a mark taken for a disc)
does not make a group by itself. When every scoring disc falls to one side while they show two
colours, an odd colour among the discs that score nothing took a group: the scoring discs alone
then say the sides. Glare adds light where the light was evened out as a factor: a disc on board
lit lighter by a grey lift (against the least lit discs' board: a glare may cover most of them),
that taking the lift off would put nearer the other side, is unsure; on a board near white, the
lift is taken at least as its most lifted channel's, since the board stops at white.
And with no colours known, a side whose colour shows only in the ditch (perhaps another set's
discs put there) leaves the board's discs unsure of theirs, unless they are black or white, whose
side any set agrees on; with one side's colour known, too, unless the board's discs or the
ditch's are that colour (a colour learnt from a glared disc or two says nothing of others);
a scoring disc unsure of its side (a glared one, something taken for a disc), no two of them
alike, shows no side on the board for this. A grey put with a side of a hue, beside a side
of none, is unsure too: a black disc glared grey, or a white one shaded, is no nearer the hued
side for it (a black with the dark side, or a white with the light, is spared: that is its
side in any set).
Last, the sides are told again without the scoring faces like the board (bare board, perhaps,
ringed by lines and a glare's edge), and then without those and the discs that score nothing:
where the discs left still show both sides among those that score, a disc they give the other
side, or are unsure of, is unsure, its side having turned on discs that may not be a side's;
and with no colours known, scoring discs all of one side but for faces like the board, no two
alike, that took the other, are unsure, their side told only against what may be bare board.
And a disc sure of its side whose face, as seen, is a twin of a disc sure of the other side's
(nearer it than any of its own) is unsure: evening out the light told two faces alike apart.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, replace

import numpy as np

log = logging.getLogger(__name__)

RGB = tuple[int, int, int]
_SEPARATE = 0.6     # log-colour distance (e ** 0.6: 1.8 times) that two sides must be apart
_SAME = 0.3         # a disc this near a known side's colour is that side's
_RATIO = 3.0        # ... and this many times their spread
_CLOSE = 0.35       # two groups this far apart and ...
_CLOSE_RATIO = 8.0  # ... this many times their spread are two colours, if not surely two sides
_THIRD = 0.6        # a side splits in two colours only this far apart (light varies a lot)
_THIRD_RATIO = 4.0
_THIRD_HUE = 0.3    # ... and differ in hue or saturation by this much
_CHROMATIC = 0.15   # colours this saturated (log) have a hue to share, a darker shade and a lighter
ANY_SET_DARK = 50.0    # a disc this dark (RGB luma) is the dark side of whatever set it is in
ANY_SET_LIGHT = 170.0  # ... and one this light the light side
GLARE_LIFT = 12.0   # the board round a disc this much lighter than its unglared light (RGB)
GLARE_GREY = 0.5    # ... alike in all three channels within this share of it: glare
WHITE = 240.0       # a channel of the board this light stops at white, showing less of a glare
UNGLARED = 25       # the percentile of the discs' light taken as the board's unglared light
LIFT_GREY = 0.25    # a face another side's colour with light added alike in all three channels
#                     within this share of it (tighter: strong light clips a channel at white)
LIFT_OWN = 0.15     # ... unless this near its own side's colour (a pink side's discs are reds
#                     lifted, each like the rest of its side)
HARDLY_NEARER = 0.8  # one known colour this near one group of two as the other: no nearer
NEARER = 0.8  # a disc as seen this much nearer its side's colours than the other's at most
LIKE_BOARD = 0.3  # a face this near (log colour) the lit board round it may be bare board
TWIN = 0.1  # two faces this near as seen (log colour) are one side's, whatever the light says
GREY_BETWEEN = 0.15  # a grey this far (a share of the way) past either end of the way from
#                      one side's grey to the other's is between them


MORE_THAN_TWO = ("the discs come in more than two colours, so the sides cannot be told apart: "
                 "take off anything that is not a disc of the two sets in play, or name the "
                 "two colours in the config ([vision] team_colours)")


@dataclass(frozen=True)
class Sides:
    """Per disc its team, whether that is sure, and the two teams' colours as seen (RGB, None
    for a side with no disc here); ``doubt`` says why the board as a whole cannot be split
    into two sides, when it cannot."""

    teams: tuple[int, ...]
    sure: tuple[bool, ...]
    colours: tuple[RGB | None, RGB | None]
    doubt: str = ""


class _Split(Exception):
    """A side's discs fall in two colours of their own: more than two sets in play."""


def _log(rgb: np.ndarray) -> np.ndarray:
    return np.log(np.asarray(rgb, np.float64) + 8.0)


def _luma(logc: np.ndarray) -> np.ndarray:
    return logc @ np.array([0.299, 0.587, 0.114])


def two_means(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Deterministic 2-means: seeded with the two points furthest apart. Returns labels (0/1)
    and the two centres."""
    d = np.linalg.norm(x[:, None] - x[None], axis=-1)
    i, j = np.unravel_index(int(np.argmax(d)), d.shape)
    centres = np.stack([x[i], x[j]])
    labels = np.zeros(len(x), int)
    for _ in range(20):
        new = np.argmin(np.linalg.norm(x[:, None] - centres[None], axis=-1), axis=1)
        if (new == labels).all() and _ > 0:
            break
        labels = new
        for k in range(2):
            if (labels == k).any():
                centres[k] = x[labels == k].mean(axis=0)
    return labels, centres


def _apart(x: np.ndarray, labels: np.ndarray, centres: np.ndarray, separate: float = _SEPARATE,
           ratio: float = _RATIO) -> bool:
    """Whether two groups are clearly two colours, not one colour's spread."""
    if (labels == 0).sum() == 0 or (labels == 1).sum() == 0:
        return False
    gap = float(np.linalg.norm(centres[0] - centres[1]))
    spread = math.sqrt(float(np.mean(np.sum((x - centres[labels]) ** 2, axis=1))))
    return gap > separate and gap > ratio * spread


def k_means(x: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Deterministic k-means, seeded farthest-first from the point furthest from the mean."""
    centres = [x[int(np.argmax(np.linalg.norm(x - x.mean(axis=0), axis=1)))]]
    while len(centres) < k:
        d = np.min(np.linalg.norm(x[:, None] - np.array(centres)[None], axis=-1), axis=1)
        centres.append(x[int(np.argmax(d))])
    c = np.array(centres)
    labels = np.zeros(len(x), int)
    for _ in range(20):
        labels = np.argmin(np.linalg.norm(x[:, None] - c[None], axis=-1), axis=1)
        new = np.array([x[labels == j].mean(axis=0) if (labels == j).any() else c[j]
                        for j in range(k)])
        if np.allclose(new, c):
            break
        c = new
    return labels, c


def _three(x: np.ndarray) -> bool:
    """Whether the colours fall in three clear groups of two discs or more, each apart from
    the others in hue or saturation too (not only lighter or darker)."""
    if len(x) < 6:
        return False
    labels, c = k_means(x, 3)
    if np.bincount(labels, minlength=3).min() < 2:
        return False
    spread = math.sqrt(float(np.mean(np.sum((x - c[labels]) ** 2, axis=1))))
    for i in range(3):
        for j in range(i + 1, 3):
            gap = float(np.linalg.norm(c[i] - c[j]))
            hue = _hue_apart(c[i], c[j])
            if gap < max(_THIRD, _THIRD_RATIO * spread) or hue < _THIRD_HUE:
                return False
    return True


def _chroma(x: np.ndarray) -> np.ndarray:
    """A log colour's hue and saturation part: the same whatever light falls on it."""
    return x - x.mean(axis=-1, keepdims=True)


def _hue(x: np.ndarray) -> np.ndarray:
    """How strong a log colour's hue is (per colour, of colours ..., 3): its chroma's length."""
    return np.linalg.norm(_chroma(x), axis=-1)


def _hue_apart(a: np.ndarray, b: np.ndarray) -> float:
    """How far two log colours differ in hue and saturation, not brightness."""
    return float(np.linalg.norm(_chroma(a) - _chroma(b)))


def _beside_lone(x: np.ndarray, labels: np.ndarray
                 ) -> tuple[int, np.ndarray, np.ndarray, np.ndarray] | None:
    """Of five discs or more, the one that is a group by itself, with the others' colours
    and their two-way split (labels, and the two colours' centres); or None."""
    sizes = np.bincount(labels, minlength=2)
    if len(x) < 5 or sizes.min() != 1:
        return None
    lone = int(np.flatnonzero(labels == int(np.argmin(sizes)))[0])
    rest = x[np.arange(len(x)) != lone]
    sub, centres = two_means(rest)
    return lone, rest, sub, centres


def _lone(x: np.ndarray, labels: np.ndarray
          ) -> tuple[int, np.ndarray, np.ndarray] | None:
    """The disc that is a group by itself while the others fall in two colours apart, each
    of two discs or more and of another hue (two sides), with the others' labels and the two
    colours' centres; or None."""
    found = _beside_lone(x, labels)
    if found is None:
        return None
    lone, rest, sub, centres = found
    if (np.bincount(sub, minlength=2).min() < 2 or _hue_apart(*centres) <= _THIRD_HUE
            or not _apart(rest, sub, centres)):
        return None
    return lone, sub, centres


def _shades_beside_lone(x: np.ndarray, labels: np.ndarray) -> bool:
    """Whether one disc is a group by itself while the others fall in two shades of one hue
    apart, two discs or more each: then the others are one side glared or shaded in part, or
    two sides whose colours differ in lightness only (a dark red set and a red one, the lone
    disc a white mark: every red was read as one side, sure of it), and none is sure."""
    found = _beside_lone(x, labels)
    if found is None:
        return False
    _, rest, sub, centres = found
    return bool(np.bincount(sub, minlength=2).min() >= 2 and _apart(rest, sub, centres))


def _odd_ones(x: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Refuses a third colour shown by two discs or more; returns the discs (bool per disc)
    whose colour is alone off its side's (a disc under a lamp's glare, or not a disc at all):
    kept, but unsure. A side splits into two colours only if they differ in hue or saturation
    too: glare or shade on some of a side's discs makes them lighter or darker, not another
    colour."""
    odd = np.zeros(len(x), bool)
    for k in (0, 1):
        idx = np.flatnonzero(labels == k)
        if len(idx) < 3:
            continue
        group = x[idx]
        sub, centres = two_means(group)
        if not _apart(group, sub, centres, _THIRD, _THIRD_RATIO):
            odd[idx] = _off_hue(group)
            continue
        sizes = np.bincount(sub, minlength=2)
        if sizes.min() >= 2 and _hue_apart(*centres) > _THIRD_HUE:
            raise _Split
        if sizes.min() == 1:
            odd[idx[sub == int(np.argmin(sizes))]] = True
    return odd


def _off_hue(group: np.ndarray) -> np.ndarray:
    """Within one side's group of six discs or more, those of a third colour of their own,
    apart from the group's main colour and of another hue (bool per disc): a window's sheen
    greys black discs into the reds' group, beside a third set's pinks in the ditch, and
    three colours in one group split no two ways cleanly."""
    out = np.zeros(len(group), bool)
    if len(group) < 6:
        return out
    labels, c = k_means(group, 3)
    sizes = np.bincount(labels, minlength=3)
    main = int(np.argmax(sizes))
    for j in range(3):
        if j == main or sizes[j] == 0:
            continue
        if (float(np.linalg.norm(c[j] - c[main])) > _THIRD
                and _hue_apart(c[j], c[main]) > _THIRD_HUE):
            out[labels == j] = True
    return out


def assign(faces: np.ndarray, colours: tuple[RGB | None, RGB | None] | None = None,
           light: np.ndarray | None = None, scoring: np.ndarray | None = None) -> Sides:
    """Teams for discs whose top faces have the given colours (n, 3; RGB). ``light``: the lit
    board's colour near each disc (n, 3; RGB); the discs' colours are then compared relative to
    it, so a lamp's falloff across the board does not split a side in two. ``colours``: the two
    sides' colours, or one of them (the other None). ``scoring``: which discs score (bool per
    disc): a third colour among discs that score nothing (another set's, in the ditch) is set
    aside, since their side changes no total; among scoring discs it puts the board in doubt
    (``Sides.doubt``)."""
    n = len(faces)
    if colours is not None and colours[0] is None and colours[1] is None:
        colours = None
    if n == 0:
        return Sides((), (), colours if colours else (None, None))
    scoring = np.ones(n, bool) if scoring is None else np.asarray(scoring, bool)
    raw = _log(faces)
    sides = _told(faces, raw, colours, light, scoring)
    if light is not None:
        light = np.asarray(light, np.float64)
        like = _like_board(raw, light, scoring)
        sides = _retold(sides, faces, raw, colours, light, scoring, like)
        if colours is None:
            sides = _on_lone_like(sides, faces, raw, scoring, like)
    if colours is None or None in colours:
        sides = _ditch_only_of_sure(sides, scoring, faces, raw, colours)
    return _twins(sides, raw, scoring)


def _like_board(raw: np.ndarray, light: np.ndarray, scoring: np.ndarray) -> np.ndarray:
    """Which scoring faces (``raw``: log colours) are like the board round them, bare board
    perhaps: near the board's light there, or its unglared light (the light is evened out in
    coarse cells, and a glare beside a face that shows the board unglared lifts it). Only
    where a face scores: a disc in the ditch lies on no board, and bare board read as a disc
    matters only where it would score."""
    board = np.stack([_log(light), np.broadcast_to(_log(_unglared(light)), light.shape)])
    return (np.linalg.norm(raw[None] - board, axis=2) < LIKE_BOARD).any(axis=0) & scoring


def _no_two_alike(raw: np.ndarray) -> bool:
    """Whether no two of these faces (log colours) are alike: they show no colour of their
    own on the board, as a side's discs (or a third set's) would."""
    apart = np.linalg.norm(raw[:, None] - raw[None], axis=-1)
    return not (apart[np.triu_indices(len(raw), 1)] < _SAME).any()


def _retold(sides: Sides, faces: np.ndarray, raw: np.ndarray,
            colours: tuple[RGB | None, RGB | None] | None, light: np.ndarray,
            scoring: np.ndarray, like: np.ndarray) -> Sides:
    """``sides`` told again without the scoring faces ``like`` the board, then without those
    and the discs that score nothing (see :func:`assign`)."""
    n = len(faces)
    # (told without the faces like the board, those faces are unsure too when it says
    # anything: one of them took a side of its own)
    for without, asked in ((like, like), (like | ~scoring, None)):
        if not without.any() or without.sum() > n - 4:
            continue
        left = ~without
        told = _against(sides, left, _told(faces[left], raw[left], colours, light[left],
                                           scoring[left]), scoring)
        if told is not sides and asked is not None:
            told = replace(told, sure=tuple(bool(v) for v in np.array(told.sure) & ~asked))
        sides = told
    return sides


def _twins(sides: Sides, raw: np.ndarray, scoring: np.ndarray) -> Sides:
    """``sides`` with each scoring disc unsure whose face, as seen (``raw``: log colours), is
    a twin of a disc sure of the other side (within ``TWIN``) and nearer it than any of its
    own: two faces so alike are one side's, and evening out the light where each lies told
    them apart (a glare not grey enough to be taken for one lit the board round one of three
    light green discs on a black board, which then went with the navies, surely: seen
    layouts-374 33, against the empty board)."""
    teams, sure = np.array(sides.teams, int), np.array(sides.sure, bool)
    d = np.linalg.norm(raw[:, None] - raw[None], axis=-1)
    np.fill_diagonal(d, np.inf)
    same = teams[None] == teams[:, None]
    near_other = np.where(sure[None] & ~same, d, np.inf).min(axis=1)
    near_own = np.where(sure[None] & same, d, np.inf).min(axis=1)
    twin = sure & scoring & (near_other < TWIN) & (near_other < near_own)
    if not twin.any():
        return sides
    return replace(sides, sure=tuple(bool(v) for v in sure & ~twin))


def _on_lone_like(sides: Sides, faces: np.ndarray, raw: np.ndarray, scoring: np.ndarray,
                  like: np.ndarray) -> Sides:
    """``sides`` with the scoring discs unsure when, with no colours known, every one of them
    is one side's but for faces ``like`` the board, no two alike, which took the other: their
    side was told against what may be bare board, and told without it the discs show one
    colour, which says nothing of whose (unless they are black or white, whose side any set
    agrees on). Those faces are unsure too. (Several faces alike the board's colour are a
    side's discs: black discs on a black board.)"""
    rest = scoring & ~like
    if not like.any() or rest.sum() < 2 or not _no_two_alike(raw[like]):
        return sides
    # (the ditch-only question, the faces like the board standing for the ditch)
    teams = np.array(sides.teams, int)
    if not _one_side_shown(teams[scoring], rest[scoring], faces[scoring], raw[scoring], None):
        return sides
    sure = np.array(sides.sure, bool)
    sure[rest | (like & (teams != teams[rest][0]))] = False
    return replace(sides, sure=tuple(bool(v) for v in sure))


def _ditch_only_of_sure(sides: Sides, scoring: np.ndarray, faces: np.ndarray, raw: np.ndarray,
                        colours: tuple[RGB | None, RGB | None] | None) -> Sides:
    """:func:`_ditch_only` once more, the scoring discs unsure of their side left out when no
    two of them are alike: such a disc (one glared, or something taken for a disc) shows no
    side on the board, and a board whose sure discs are all one side, the other's colour only
    in the ditch, is a board of one side whatever it adds. (Two alike show a colour on the
    board, perhaps the other side's.) Asked last, as it only takes sureness away: asked while
    the sides are told, the discs it leaves unsure would no longer show both sides when the
    sides are told again, and a side that turns on a face like the board would go unasked."""
    sure = np.array(sides.sure, bool)
    keep = sure | ~scoring
    if keep.all() or not keep.any():
        return sides
    if not _no_two_alike(raw[~keep]) or not _one_side_shown(
            np.array(sides.teams, int)[keep], scoring[keep], faces[keep], raw[keep], colours):
        return sides
    return replace(sides, sure=tuple(bool(v) for v in sure & ~(keep & scoring)))


def _unglared(light: np.ndarray) -> np.ndarray:
    """The board's light unglared (RGB): its least lit discs', as a glare can cover most."""
    return np.percentile(light, UNGLARED, axis=0)


def _told(faces: np.ndarray, raw: np.ndarray, colours: tuple[RGB | None, RGB | None] | None,
          light: np.ndarray | None, scoring: np.ndarray) -> Sides:
    """The sides of these discs (``raw``: their faces' log colours) by their colours alone
    (see :func:`assign`)."""
    if light is None:
        x = raw
    else:
        lit = _log(light)
        x = raw - lit + float(np.mean(lit))
    return _greys_in_hued_side(_greys_between(_assigned(faces, raw, x, colours, light, scoring),
                                              raw, x), faces, raw, colours)


def _against(sides: Sides, part: np.ndarray, alone: Sides, scoring: np.ndarray) -> Sides:
    """``sides`` with the discs unsure whose side turns on the discs outside ``part``:
    ``alone`` (the sides of ``part`` told by themselves) gives them the other side, or is
    unsure of them, while it finds both sides in the discs that score."""
    teams, sure = np.array(alone.teams, int), np.array(alone.sure, bool)
    if alone.doubt or not all((sure & scoring[part] & (teams == k)).any() for k in (0, 1)):
        return sides
    moved = teams != np.array(sides.teams)[part]
    if not moved.any():
        return sides
    keep = np.array(sides.sure)
    keep[np.flatnonzero(part)] &= ~moved & sure
    return replace(sides, sure=tuple(bool(v) for v in keep))


def _assigned(faces: np.ndarray, raw: np.ndarray, x: np.ndarray,
              colours: tuple[RGB | None, RGB | None] | None, light: np.ndarray | None,
              scoring: np.ndarray) -> Sides:
    """The sides, before the greys between them are asked about (see :func:`assign`)."""
    n = len(faces)
    out = _all(faces, raw, x, colours, scoring)
    if light is not None:
        out = _glared(out, faces, np.asarray(light, np.float64), colours)
    if colours is None:
        out = _ditch_only(out, scoring, faces, raw)
        out = _dark_or_light(out, scoring, faces)
    elif None in colours:
        out = _ditch_only(out, scoring, faces, raw, colours)
    # The ditch also holds what changes no total (another set, a hand, a mark taken for a
    # disc), and an odd colour there can pull one of two groups to itself and leave both
    # sides in the other: if every disc that scores fell to one side while they show two
    # colours, two discs or more each, the discs that score say the sides. (One disc of a
    # colour is more likely a glared disc of the side it fell to.)
    if (4 <= scoring.sum() < n and len(set(np.array(out.teams)[scoring])) == 1
            and not _three(x[scoring])):
        try:
            core = _sides(faces[scoring], raw[scoring], x[scoring], colours)
        except _Split:
            return out
        if np.bincount(np.array(core.teams), minlength=2).min() >= 2:
            return _with_aside(_glared(_tight(core, x[scoring], raw[scoring]), faces[scoring],
                                       np.asarray(light, np.float64)[scoring], colours)
                               if light is not None else _tight(core, x[scoring], raw[scoring]),
                               raw, ~scoring, colours)
    return out


def _ditch_only(sides: Sides, scoring: np.ndarray, faces: np.ndarray, raw: np.ndarray,
                colours: tuple[RGB | None, RGB | None] | None = None) -> Sides:
    """``sides`` with the scoring discs unsure of their side when the other side's colour shows
    only among discs that score nothing (:func:`_one_side_shown`)."""
    if not _one_side_shown(np.array(sides.teams, int), scoring, faces, raw, colours):
        return sides
    return replace(sides, sure=tuple(bool(v) for v in np.array(sides.sure) & ~scoring))


def _one_side_shown(teams: np.ndarray, scoring: np.ndarray, faces: np.ndarray, raw: np.ndarray,
                    colours: tuple[RGB | None, RGB | None] | None) -> bool:
    """Whether the scoring discs show one side only, the other side's colour only among the
    discs that score nothing: that colour may be another set's discs put in the ditch, the
    side in play on the board being either (and with no colours known, that cannot say
    whose). Not where the board's discs are black, the dark side of any set, or white or pale
    natural, the light side of any, and taken so. With one side's colour known, not where the
    board's discs or the others are that colour: a colour learnt from a disc or two (a glared
    one, perhaps) says nothing of a colour it is not. (``raw``: the faces' log colours.)"""
    if not scoring.any() or scoring.all():
        return False
    on = {int(t) for t in teams[scoring]}
    if len(on) != 1 or len(set(teams.tolist())) != 2:
        return False
    if of_any_set(on.pop(), float(np.median(luma_of(faces[scoring])))):
        return False
    if colours is not None:
        known = _log(np.array(next(c for c in colours if c is not None), np.float64))
        return all(float(np.linalg.norm(np.median(raw[part], axis=0) - known)) >= _SAME
                   for part in (scoring, ~scoring))
    return True


def luma_of(rgb: np.ndarray | RGB) -> np.ndarray:
    """RGB luma (0 to 255) of a colour or of colours (..., 3)."""
    return np.asarray(rgb, np.float64) @ np.array([0.299, 0.587, 0.114])


def of_any_set(team: int, luma: np.ndarray | float) -> bool:
    """Whether faces this dark (team 0) or this light (team 1), every one, are that side's in
    any set: black is the dark side of whatever set it is in, white or pale natural the
    light."""
    return bool(np.all(np.asarray(luma) < ANY_SET_DARK) if team == 0
                else np.all(np.asarray(luma) > ANY_SET_LIGHT))


def _dark_or_light(sides: Sides, scoring: np.ndarray, faces: np.ndarray) -> Sides:
    """``sides`` with the scoring discs made sure of their side where, no colours known, they
    all fall to one side, none sure of it, and every one is black, the dark side of any set,
    or every one white or pale natural, the light side of any (as :func:`_ditch_only` takes
    them): one black 10 on a board whose other discs lay in the ditch was asked about (a
    stream frame of a tournament board)."""
    teams, sure = np.array(sides.teams, int), np.array(sides.sure, bool)
    if sides.doubt or not scoring.any() or sure[scoring].any() or len(set(teams[scoring])) != 1:
        return sides
    team = int(teams[scoring][0])
    if of_any_set(team, luma_of(faces[scoring])):
        sure[scoring] = True
        return replace(sides, sure=tuple(bool(v) for v in sure))
    if len(set(teams.tolist())) == 1 and of_any_set(1 - team, luma_of(faces[scoring])):
        # every disc fell to one side, guessed by how dark they all are, the discs in the
        # ditch too many colours to split two ways (a stream frame: white and black sets in
        # a red ditch, the ditch's own red read as discs there): the white 15 alone on the
        # board is the light side whatever the ditch holds
        teams[scoring], sure[scoring] = 1 - team, True
        return replace(sides, teams=tuple(int(t) for t in teams),
                       sure=tuple(bool(v) for v in sure), colours=_seen(faces, teams, sure))
    return sides


def _glared(sides: Sides, faces: np.ndarray, light: np.ndarray,
            known: tuple[RGB | None, RGB | None] | None = None) -> Sides:
    """``sides`` with a disc unsure of its side where the board around it is lit brighter than
    the board's unglared light (its least lit discs') by a grey lift (a varnish's glare adds
    the lamp's or window's own light, whatever the colour under it) and taking that lift off
    its face as well would put it nearer the other side's colour. The sides are told by
    colours evened out for the light as a lamp's falloff changes it, by a factor; glare adds
    instead, greying a dark disc toward a light side's colour, and a picture cannot say which
    of the two it was. A side with no disc here is taken at its ``known`` colour: a black disc
    greyed by glare, with the blacks all in the ditch, is no less unsure beside the pinks for
    showing the only black."""
    ref_rgb = _either(sides.colours, known)
    if len(faces) < 2 or None in ref_rgb:
        return sides
    sides = _lifted(sides, faces, ref_rgb, known)
    unglared = _unglared(light)
    lift = light - unglared
    mean = lift.mean(axis=1)
    # alike in every channel as added light, or as a share of each channel's headroom: a
    # bright board's lightest channel has less room left below white, so a strong glare lifts
    # it least (a yellow board's red 202 to 247, its blue 133 to 221: 85 and 72 % of the room)
    room = lift / np.maximum(255.0 - unglared, 1.0)
    grey = _alike(lift, GLARE_GREY) | ((room.min(axis=1) > 0) & _alike(room, GLARE_GREY))
    glared = (mean > GLARE_LIFT) & grey
    if not glared.any():
        return sides
    ref = _log(np.array(ref_rgb))
    sure = list(sides.sure)
    for i in np.flatnonzero(glared):
        if not sure[i]:
            continue
        # the lift as the board shows it, and on a board near white as large as its most
        # lifted channel all round: the board's channels stop at white, showing less of the
        # glare than the disc's face takes (a navy disc under a window's glare on a pale
        # board, lifted about 60 in each channel where the board rose 14, 40 and 58, passed
        # for a light blue side)
        lifts = [lift[i]] + ([np.full(3, lift[i].max())] if light[i].max() >= WHITE else [])
        for added in lifts:
            bare = _log(np.clip(faces[i] - added, 0.0, None))
            d = np.linalg.norm(ref - bare, axis=1)
            if d[1 - sides.teams[i]] < d[sides.teams[i]]:
                sure[i] = False
    return replace(sides, sure=tuple(sure))


def _either(seen: tuple[RGB | None, RGB | None],
            known: tuple[RGB | None, RGB | None] | None) -> tuple[RGB | None, RGB | None]:
    """Each side's colour as seen here, or as known (named, or carried over from an earlier
    round of the match) where no disc here showed it."""
    if known is None:
        return seen
    return (seen[0] if seen[0] is not None else known[0],
            seen[1] if seen[1] is not None else known[1])


def _lifted(sides: Sides, faces: np.ndarray, colours: tuple[RGB | None, RGB | None],
            known: tuple[RGB | None, RGB | None] | None = None) -> Sides:
    """``sides`` with a disc unsure of its side where its face is the other side's colour with
    a grey light added (a varnish's glare on the disc itself, whatever the board round it
    shows) and not near its own side's: a red disc glared to a pale red, with greens the only
    other colour on the board, joins the greens' group as readily as the reds'. Not where the
    two sides differ in brightness alone (black and white discs): there every light disc is
    the dark side's colour lifted. Its own side's colour is the rest of its side's, or the
    side's ``known`` colour: a disc alone in its side is its side's colour whatever it is (a
    red disc in a band of window light, pink, made a side of its own beside three reds, the
    reds then taken for the dark side, surely: seen layouts-408 24)."""
    ref = _log(np.array(colours, np.float64))
    if _hue_apart(ref[0], ref[1]) <= _THIRD_HUE:
        return sides
    teams = np.array(sides.teams, int)
    lift = faces - np.array(colours, np.float64)[1 - teams]
    logs = _log(faces)
    told = [None if known is None or c is None else _log(np.array(c, np.float64))
            for c in (known or (None, None))]
    own = np.full(len(faces), np.inf)
    for i, team in enumerate(teams):
        mates = teams == team
        mates[i] = False
        if mates.any():
            own[i] = np.linalg.norm(logs[i] - np.median(logs[mates], axis=0))
        if told[team] is not None:
            own[i] = min(own[i], float(np.linalg.norm(logs[i] - told[team])))
    lifted = (lift.mean(axis=1) > GLARE_LIFT) & _alike(lift, LIFT_GREY) & (own > LIFT_OWN)
    return replace(sides, sure=tuple(bool(v) for v in np.array(sides.sure) & ~lifted))


def _alike(lift: np.ndarray, share: float) -> np.ndarray:
    """Which rows of added light (n, 3) add alike to all three channels, within ``share`` of
    their mean: a lamp's or window's own light, whatever the colour under it."""
    return (lift.max(axis=1) - lift.min(axis=1)) <= share * np.maximum(lift.mean(axis=1), 1e-6)


def _tight(sides: Sides, x: np.ndarray, raw: np.ndarray) -> Sides:
    """``sides`` with a disc sure of its side only if near the middle of its side's colours
    (within ``_SAME``, or three times its side's typical distance), or at least twice as near
    it as the other side's: a glared or worn disc between the two colours falls in one group
    without being like it. And, as seen (``raw``, the light not evened out), nearer its own
    side's middle than the other's by :data:`NEARER` at least, or within ``_SAME`` of it:
    evening out a black board's light takes a window's glare over it for light that lifts the
    discs too, which it hardly does, and a dark red disc where the board was not glared was
    taken, evened out, for a red one (retired play-311 28)."""
    teams, sure = np.array(sides.teams), np.array(sides.sure)
    if len(set(teams.tolist())) < 2:
        return sides
    middle = [np.median(x[teams == k], axis=0) for k in (0, 1)]
    seen = [np.median(raw[teams == k], axis=0) for k in (0, 1)]
    for k in (0, 1):
        idx = teams == k
        d = np.linalg.norm(x[idx] - middle[k], axis=1)
        other = np.linalg.norm(x[idx] - middle[1 - k], axis=1)
        sure[idx] &= (d <= max(_SAME, 3.0 * float(np.median(d)))) | (d <= 0.5 * other)
        d = np.linalg.norm(raw[idx] - seen[k], axis=1)
        other = np.linalg.norm(raw[idx] - seen[1 - k], axis=1)
        sure[idx] &= (d <= _SAME) | (d <= NEARER * other)
    return replace(sides, sure=tuple(bool(v) for v in sure))


def _all(faces: np.ndarray, raw: np.ndarray, x: np.ndarray,
         colours: tuple[RGB | None, RGB | None] | None, scoring: np.ndarray) -> Sides:
    """The sides from every disc's colour (see :func:`assign`)."""
    n = len(faces)
    if not _three(x):
        try:
            return _sides(faces, raw, x, colours)
        except _Split:
            pass
    # more than two colours: first a colour no scoring disc shows is set aside (of two such,
    # the rarer); failing that, every disc that scores nothing (another set's in the ditch, a
    # hand or a cup taken for a disc), the sides read from the scoring discs alone
    labels, _ = k_means(x, 3) if n >= 3 else (np.zeros(n, int), None)
    idle = [j for j in range(3) if (labels == j).any() and not scoring[labels == j].any()
            and not _known_colour(raw[labels == j], colours)]
    trials = []
    if idle:
        j = min(idle, key=lambda j: int((labels == j).sum()))
        trials.append(labels == j)
    if scoring.any() and not scoring.all():
        trials.append(~scoring)
    for aside in trials:
        if _three(x[~aside]):
            continue
        try:
            core = _sides(faces[~aside], raw[~aside], x[~aside], colours)
        except _Split:
            continue
        return _with_aside(core, raw, aside, colours)
    if colours is not None and None not in colours:
        # both sides' colours known (named, or seen earlier in the match): a disc of either
        # is that side's whatever else lies on the board, and only those of neither are
        # unsure, when each of those lies between the two colours (a disc glared part of the
        # way to the other side's). A colour beyond them (black discs beside known reds and
        # greys) says the colours known may be wrong (a black side first seen greyed by
        # glare), or another set is in play: the board stays in doubt.
        known = _by_known(faces, raw, colours, np.zeros(n, bool))
        odd = ~np.array(known.sure) & scoring
        if not odd.any() or _between(raw[odd], colours).all():
            return known
    return _in_doubt(faces, raw, x, colours)


def _known_colour(raw: np.ndarray, colours: tuple[RGB | None, RGB | None] | None) -> bool:
    """Whether a group of faces (log colours) is a known side's colour: never a third set's
    to set aside, however few of its discs score (the blacks all knocked to the ditch, the
    colour left on the board being a black greyed by glare)."""
    if colours is None:
        return False
    middle = np.median(raw, axis=0)
    return any(c is not None and float(np.linalg.norm(middle - _log(np.array(c)))) < _SAME
               for c in colours)


BETWEEN = 0.35  # a colour this near (a share of the two's distance) the way from one to the
#                other is between them


def _between(raw: np.ndarray, colours: tuple[RGB | None, RGB | None]) -> np.ndarray:
    """Which faces (log colours, n x 3) lie on the way from one named colour to the other,
    near it (see :data:`BETWEEN`)."""
    a, b = _log(np.array(colours[0], np.float64)), _log(np.array(colours[1], np.float64))
    ab = b - a
    span = float(np.linalg.norm(ab))
    if span == 0.0:
        return np.zeros(len(raw), bool)
    t = ((raw - a) @ ab) / span**2
    off = np.linalg.norm(raw - a - t[:, None] * ab, axis=1)
    return (t >= -BETWEEN) & (t <= 1.0 + BETWEEN) & (off <= BETWEEN * span)


def _in_doubt(faces: np.ndarray, raw: np.ndarray, x: np.ndarray,
              colours: tuple[RGB | None, RGB | None] | None) -> Sides:
    """Sides for a board whose discs come in more than two colours: the best two-way split,
    none of it sure, and the doubt said."""
    labels, centres = two_means(x) if len(x) >= 2 else (np.zeros(len(x), int), x[:1])
    dark = int(np.argmin(_luma(centres))) if len(centres) > 1 else 0
    teams = np.where(labels == dark, 0, 1)
    return Sides(tuple(int(t) for t in teams), (False,) * len(x), _seen(faces, teams),
                 MORE_THAN_TWO)


def _with_aside(core: Sides, raw: np.ndarray, aside: np.ndarray,
                known: tuple[RGB | None, RGB | None] | None = None) -> Sides:
    """``core`` (the sides of the discs not set aside) with the set-aside discs given to the
    side whose colour they are nearer, as seen or as known: they score nothing, so their side
    is sure enough."""
    teams = np.zeros(len(aside), int)
    sure = np.ones(len(aside), bool)
    teams[~aside] = core.teams
    sure[~aside] = core.sure
    ref = [_log(np.array(c)) if c is not None else None for c in _either(core.colours, known)]
    for i in np.flatnonzero(aside):
        d = [np.linalg.norm(raw[i] - r) if r is not None else np.inf for r in ref]
        teams[i] = int(np.argmin(d)) if np.isfinite(min(d)) else 0
    return Sides(tuple(int(t) for t in teams), tuple(bool(v) for v in sure), core.colours,
                 core.doubt)


def _sides(faces: np.ndarray, raw: np.ndarray, x: np.ndarray,
           colours: tuple[RGB | None, RGB | None] | None) -> Sides:
    """The sides of discs in at most two colours (see :func:`assign`); raises :class:`_Split`
    when a side's discs fall in two colours of their own."""
    n = len(faces)
    labels = np.zeros(n, int)
    two = False
    odd = np.zeros(n, bool)
    if n >= 2:
        labels, centres = two_means(x)
        two = _apart(x, labels, centres)
        found = _lone(x, labels)
        if found is not None:
            # one disc far off all the others (a shadow or a mark taken for a disc) splits
            # the discs by itself; the sides are the two colours of the rest, and it is odd
            lone, sub, centres = found
            rest = np.arange(n) != lone
            labels[rest] = sub
            labels[lone] = int(np.argmin(np.linalg.norm(centres - x[lone], axis=1)))
            odd[rest] = _odd_ones(x[rest], labels[rest])
            odd[lone] = True
            two = True  # (the rest's two colours are apart: _lone asks it)
        elif two:
            odd = _odd_ones(x, labels)
            if _shades_beside_lone(x, labels):
                odd[:] = True
    if colours is not None and (colours[0] is None) != (colours[1] is None):
        return _one_known(faces, raw, colours, labels if two else None, odd)
    if colours is not None:
        d, _, near_enough = _from_known(raw, colours)
        if two:  # each group goes whole to the nearer named colour, if they differ
            near = [int(np.argmin(d[labels == k].mean(axis=0))) for k in (0, 1)]
            if near[0] != near[1]:
                teams = np.where(labels == 0, near[0], near[1])
                # ... but a disc unlike its group's colour is not sure of it: a window's
                # sheen can grey a black disc into the red side's group
                sure = ~odd & (d[np.arange(n), teams] < near_enough)
                return Sides(tuple(int(t) for t in teams), tuple(bool(o) for o in sure),
                             _seen(faces, teams, sure))
        return _by_known(faces, raw, colours, odd)
    if two:  # (a disc far from the middle of its group's colours, a glared or worn one
        # between the two, is not sure of it: _tight)
        dark = int(np.argmin(_luma(centres)))
        teams = _darker_first(labels, centres)
        if _grey_over_hue(raw, labels, dark):
            odd = np.ones(n, bool)
        return _tight(Sides(tuple(int(t) for t in teams), tuple(bool(o) for o in ~odd),
                            _seen(faces, teams)), x, raw)
    if n >= 2 and _apart(x, labels, centres, _CLOSE, _CLOSE_RATIO):
        # two tight colours nearer than two sides must be (a dark red set against a red one,
        # or one side's discs in two shades): split by how dark, every disc in doubt, so a
        # reading the operator confirms is right as read and teaches the match its colours
        teams = _darker_first(labels, centres)
        return Sides(tuple(int(t) for t in teams), (False,) * n, _seen(faces, teams))
    # one colour only, and no named colours: guess by how dark the discs are, and say so
    team = 0 if float(np.median(_luma(x))) < math.log(100.0 + 8.0) else 1
    teams = np.full(n, team)
    return Sides(tuple(int(t) for t in teams), (False,) * n, _seen(faces, teams))


def _darker_first(labels: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Teams for two colour groups: the darker group's discs team 0, the other's team 1."""
    return np.where(labels == int(np.argmin(_luma(centres))), 0, 1)


def _grey_over_hue(raw: np.ndarray, labels: np.ndarray, dark: int) -> bool:
    """Whether the lighter of two groups is a middling grey (no hue, neither black nor white)
    and the darker one has a hue: a grey lighter than a coloured side is as likely a black
    side greyed by a varnish's glare as a white side in shade, so which side is the darker
    cannot be told (a black-and-red set's blacks, glared grey, were read as the light side
    and their colour carried to the match's next rounds). On the faces as seen."""
    return _grey_beside_hue(np.median(raw[labels != dark], axis=0),
                            np.median(raw[labels == dark], axis=0))


def _grey_beside_hue(grey: np.ndarray, hued: np.ndarray) -> bool:
    """Whether a log colour is a middling grey (no hue, neither black nor white) and another
    has a hue."""
    luma = float(np.exp(_luma(grey))) - 8.0
    return (float(_hue(grey)) < _CHROMATIC
            and float(_hue(hued)) >= _CHROMATIC
            and ANY_SET_DARK < luma < ANY_SET_LIGHT)


def _greys_between(sides: Sides, raw: np.ndarray, x: np.ndarray) -> Sides:
    """``sides`` with a disc unsure of its side where, among the discs of no hue, its side
    shows two greys apart and its own lies between the other one and the other side's grey:
    black and white sides differ in brightness alone, and a varnish's glare greys a black
    disc toward white as far as a shadow darkens a white one. With no hue to tell by, such a
    grey is either side's (two blacks glared grey made a side of greys, the one white disc
    being in the ditch). Hue is told on the faces as seen (evening out a yellow board's light
    gives greys a blue one), and the way between on the faces evened out (a shadow over the
    board darkens a white disc with it)."""
    teams = np.array(sides.teams, int)
    grey = _hue(raw) < _CHROMATIC
    sure = np.array(sides.sure, bool)
    for k in (0, 1):
        idx = np.flatnonzero(grey & (teams == k))
        others = grey & (teams != k)
        if len(idx) < 2 or not others.any():
            continue
        sub, c = two_means(x[idx])
        if not _apart(x[idx], sub, c, _THIRD, _THIRD_RATIO):
            continue
        other = np.median(x[others], axis=0)
        near = int(np.argmin(np.linalg.norm(c - other, axis=1)))
        way = c[1 - near] - other
        t = float((c[near] - other) @ way) / max(float(way @ way), 1e-9)
        if GREY_BETWEEN < t < 1.0 - GREY_BETWEEN:
            sure[idx[sub == near]] = False
    return replace(sides, sure=tuple(bool(v) for v in sure))


def _greys_in_hued_side(sides: Sides, faces: np.ndarray, raw: np.ndarray,
                        colours: tuple[RGB | None, RGB | None] | None) -> Sides:
    """``sides`` with a disc of no hue unsure of its side where that side's colour has a hue
    and the other side's has none: a varnish's glare lifts a black disc to a grey as a shadow
    darkens a white one, and such a grey is no nearer the hued side's colour for being lighter
    or darker than its own (a black and green set's blacks glared grey fell to the green side,
    sure of it, and taught the match's next round a greyed green: retired layouts-354 34 and
    35). A side's colour is the one known, else its discs' as seen. Hue is told on the faces
    as seen, and only a grey of less than half the side's hue is in doubt: a dark side's
    faint hue is of a piece with its greyest disc's (the real Pi camera photo's dark discs,
    0.12 to 0.18 of hue, the threshold 0.15, are one side's, sure of it). A black disc with the
    dark side, or a white one with the light, stays sure: that is their side in any set (a
    stream frame's black 15, beside a black in the ditch whose camera tint read as a hue)."""
    teams = np.array(sides.teams, int)
    sure = np.array(sides.sure, bool)
    chroma = _hue(raw)
    grey = chroma < _CHROMATIC
    luma = luma_of(faces)

    def hue_of(k: int) -> float | None:
        """How strong side ``k``'s hue is: its colour known, else its discs' as seen (those of
        a hue, as many as its greys at least: a white side's one glared or odd disc makes no
        hued side of it); None if it cannot be told."""
        if colours is not None and colours[k] is not None:
            return float(_hue(_log(np.array(colours[k], np.float64))))
        mine = teams == k
        if not mine.any():
            return None
        if (mine & ~grey).sum() < (mine & grey).sum():
            return 0.0
        return float(_hue(np.median(raw[mine & ~grey], axis=0)))

    for k in (0, 1):
        own, other = hue_of(k), hue_of(1 - k)
        if own is None or other is None or not own >= _CHROMATIC > other:
            continue
        any_set = luma < ANY_SET_DARK if k == 0 else luma > ANY_SET_LIGHT
        sure[(teams == k) & grey & sure & (2 * chroma < own) & ~any_set] = False
    return replace(sides, sure=tuple(bool(v) for v in sure))


def _by_known(faces: np.ndarray, raw: np.ndarray, colours: tuple[RGB | None, RGB | None],
              odd: np.ndarray) -> Sides:
    """Sides by the two sides' named colours, disc by disc: each the nearer's, and sure of it
    when far nearer one than the other, and near it (and not ``odd``). A face unlike both (a
    dark disc greyed by a lamp's glare, a third set's) is nearer one of them by chance."""
    d, apart, near_enough = _from_known(raw, colours)
    teams = np.argmin(d, axis=1)
    sure = (np.abs(d[:, 0] - d[:, 1]) > 0.25 * apart) & (d.min(axis=1) < near_enough)
    return Sides(tuple(int(t) for t in teams), tuple(bool(s) for s in sure & ~odd),
                 _seen(faces, teams))


def _from_known(raw: np.ndarray, colours: tuple[RGB | None, RGB | None]
                ) -> tuple[np.ndarray, float, float]:
    """Each face's log-colour distance from the two named colours (n, 2), how far apart they
    are, and how near one a disc must be to be sure of it (half that, at least _SAME)."""
    ref = _log(np.array(colours))
    apart = float(np.linalg.norm(ref[0] - ref[1]))
    return (np.linalg.norm(raw[:, None] - ref[None], axis=-1), apart,
            max(_SAME, 0.5 * apart))


def _one_known(faces: np.ndarray, raw: np.ndarray, colours: tuple[RGB | None, RGB | None],
               labels: np.ndarray | None, odd: np.ndarray) -> Sides:
    """Sides when one side's colour is known (an operator confirmed a reading that showed that
    side only). Two sets are in play, so a colour clearly unlike the known one is the other
    side's; one in between is given to the nearer guess and marked unsure; and so is a group
    of the known side's hue, only darker or lighter (both coloured: black, white and grey
    share no hue to tell by)."""
    known = 0 if colours[0] is not None else 1
    ref = _log(np.array(colours[known], np.float64))
    d = np.linalg.norm(raw - ref, axis=1)
    if labels is not None and _one_colour_apart(raw, labels, d):
        labels = None  # (one colour, as seen, that the light split in two: each disc alone)
    if labels is not None:  # two groups on the board: the nearer one is the known side
        mean = [float(d[labels == k].mean()) for k in (0, 1)]
        near = int(np.argmin(mean))
        teams = np.where(labels == near, known, 1 - known)
        sure = ~odd
        darker = int(np.argmin([float(np.median(_luma(raw[labels == k]))) for k in (0, 1)]))
        if ((darker == near) != (known == 0) and mean[near] > _SAME
                and mean[near] > HARDLY_NEARER * mean[1 - near]):
            # hardly nearer one group than the other, and against the darker side being
            # team 0: worn discs of both sides fade to one colour, and a side's colour learnt
            # from a worn disc lies between the two groups
            sure = np.zeros(len(raw), bool)
        if mean[near] > _SEPARATE and mean[near] > _groups_apart(raw, labels):
            # neither group is the known colour, the nearer further from it than from the
            # other group: two colours unlike it cannot both be the other side's, nor is the
            # nearer the known side's for being nearer (a natural side known, a round showing
            # a black disc and a worn black one, 0.64 apart, the worn one 1.76 from natural,
            # took the worn one for natural surely: seen layouts-354 74). A side's colour seen
            # in other light is nearer its group than the other group is (a dark wood side
            # learnt greyed, 0.65 from its group, 1.4 from the whites)
            sure = np.zeros(len(raw), bool)
        far = raw[labels != near].mean(axis=0)
        if (min(float(_hue(ref)), float(_hue(far)))
                >= _CHROMATIC and _hue_apart(far, ref) < _THIRD_HUE):
            # the other group only darker or lighter than a coloured side: as likely that
            # side's second shade (a worn or two-tone set) as the other side's
            sure = sure & (labels == near)
        return Sides(tuple(int(t) for t in teams), tuple(bool(o) for o in sure),
                     _seen(faces, teams))
    teams = np.where(d < 0.5 * (_SAME + _SEPARATE), known, 1 - known)
    sure = (d < _SAME) | (d > _SEPARATE)
    other = teams != known
    if other.sum() >= 2:
        # each given to the other side for being unlike the known colour: one nearer that
        # colour than the middle of the others given with it is not sure of it (a dark wood
        # side learnt greyed, a round later its disc, 0.82 from the colour learnt and 1.5 from
        # the white and yellow discs given to the other side, went to them surely: seen
        # layouts-350 17)
        middle = np.median(raw[other], axis=0)
        sure &= ~(other & (np.linalg.norm(raw - middle, axis=1) > d))
    return Sides(tuple(int(t) for t in teams), tuple(bool(v) for v in sure),
                 _seen(faces, teams))


def _one_colour_apart(raw: np.ndarray, labels: np.ndarray, d: np.ndarray) -> bool:
    """Whether two groups split by their colours evened out for the light are, as seen, one
    colour far from the side's known one: neither is that side's. A dark red side known, a
    round showing five natural discs only, split in two by a lamp's falloff, gave the group
    nearer dark red (1.5 from it) to the dark red side, sure; taught the match, the next
    round's sides were told by two colours alike (fresh pair play-349 70, 71)."""
    far = min(float(d[labels == k].mean()) for k in (0, 1))
    return far > _SEPARATE and _groups_apart(raw, labels) < _SAME


def _groups_apart(raw: np.ndarray, labels: np.ndarray) -> float:
    """How far apart two groups' colours are, as seen (log colour, their medians)."""
    return float(np.linalg.norm(np.median(raw[labels == 0], axis=0)
                                - np.median(raw[labels == 1], axis=0)))


def _seen(faces: np.ndarray, teams: np.ndarray,
          sure: np.ndarray | None = None) -> tuple[RGB | None, RGB | None]:
    """Each side's colour: the median face of its discs, of those sure of it where any are (a
    greyed disc given to a side is not to shift the colour the next rounds go by)."""
    out: list[RGB | None] = []
    for k in (0, 1):
        group = faces[teams == k]
        if sure is not None and (sure & (teams == k)).any():
            group = faces[sure & (teams == k)]
        out.append(middle_colour(group) if len(group) else None)
    return out[0], out[1]


def middle_colour(faces: np.ndarray | list[RGB]) -> RGB:
    """The median of some faces' colours (RGB), channel by channel, in whole numbers."""
    m = np.median(np.asarray(faces, np.float64).reshape(-1, 3), axis=0)
    return round(float(m[0])), round(float(m[1])), round(float(m[2]))


def greyed(colour: RGB, beside: RGB | None) -> bool:
    """Whether a side's colour is a middling grey, no hue, beside a side of a hue: as likely
    the dark side's black or dark wood greyed by a varnish's glare as a grey set's, so not to
    be taught to the match (see :func:`_grey_over_hue`)."""
    return beside is not None and _grey_beside_hue(_log(np.array(colour, np.float64)),
                                                   _log(np.array(beside, np.float64)))


def agreed_colour(faces: list[RGB]) -> RGB | None:
    """The colour two discs or more agree on, all but one of them (a disc of a third set or in
    a shadow among them) within :data:`_SAME` of their middle in log colour, or None."""
    if len(faces) < 2:
        return None
    logs = _log(np.array(faces, np.float64))
    agree = np.linalg.norm(logs - np.median(logs, axis=0), axis=1) <= _SAME
    if agree.sum() < max(2, len(faces) - 1):
        return None
    return middle_colour([f for f, a in zip(faces, agree, strict=True) if a])
