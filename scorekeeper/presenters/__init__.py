"""Presenters: what the rules computed, shaped into rows and words for the templates.

One module per game family, with the same surface (`table_context`, `grid_context`,
`outcome`, `change_label`, `csv_rows`, `sheet_context`, `pad_context`,
`counter_context` (the adding game's card counter; nothing for the trick game), `stale`
(whether a scoring phone's page is behind what was entered), the folder of its templates
(`TEMPLATES`) and the id of the family it presents (`FAMILY`)); a session's is its family's
(`registry.presenter(family)`, typed by `registry.Presenter`). The others shape what both
families share.
Nothing here scores: every function takes the result it shows, kept by version.
"""
