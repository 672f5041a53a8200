"""Pure-Python rules of the Ninety-Nine games: standard library only, no Django, no I/O."""
