"""Forms: the shape of what a person sends (view → form → service).

One module per screen group: accounts, players, sessions (starting, importing, filtering),
deals (the trick game's deal), rounds (the adding game's corrections) and rules (the rule
sheets' options). The start form of each family is found in `sessions.START_FORMS`.
"""
