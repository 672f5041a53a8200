"""Service functions: every write, one transaction each (STYLE.md: view → form → service).

Reads of a session are model methods (`GameSession.result()` and friends); what is here
changes something. Each write to a session's entries follows the skeleton of `changes`.
"""

from scorekeeper.services.changes import (
    AlreadyDone,
    Conflict,
    KeyReused,
    Rejected,
    Saved,
    Who,
    replayed,
)
from scorekeeper.services.deals import (
    add_deal,
    delete_last_deal,
    edit_deal,
    extend_session,
    redo_deal,
    undone_deal,
)
from scorekeeper.services.rounds import edit_round, record_event, undo_event
from scorekeeper.services.sessions import (
    create_adding_session,
    create_session,
    import_scoresheet,
    rename_player,
)

__all__ = [
    "AlreadyDone", "Conflict", "KeyReused", "Rejected", "Saved", "Who", "add_deal",
    "create_adding_session", "create_session", "delete_last_deal", "edit_deal", "edit_round",
    "extend_session", "import_scoresheet", "record_event", "redo_deal", "rename_player",
    "replayed", "undo_event", "undone_deal",
]  # fmt: skip
