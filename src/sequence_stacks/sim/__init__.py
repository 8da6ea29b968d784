"""Many games at once: tournaments, balance statistics and reports."""

__all__: list[str] = []
