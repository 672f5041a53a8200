"""Service functions: every write, one transaction each (view → form → service).

Reads of a session are model methods, and its result `live.result()`; what is here changes
something, and raises the version of each session it changes (`live.bump`). Each write to a
session's entries follows the skeleton of `changes`.
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
    may_extend,
    redo_deal,
    undone_deal,
)
from scorekeeper.services.manage import (
    abandon_session,
    change_link,
    delete_for_good,
    delete_session,
    rematch,
    rename_seated_player,
    rename_session,
    reorder_seats,
    replace_player,
    restore_session,
    resume_session,
)
from scorekeeper.services.rounds import edit_round, record_event, undo_event
from scorekeeper.services.rulesets import delete_ruleset, save_ruleset
from scorekeeper.services.sessions import (
    create_adding_session,
    create_session,
    import_scoresheet,
    rename_player,
)

__all__ = [
    "delete_ruleset",
    "save_ruleset",
    "AlreadyDone", "Conflict", "KeyReused", "Rejected", "Saved", "Who", "abandon_session",
    "change_link",
    "add_deal", "create_adding_session", "create_session", "delete_for_good", "delete_last_deal",
    "delete_session", "edit_deal", "edit_round", "extend_session", "import_scoresheet",
    "may_extend",
    "record_event", "redo_deal", "rematch", "rename_player", "rename_seated_player",
    "rename_session", "reorder_seats", "replace_player", "replayed", "restore_session",
    "resume_session", "undo_event", "undone_deal",
]  # fmt: skip
