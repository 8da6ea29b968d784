"""A design dossier: a rule variant's qualities, measured with intervals, in one run.

``sequence-stacks dossier`` (docs/balance.md) plays traced games and turns them into
figures, sentences and one self-contained page. The modules, in the order data flows:

- :mod:`.plan`: the spec, the configs each question needs, the games the budget allows;
- :mod:`.traces`: one game turn by turn (chips, win chances, moves, Block windows),
  played by the simulator's runner (:mod:`..runner`) into a resumable file;
- :mod:`.chances`: the win-chance estimates the drama figures follow;
- :mod:`.metrics`, :mod:`.measure` and :mod:`.intervals`: pure functions of traces, with
  95% intervals;
- :mod:`.analysis`: every figure of every group, and variants against the baseline;
- :mod:`.words`: titles, units and the sentence each figure says to a family;
- :mod:`.figures`, :mod:`.page`, :mod:`.markdown`: the plots, the HTML page, the tables;
- :mod:`.run`: the run itself (pilot, plan, games, resume, output).
"""

from .chances import ChipsWinChance, ModelWinChance, WinChance
from .plan import DossierSpec, Plan
from .run import DossierError, DossierOutcome, DossierProgress, run_dossier, write_dossier
from .traces import GameTrace, TraceFileError, play_trace, read_traces

__all__ = [
    "ChipsWinChance",
    "DossierError",
    "DossierOutcome",
    "DossierProgress",
    "DossierSpec",
    "GameTrace",
    "ModelWinChance",
    "Plan",
    "TraceFileError",
    "WinChance",
    "play_trace",
    "read_traces",
    "run_dossier",
    "write_dossier",
]
