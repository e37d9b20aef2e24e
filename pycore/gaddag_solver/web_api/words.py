"""The word tools: check words, anagrams, patterns, words containing letters, hooks."""

from __future__ import annotations

from typing import Any

from ..alphabet import AlphabetError
from ..word_tools import WordToolError, hooks, word_query
from ._base import ApiError, _error, _whole
from .loaded import (
    _lexicon,
)


def word_tools(request: dict[str, Any]) -> dict[str, Any]:
    """``{"lexicon", "tool", "query"[, "limit"][, "hooks"]}`` → word_tools.word_query's answer
    (``count``, the first ``limit`` ``words`` (default 500), ``valid`` for a check); with
    ``hooks`` (a word) instead: that word's ``in_lexicon``, ``front`` and ``back`` hooks."""
    try:
        lexicon = _lexicon(request.get("lexicon"))
        if request.get("hooks") is not None:
            word = str(request["hooks"])
            try:
                found = hooks(lexicon, word)
                spelled = lexicon.alphabet.normalize(word)
            except AlphabetError as exc:
                raise ApiError(str(exc), "query") from None
            return {"word": spelled, "in_lexicon": spelled in lexicon, **found}
        limit = _whole(request, "limit")
        answer = word_query(lexicon, str(request.get("tool")), str(request.get("query") or ""))
        return answer.to_dict(500 if limit is None else limit)
    except WordToolError as exc:
        return _error(str(exc), "query")
    except ApiError as exc:
        return _error(exc.message, exc.field)
