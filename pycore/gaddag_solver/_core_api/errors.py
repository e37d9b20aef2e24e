"""What the core refuses, as exceptions; the core's own message read from a gd_error."""

from __future__ import annotations

from typing import Any

from .._binding import ffi


class CoreFormatError(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


class CoreBuildError(Exception):
    pass


def _message(err: Any) -> str:
    return ffi.string(err.message).decode("utf-8", "replace")


class CoreError(ValueError):
    """The generator refused its input; the message is the core's."""
