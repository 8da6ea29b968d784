"""Web play: HTTP lobby, WebSocket tables, storage and the browser client."""

__all__: list[str] = []
