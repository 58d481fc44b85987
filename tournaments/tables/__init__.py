"""django-tables2 tables, fed from selectors: sessions (a session's deals and totals),
standings (club standings and ratings), events (tournament standings)."""
