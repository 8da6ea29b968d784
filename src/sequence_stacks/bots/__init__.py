"""Players that see only what their seat may see."""

__all__: list[str] = []
