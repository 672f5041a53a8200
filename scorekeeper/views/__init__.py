"""Views: one module per screen group (thin function views).

site (home, colours, health), accounts, players, sessions (list, start, import), table (the
table-side screens, with the family screens `deals` and `rounds` behind its registry), live
(polling), links (share, watch and scorer links), exports (scoresheet file, CSV) and rules
(printable rule sheets and score pads, offline).
"""
