"""Terminal play."""

__all__: list[str] = []
