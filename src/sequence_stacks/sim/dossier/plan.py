"""What a dossier plays: its spec, the configs each question needs, and how many games.

A :class:`DossierSpec` names the rules (player counts, options, the variant swept), the
players and the time budget. :func:`build_jobs` turns it into configs, one family per
kind of question:

- ``table``: the reference player (``heuristic``) at every seat: fairness, length,
  drama, kingmaking, endings, chips and Blocks;
- ``ladder``: one stronger player alone among weaker ones, for each step of the ladder
  (``greedy`` among ``random``, ``heuristic`` among ``greedy``); the reference among the
  rung below it (:meth:`DossierSpec.skill_base`) gives the share of skill;
- ``search``: ``ismcts`` at each budget (a quarter, a half, the whole default budget:
  each step doubles it) alone among reference players;
- ``restricted``: one reference player barred from a card alone among normal ones, and
  the same table unbarred (the control: its games are the same deals, seats and seeds,
  so a card's worth is read game by game).

Every config of a player count uses the dossier's seed, so the configs play the same
deals where their decks agree. :func:`allocate` sets each config's games from the
budget and the seconds per game a pilot measured; the result, a :class:`Plan`, is saved
in the dossier folder, so a rerun continues it and ``--plan`` replays it exactly.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

from sequence_stacks.engine import CARD_KIND, Settings, deck_for
from sequence_stacks.sim.players import PlayerSpec, Restriction
from sequence_stacks.sim.runner import SimConfig

__all__ = [
    "DEFAULT_BUDGETS",
    "DEFAULT_LADDER",
    "DossierSpec",
    "Family",
    "Job",
    "Plan",
    "allocate",
    "build_jobs",
    "pilot_games",
]

DEFAULT_LADDER: Final = ("random", "greedy", "heuristic", "ismcts")
DEFAULT_BUDGETS: Final = (0.25, 0.5, 1.0)
DEFAULT_VARIANT: Final = "default rules"


class Family(enum.StrEnum):
    """The kind of question a config answers (module docstring)."""

    TABLE = "table"
    LADDER = "ladder"
    SEARCH = "search"
    RESTRICTED = "restricted"


# Each family's share of a group's time, and the most games a config needs.
_WEIGHTS: Final = {
    Family.TABLE: 0.2,
    Family.LADDER: 0.05,
    Family.SEARCH: 0.35,
    Family.RESTRICTED: 0.4,
}
_CAPS: Final = {
    Family.TABLE: 20_000,
    Family.LADDER: 6_000,
    Family.SEARCH: 3_000,
    Family.RESTRICTED: 6_000,
}
_PILOT_GAMES: Final = 4


@dataclasses.dataclass(frozen=True, slots=True)
class DossierSpec:
    """What to study: rules, players, time budget and seed.

    Attributes:
        players: the player counts (2-6).
        options: variant options for every config (``NAME=VALUE``).
        vary: an option to sweep and its values; the first value is the baseline.
        budget_s: wall-clock seconds for the whole run.
        reference: the player of the table, of restricted play and of the search's opponents.
        ladder: players from weakest to strongest.
        budgets: the ``ismcts`` budget scales (each the double of the one before).
    """

    players: tuple[int, ...] = (2, 4)
    options: tuple[str, ...] = ()
    vary: tuple[str, tuple[str, ...]] | None = None
    budget_s: float = 600.0
    seed: int = 0
    reference: str = "heuristic"
    ladder: tuple[str, ...] = DEFAULT_LADDER
    budgets: tuple[float, ...] = DEFAULT_BUDGETS

    def __post_init__(self) -> None:
        if not self.players or any(not 2 <= count <= 6 for count in self.players):
            raise ValueError("player counts must be 2-6 (R5)")
        if len(self.ladder) < 2:
            raise ValueError("a ladder needs two players or more, weakest first")
        for name in (self.reference, *self.ladder):
            PlayerSpec.parse(name)
        if any(scale <= 0 for scale in self.budgets):
            raise ValueError("budget scales must be positive")
        for _, options in self.variants():  # refuses bad options before anything is played
            for count in self.players:
                Settings.from_options(list(options), player_count=count)

    def variants(self) -> list[tuple[str, tuple[str, ...]]]:
        """Each variant's label and options (the baseline first)."""
        if self.vary is None:
            return [(DEFAULT_VARIANT, self.options)]
        name, values = self.vary
        return [(f"{name}={value}", (*self.options, f"{name}={value}")) for value in values]

    def skill_base(self) -> str:
        """Whom the reference faces for the share of skill: the ladder's rung below it
        (a beginner who takes the obvious move, ``greedy``), else the ladder's bottom."""
        ladder = self.ladder
        index = ladder.index(self.reference) if self.reference in ladder else 0
        return ladder[index - 1] if index > 0 else ladder[0]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (:meth:`from_dict` reads it back)."""
        data = dataclasses.asdict(self)
        data["vary"] = None if self.vary is None else [self.vary[0], list(self.vary[1])]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DossierSpec:
        """Read :meth:`to_dict` data back."""
        vary = data.get("vary")
        return cls(
            players=tuple(int(count) for count in data["players"]),
            options=tuple(str(option) for option in data["options"]),
            vary=None if vary is None else (str(vary[0]), tuple(str(v) for v in vary[1])),
            budget_s=float(data["budget_s"]),
            seed=int(data["seed"]),
            reference=str(data["reference"]),
            ladder=tuple(str(name) for name in data["ladder"]),
            budgets=tuple(float(scale) for scale in data["budgets"]),
        )

    def same_study(self, other: DossierSpec) -> bool:
        """True when both specs ask the same questions (the budget may differ)."""
        return dataclasses.replace(self, budget_s=0.0) == dataclasses.replace(other, budget_s=0.0)


@dataclasses.dataclass(frozen=True, slots=True)
class Job:
    """One config and the question it answers.

    Attributes:
        lone: the player alone among ``others`` (None for the table: everyone is ``others``).
        restriction: the card the lone player is barred from (restricted play; None for
            its control, the same table unbarred).
        scale: the lone ``ismcts`` budget scale (search).
    """

    family: Family
    variant: str
    config: SimConfig
    others: str
    lone: str | None = None
    restriction: Restriction | None = None
    scale: float | None = None

    @property
    def players(self) -> int:
        """The player count."""
        return self.config.settings.player_count

    @property
    def rotation(self) -> int:
        """Games per deal: the lone player sits at every seat once."""
        return len(self.config.bot_names)


def _lone(lone: str, others: str, players: int) -> tuple[str, ...]:
    return (lone, *[others] * (players - 1))


def restrictions_in_deck(settings: Settings) -> list[Restriction]:
    """The cards a player can be barred from in this deck (no Reverse with 2 players,
    R2, unless ``two_player_reverses`` keeps them; then they have no effect, R30)."""
    keep = settings.two_player_reverses
    kinds = {
        CARD_KIND[card] for card in deck_for(settings.player_count, keep_two_player_reverses=keep)
    }
    return [r for r in Restriction if r.kinds & kinds]


def build_jobs(spec: DossierSpec) -> list[Job]:
    """Every config the spec needs, variant by variant and player count by count, each
    with one game (``games`` is set by :func:`allocate`)."""
    jobs: list[Job] = []
    for variant, options in spec.variants():
        for players in spec.players:
            settings = Settings.from_options(list(options), player_count=players)
            jobs += _group_jobs(spec, variant, settings)
    return jobs


def _group_jobs(spec: DossierSpec, variant: str, settings: Settings) -> list[Job]:
    players = settings.player_count
    ref = spec.reference

    def config(bots: Sequence[str]) -> SimConfig:
        return SimConfig(settings, tuple(bots), 1, spec.seed)

    jobs = [Job(Family.TABLE, variant, config([ref]), ref)]
    ladder = spec.ladder
    pairs = [(ladder[i], ladder[i - 1]) for i in range(1, len(ladder))]
    if (ref, spec.skill_base()) not in pairs and ref != spec.skill_base():
        pairs.append((ref, spec.skill_base()))  # the share of skill
    for strong, weak in pairs:
        if PlayerSpec.parse(strong).bot == "ismcts":
            for scale in spec.budgets:
                lone = str(PlayerSpec("ismcts", scale))
                bots = _lone(lone, weak, players)
                jobs.append(Job(Family.SEARCH, variant, config(bots), weak, lone, scale=scale))
        else:
            jobs.append(
                Job(Family.LADDER, variant, config(_lone(strong, weak, players)), weak, strong)
            )
    jobs.append(Job(Family.RESTRICTED, variant, config(_lone(ref, ref, players)), ref, ref))
    for restriction in restrictions_in_deck(settings):
        lone = str(PlayerSpec(PlayerSpec.parse(ref).bot, barred=restriction))
        bots = _lone(lone, ref, players)
        jobs.append(Job(Family.RESTRICTED, variant, config(bots), ref, lone, restriction))
    return jobs


def pilot_games(job: Job) -> int:
    """Games a job plays to time itself: whole rounds of deals, at least four games."""
    return job.rotation * math.ceil(_PILOT_GAMES / job.rotation)


@dataclasses.dataclass(frozen=True, slots=True)
class Plan:
    """A dossier's spec and every config's number of games (the first of each config
    is game 0, so a plan names its games exactly)."""

    spec: DossierSpec
    games: dict[str, int]
    seconds_per_game: dict[str, float]

    def jobs(self) -> list[Job]:
        """The spec's jobs with their planned games."""
        return [
            dataclasses.replace(
                job, config=dataclasses.replace(job.config, games=self.games[job.config.config_id])
            )
            for job in build_jobs(self.spec)
        ]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (:meth:`from_dict` reads it back)."""
        return {
            "spec": self.spec.to_dict(),
            "games": dict(self.games),
            "seconds_per_game": dict(self.seconds_per_game),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Plan:
        """Read :meth:`to_dict` data back; raises ValueError if it misses a config."""
        spec = DossierSpec.from_dict(data["spec"])
        games = {str(key): int(value) for key, value in data["games"].items()}
        missing = [
            job.config.config_id for job in build_jobs(spec) if job.config.config_id not in games
        ]
        if missing:
            raise ValueError(f"the plan has no game count for {missing[0]}")
        seconds = {str(k): float(v) for k, v in data.get("seconds_per_game", {}).items()}
        return cls(spec, games, seconds)


def allocate(spec: DossierSpec, seconds_per_game: Mapping[str, float], core_seconds: float) -> Plan:
    """Share ``core_seconds`` of play among the spec's configs: equally among the
    groups (variant x player count); within a group by family weight; within a family
    the same number of games for every config (whole rounds of deals, from the pilot's
    games up to the family's cap)."""
    jobs = build_jobs(spec)
    groups = {(job.variant, job.players) for job in jobs}
    per_group = max(0.0, core_seconds) / len(groups)
    games: dict[str, int] = {}
    for variant, players in groups:
        mine = [job for job in jobs if (job.variant, job.players) == (variant, players)]
        families = {job.family for job in mine}
        total_weight = sum(_WEIGHTS[family] for family in families)
        for family in families:
            members = [job for job in mine if job.family == family]
            share = per_group * _WEIGHTS[family] / total_weight
            cost = sum(seconds_per_game[job.config.config_id] for job in members)
            count = int(share / cost) if cost > 0 else _CAPS[family]
            for job in members:
                rounds = max(min(count, _CAPS[family]), 1) // job.rotation
                games[job.config.config_id] = max(rounds * job.rotation, pilot_games(job))
    return Plan(spec, games, dict(seconds_per_game))
