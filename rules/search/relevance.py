"""Measuring the rules search against a relevance set: questions as players ask them, each
with the sections that answer it (tests/rules/relevance/, read by `manage.py
rules_relevance` and by the CI test that holds the score floor).

    cases = load_cases(path)
    report = evaluate(cases, search_sections)
    print(report.table())          # top-1 / top-3 per query language, book, kind, split

The set is data kept apart from the ranking code: the ranking never reads it. A share of
the cases (chosen by a hash of their id, not by hand) is *held out*: tuning looks at the
other cases only, and the held-out score says how the search does on questions it was not
tuned on.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .normalise import tokens

HOLDOUT_SHARE = 3  # tenths of the cases held out (crc32 of the id modulo 10)
DEPTH = 5  # results looked at per query


@dataclass(frozen=True)
class Case:
    id: str
    query: str
    lang: str  # the query's language
    book: str  # slug of the book holding the answer
    expect: tuple[str, ...]  # headings (or "#slug") of the sections that answer it
    kind: str  # plain | term | number | procedure | game
    form: str = "question"  # question | fragment
    filters: tuple[tuple[str, str], ...] = ()
    tags: tuple[str, ...] = ()
    why: str = ""

    @property
    def holdout(self) -> bool:
        return zlib.crc32(self.id.encode()) % 10 < HOLDOUT_SHARE

    @property
    def split(self) -> str:
        return "held out" if self.holdout else "tuning"


def load_cases(path: str | Path) -> list[Case]:
    """Cases from a JSON-lines file (one object per line; see tests/rules/relevance)."""
    cases = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{number}: not JSON ({exc.msg})") from exc
        if not isinstance(raw, dict):
            raise ValueError(f"{path}:{number}: not a JSON object")
        try:
            cases.append(
                Case(
                    id=raw["id"],
                    query=raw["q"],
                    lang=raw["lang"],
                    book=raw["book"],
                    expect=tuple(raw["expect"]),
                    kind=raw["kind"],
                    form=raw.get("form", "question"),
                    filters=tuple(sorted((raw.get("filters") or {}).items())),
                    tags=tuple(raw.get("tags") or ()),
                    why=raw.get("why", ""),
                )
            )
        except KeyError as exc:
            raise ValueError(f"{path}:{number}: missing {exc.args[0]!r}") from exc
    return cases


def is_expected(section, case: Case) -> bool:
    """Whether a found section (with its book loaded) is one the case expects: same book,
    and the same heading (compared normalised) or the same slug ("#slug")."""
    if section.book.slug != case.book:
        return False
    lang = section.book.lang
    heading = tokens(section.heading, lang)
    for wanted in case.expect:
        if wanted.startswith("#"):
            if section.slug == wanted[1:]:
                return True
        elif tokens(wanted, lang) == heading:
            return True
    return False


@dataclass
class Outcome:
    case: Case
    rank: int | None  # 1-based rank of the first expected section, None beyond DEPTH
    first: str  # what came first: "book / heading"

    @property
    def top1(self) -> bool:
        return self.rank == 1

    @property
    def top3(self) -> bool:
        return self.rank is not None and self.rank <= 3


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)

    def share(self, outcomes: Sequence[Outcome] | None = None, *, top: int = 1) -> float:
        chosen = self.outcomes if outcomes is None else outcomes
        if not chosen:
            return 0.0
        hits = sum(1 for o in chosen if o.rank is not None and o.rank <= top)
        return hits / len(chosen)

    def groups(self) -> list[tuple[str, str, list[Outcome]]]:
        """(dimension, value, outcomes) for every reported group."""
        book_lang = {o.case.book: o.case.book.rsplit("-", 1)[-1] for o in self.outcomes}
        dimensions: list[tuple[str, Callable[[Outcome], Iterable[str]]]] = [
            ("all", lambda o: ["all"]),
            ("split", lambda o: [o.case.split]),
            ("query language", lambda o: [o.case.lang]),
            ("query → book", lambda o: [f"{o.case.lang} → {book_lang[o.case.book]}"]),
            ("kind", lambda o: [o.case.kind]),
            ("form", lambda o: [o.case.form]),
            ("book", lambda o: [o.case.book]),
            ("tag", lambda o: o.case.tags),
        ]
        out = []
        for name, values_of in dimensions:
            grouped: dict[str, list[Outcome]] = {}
            for outcome in self.outcomes:
                for value in values_of(outcome):
                    grouped.setdefault(value, []).append(outcome)
            out += [(name, value, grouped[value]) for value in sorted(grouped)]
        return out

    def table(self) -> str:
        lines = [f"{'group':34} {'queries':>7} {'top-1':>7} {'top-3':>7}"]
        for name, value, outcomes in self.groups():
            label = value if name == "all" else f"{name}: {value}"
            lines.append(
                f"{label:34} {len(outcomes):>7} {self.share(outcomes):>7.0%} "
                f"{self.share(outcomes, top=3):>7.0%}"
            )
        return "\n".join(lines)

    def misses(self, *, split: str | None = None) -> list[str]:
        return [
            f"{o.case.id}: {o.case.query!r} -> rank {o.rank or f'>{DEPTH}'}; first: {o.first}"
            for o in self.outcomes
            if not o.top1 and (split is None or o.case.split == split)
        ]


def evaluate(cases: Iterable[Case], search: Callable[..., list]) -> Report:
    """Run every case through `search(query, limit=…, **filters)` (rules.search's
    `search_sections` signature) and record where the expected section came."""
    report = Report()
    for case in cases:
        hits = search(case.query, limit=DEPTH, **dict(case.filters))
        rank = next((i for i, hit in enumerate(hits, 1) if is_expected(hit.section, case)), None)
        first = f"{hits[0].section.book.slug} / {hits[0].section.heading}" if hits else "nothing"
        report.outcomes.append(Outcome(case, rank, first))
    return report
