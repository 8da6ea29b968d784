"""Many games at once: tournaments, balance statistics and reports.

:func:`play_game` plays one game between bots (each sees only its own view) and
returns the final state and the full record; :func:`iter_selfplay` / :func:`selfplay`
play many with seat rotation, and :func:`summarize` turns their rows into win rates
with Wilson intervals. :func:`run_tasks` plays many :class:`SimConfig` games across
processes into a :class:`ResultsWriter` (CSV or Parquet, resumable), and
:func:`write_report` renders a results file as statistics, PNG plots and HTML.
:func:`run_dossier` measures a rule variant's qualities (fairness, length, skill, drama,
card worth, kingmaking) with intervals from traced games (:class:`GameTrace`) and
writes a design dossier (the :mod:`.dossier` package); :class:`WinChance` is the
estimate its drama figures follow.
"""

from .dossier import (
    ChipsWinChance,
    DossierError,
    DossierOutcome,
    DossierProgress,
    DossierSpec,
    GameTrace,
    ModelWinChance,
    Plan,
    WinChance,
    play_trace,
    read_traces,
    run_dossier,
    write_dossier,
)
from .dossier.metrics import Pace
from .play import BotError, play_game
from .players import PlayerSpec, Restriction, make_player
from .report import analyse, rate_bots, write_report
from .results import (
    COLUMNS,
    ResultsWriter,
    Row,
    has_pyarrow,
    is_parquet,
    read_results,
    row_key,
    seat_values,
)
from .runner import RunStats, SimConfig, Task, play_row, run_tasks, tasks_of
from .selfplay import (
    GameRow,
    Rate,
    Summary,
    iter_selfplay,
    seat_bots,
    selfplay,
    summarize,
    wilson_interval,
)

__all__ = [
    "COLUMNS",
    "BotError",
    "ChipsWinChance",
    "DossierError",
    "DossierOutcome",
    "DossierProgress",
    "DossierSpec",
    "GameRow",
    "GameTrace",
    "ModelWinChance",
    "Pace",
    "Plan",
    "PlayerSpec",
    "Rate",
    "Restriction",
    "ResultsWriter",
    "Row",
    "RunStats",
    "SimConfig",
    "Summary",
    "Task",
    "WinChance",
    "analyse",
    "has_pyarrow",
    "is_parquet",
    "iter_selfplay",
    "make_player",
    "play_game",
    "play_row",
    "play_trace",
    "rate_bots",
    "read_results",
    "read_traces",
    "row_key",
    "run_dossier",
    "run_tasks",
    "seat_bots",
    "seat_values",
    "selfplay",
    "summarize",
    "tasks_of",
    "wilson_interval",
    "write_dossier",
    "write_report",
]
