"""What a page says, read for assertions: without the parts that are random on every answer."""

import re


def without_tokens(page: str) -> str:
    """The page without what differs on every response: the CSRF token and the CSP nonce.
    (Random letters can spell a short name: a token once held "Ann".)"""
    return re.sub(r'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": |nonce=)"[^"]*"', "", page)
