"""JSON answers: a refusal with its HTTP status, plain data, cached documents."""

from __future__ import annotations

import hashlib
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from sequence_stacks.server.play import Refusal
from sequence_stacks.server.play.codec import dumps_bytes

__all__ = ["NO_STORE", "cached", "error_response", "frozen", "json_response"]

NO_STORE: Final = {"Cache-Control": "no-store"}


def error_response(refusal: Refusal) -> JSONResponse:
    """A refusal as a JSON response with its HTTP status (and ``Retry-After``)."""
    body: dict[str, Any] = {
        "code": refusal.code.value,
        "reason": refusal.reason,
        "rule": refusal.rule_id,
    }
    if refusal.detail is not None:
        body["detail"] = dict(refusal.detail)
    headers = dict(NO_STORE)
    if refusal.retry_after is not None:
        headers["Retry-After"] = str(refusal.retry_after)
    return JSONResponse(body, status_code=refusal.code.http_status, headers=headers)


def json_response(data: object, status: int = 200) -> Response:
    """Plain data, never cached."""
    return Response(
        dumps_bytes(data),
        status_code=status,
        media_type="application/json",
        headers=NO_STORE,
    )


def frozen(data: object) -> tuple[bytes, str]:
    """A document that never changes while the server runs, with its ETag."""
    content = dumps_bytes(data)
    return content, '"' + hashlib.sha256(content).hexdigest()[:20] + '"'


def cached(request: Request, body: tuple[bytes, str], *, vary: str | None = None) -> Response:
    """A frozen document, or 304 when the client has it already."""
    content, etag = body
    headers = {"ETag": etag, "Cache-Control": "public, max-age=300"}
    if vary is not None:
        headers["Vary"] = vary
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(content, media_type="application/json", headers=headers)
